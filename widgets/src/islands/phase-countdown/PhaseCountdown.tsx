/**
 * Island `phase-countdown`: a live countdown to the next event phase on the SERVER clock
 * (which may be time-travelled), replacing the server's no-JS fallback. Ticks every second and
 * moves on to the following phase when one is reached.
 */
import { useEffect, useState } from 'react';
import { useT } from '../../i18n-react';
import { clockSkew, formatRemaining, nextPhase, type Phase } from './countdown';

export interface PhaseCountdownProps {
  lang?: 'ja' | 'en';
  /** Server "now" when the page was rendered, RFC 3339 UTC. */
  now: string;
  /** Phases sorted by time. */
  phases: Phase[];
}

export default function PhaseCountdown({ lang, now, phases }: PhaseCountdownProps) {
  const t = useT();
  const [skew] = useState(() => clockSkew(now, Date.now()));
  const [browserNow, setBrowserNow] = useState(() => Date.now());
  const serverNow = browserNow + skew;
  const next = nextPhase(phases ?? [], serverNow);
  const running = next !== null;

  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setBrowserNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);

  return (
    <div className="phase-countdown" data-testid="phase-countdown-live" lang={lang}>
      {next ? (
        <>
          <span className="phase-countdown__until">{t('countdown.until', { phase: next.phase.label })}</span>{' '}
          <span
            className="phase-countdown__remaining"
            data-testid="phase-countdown-remaining"
            data-phase={next.phase.type}
            role="timer"
          >
            {formatRemaining(next.atMs - serverNow, t)}
          </span>
        </>
      ) : (
        <span className="phase-countdown__none">{t('countdown.none')}</span>
      )}
    </div>
  );
}
