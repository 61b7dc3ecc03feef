import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTranslator } from '../../i18n';
import { I18nContext } from '../../i18n-react';
import { EN, JA } from '../../test/messages';
import PhaseCountdown from './PhaseCountdown';
import type { Phase } from './countdown';

// The browser clock is in 2020; the (time-travelled) server says it is 2026-01-10T02:59:55Z.
const BROWSER_NOW = Date.parse('2020-06-01T00:00:00Z');
const SERVER_NOW = '2026-01-10T02:59:55Z';
const PHASES: Phase[] = [
  { type: 'entry_start', label: 'Entry opens', at: '2026-01-10T03:00:00Z' },
  { type: 'entry_end', label: 'Entry closes', at: '2026-01-10T03:01:00Z' },
];

function renderCountdown(phases: Phase[], messages = EN) {
  return render(
    <I18nContext.Provider value={createTranslator(messages)}>
      <PhaseCountdown lang="en" now={SERVER_NOW} phases={phases} />
    </I18nContext.Provider>,
  );
}

const remaining = () => screen.getByTestId('phase-countdown-remaining').textContent;
const live = () => screen.getByTestId('phase-countdown-live').textContent;

describe('<PhaseCountdown>', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: BROWSER_NOW });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts down on the server clock, not the browser clock', () => {
    renderCountdown(PHASES);
    expect(live()).toContain('Until Entry opens');
    expect(remaining()).toBe('5s');
    act(() => vi.advanceTimersByTime(1000));
    expect(remaining()).toBe('4s');
  });

  it('moves to the next phase when the countdown reaches zero, then shows none', () => {
    renderCountdown(PHASES);
    act(() => vi.advanceTimersByTime(5000));
    expect(live()).toContain('Until Entry closes');
    expect(remaining()).toBe('1m 0s');
    act(() => vi.advanceTimersByTime(59_000));
    expect(remaining()).toBe('1s');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByTestId('phase-countdown-remaining')).toBeNull();
    expect(live()).toBe('No upcoming phases.');
  });

  it('renders Japanese through message keys', () => {
    renderCountdown([{ type: 'entry_start', label: 'エントリー開始', at: '2026-01-12T04:01:07Z' }], JA);
    expect(live()).toContain('エントリー開始まで');
    expect(remaining()).toBe('2日 1時間 1分 12秒');
  });

  it('shows the none message when every phase is past', () => {
    renderCountdown([{ type: 'entry_start', label: 'Entry opens', at: '2025-01-01T00:00:00Z' }]);
    expect(live()).toBe('No upcoming phases.');
  });
});
