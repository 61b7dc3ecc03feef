import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../i18n';
import { EN, JA } from '../../test/messages';
import { clockSkew, formatRemaining, nextPhase, splitDuration, type Phase } from './countdown';

const PHASES: Phase[] = [
  { type: 'entry_start', label: 'Entry opens', at: '2026-01-10T03:00:00Z' },
  { type: 'entry_end', label: 'Entry closes', at: '2026-01-20T03:00:00Z' },
];

describe('countdown logic', () => {
  it('splits durations, rounding up to whole seconds', () => {
    expect(splitDuration(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
    expect(splitDuration(1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(splitDuration(-5)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it('formats in the page language, dropping leading zero units', () => {
    const en = createTranslator(EN);
    const ja = createTranslator(JA);
    expect(formatRemaining(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000, en)).toBe('2d 3h 4m 5s');
    expect(formatRemaining((24 * 3600 + 5) * 1000, ja)).toBe('1日 0時間 0分 5秒');
    expect(formatRemaining(65_000, en)).toBe('1m 5s');
    expect(formatRemaining(0, en)).toBe('0s');
  });

  it('picks the first phase strictly in the future', () => {
    const before = Date.parse('2026-01-01T00:00:00Z');
    expect(nextPhase(PHASES, before)?.phase.type).toBe('entry_start');
    expect(nextPhase(PHASES, Date.parse('2026-01-10T03:00:00Z'))?.phase.type).toBe('entry_end');
    expect(nextPhase(PHASES, Date.parse('2026-02-01T00:00:00Z'))).toBeNull();
    expect(nextPhase([{ type: 'x', label: 'x', at: 'not a date' }], before)).toBeNull();
  });

  it('measures the server clock against the browser clock', () => {
    expect(clockSkew('2026-01-01T00:00:10Z', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(clockSkew('garbage', 123)).toBe(0);
  });
});
