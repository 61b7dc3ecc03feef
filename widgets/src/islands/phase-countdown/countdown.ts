/**
 * Pure countdown logic for the phase-countdown island: which phase comes next on the server
 * clock, and how the remaining time reads ("3日 4時間 5分 6秒" / "3d 4h 5m 6s").
 */
import type { Translate } from '../../i18n';

export interface Phase {
  /** Phase type, e.g. `entry_start`. */
  type: string;
  /** Already translated label. */
  label: string;
  /** RFC 3339 UTC instant. */
  at: string;
}

export interface NextPhase {
  phase: Phase;
  atMs: number;
}

export interface Duration {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Server clock minus browser clock, in ms; 0 when `serverNow` does not parse. */
export function clockSkew(serverNow: string, browserNowMs: number): number {
  const server = Date.parse(serverNow);
  return Number.isNaN(server) ? 0 : server - browserNowMs;
}

/** The earliest phase strictly after `nowMs` (phases with unparsable times are skipped). */
export function nextPhase(phases: readonly Phase[], nowMs: number): NextPhase | null {
  let best: NextPhase | null = null;
  for (const phase of phases) {
    const atMs = Date.parse(phase.at);
    if (Number.isNaN(atMs) || atMs <= nowMs) continue;
    if (best === null || atMs < best.atMs) best = { phase, atMs };
  }
  return best;
}

/** Splits a remaining time, rounded up to whole seconds (so zero shows only when reached). */
export function splitDuration(ms: number): Duration {
  let s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86_400);
  s -= days * 86_400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  return { days, hours, minutes, seconds: s - minutes * 60 };
}

/** Remaining time in words; leading zero units are left out, seconds always show. */
export function formatRemaining(ms: number, t: Translate): string {
  const d = splitDuration(ms);
  const parts: string[] = [];
  if (d.days > 0) parts.push(t('countdown.days', { n: d.days }));
  if (parts.length > 0 || d.hours > 0) parts.push(t('countdown.hours', { n: d.hours }));
  if (parts.length > 0 || d.minutes > 0) parts.push(t('countdown.minutes', { n: d.minutes }));
  parts.push(t('countdown.seconds', { n: d.seconds }));
  return parts.join(' ');
}
