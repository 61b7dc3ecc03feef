/**
 * New-build detection (spec §4): the page knows its build id from
 * `<meta name="vmarket-build-id">`; this polls `/builds/latest.json` every 60 s (or
 * `<meta name="vmarket-build-poll-ms">`) and on window focus, and reports each newer id once.
 * Network or parse failures are ignored until the next poll.
 */

/** Default poll interval. */
export const BUILD_POLL_MS = 60_000;

export interface BuildCheckOptions {
  /** The id this page was built with. */
  currentId: string;
  /** Called once per new id that differs from `currentId`. */
  onNewBuild: (id: string) => void;
  intervalMs?: number;
  fetch?: typeof fetch;
  /** Where to listen for `focus`; defaults to `window`. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now?: () => number;
}

export interface BuildCheck {
  /** Checks now; resolves to the latest id, or null when it could not be read. Never rejects. */
  check(): Promise<string | null>;
  /** Stops polling and listening. */
  stop(): void;
}

/** Reads `{"id": "..."}` from `/builds/latest.json`, bypassing caches; null on any failure. */
export async function fetchLatestBuildId(fetchImpl: typeof fetch = fetch, now: () => number = Date.now): Promise<string | null> {
  try {
    const res = await fetchImpl(`/builds/latest.json?t=${now()}`, { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) return null;
    const body = (await res.json()) as { id?: unknown } | null;
    return typeof body?.id === 'string' && body.id !== '' ? body.id : null;
  } catch {
    return null;
  }
}

/** Starts polling; see {@link BuildCheckOptions}. */
export function startBuildCheck(opts: BuildCheckOptions): BuildCheck {
  const notified = new Set<string>();
  const target = opts.target ?? window;
  let inFlight: Promise<string | null> | null = null;

  const check = (): Promise<string | null> => {
    inFlight ??= fetchLatestBuildId(opts.fetch, opts.now).then((id) => {
      inFlight = null;
      if (id !== null && id !== opts.currentId && !notified.has(id)) {
        notified.add(id);
        try {
          opts.onNewBuild(id);
        } catch (err) {
          console.warn('[vmarket] new-build notice failed', err);
        }
      }
      return id;
    });
    return inFlight;
  };
  const onFocus = (): void => {
    void check();
  };

  const timer = setInterval(onFocus, opts.intervalMs ?? BUILD_POLL_MS);
  target.addEventListener('focus', onFocus);
  return {
    check,
    stop() {
      clearInterval(timer);
      target.removeEventListener('focus', onFocus);
    },
  };
}
