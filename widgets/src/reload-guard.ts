/**
 * Chunk-load error recovery (spec §4, §9): when a lazily loaded chunk is gone — typically
 * because a new build replaced the hashed files — reload the page, but at most once per
 * 10 seconds per path, remembered in sessionStorage so a reload loop cannot happen.
 */

/** Spec §9: reload guard 10 seconds. */
export const RELOAD_GUARD_MS = 10_000;

/** sessionStorage key holding the last reload time (ms) for one path. */
export function reloadGuardKey(pathname: string): string {
  return `vmarket.chunk-reload:${pathname}`;
}

const CHUNK_ERROR_PATTERNS: RegExp[] = [
  /failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /importing a module script failed/i, // Safari
  /unable to preload css/i, // Vite CSS preload
  /loading (css )?chunk [\w-]+ failed/i,
  /chunkloaderror/i,
];

/** Whether an error (or its message) looks like a failed dynamic import / chunk load. */
export function isChunkLoadError(error: unknown): boolean {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : typeof error === 'string'
        ? error
        : typeof (error as { message?: unknown } | null)?.message === 'string'
          ? String((error as { message: string }).message)
          : '';
  return CHUNK_ERROR_PATTERNS.some((re) => re.test(text));
}

/**
 * Records a reload for `pathname` and returns true, unless one happened less than
 * 10 s ago. Without usable storage it returns false (no guard, no reload).
 */
export function claimReload(storage: Storage | null, pathname: string, now: number): boolean {
  if (!storage) return false;
  try {
    const key = reloadGuardKey(pathname);
    const last = Number(storage.getItem(key));
    if (last > 0 && now - last >= 0 && now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(key, String(now));
    return true;
  } catch {
    return false;
  }
}

export interface ChunkReloadOptions {
  win?: Window;
  storage?: Storage | null;
  reload?: () => void;
  now?: () => number;
}

export interface ChunkReload {
  /** Handles an error: reloads (and returns true) when it is a chunk error and the guard allows. */
  handle(error: unknown): boolean;
  /** Removes the window listeners. */
  uninstall(): void;
}

function sessionStorageOf(win: Window): Storage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Listens to `vite:preloadError`, `error` and `unhandledrejection` on the window and reloads
 * the page for chunk-load failures, guarded by {@link claimReload}.
 */
export function installChunkReload(opts: ChunkReloadOptions = {}): ChunkReload {
  const win = opts.win ?? window;
  const storage = opts.storage === undefined ? sessionStorageOf(win) : opts.storage;
  const reload = opts.reload ?? (() => win.location.reload());
  const now = opts.now ?? Date.now;

  const attempt = (): boolean => {
    if (!claimReload(storage, win.location.pathname, now())) return false;
    reload();
    return true;
  };
  const handle = (error: unknown): boolean => isChunkLoadError(error) && attempt();

  const onPreloadError = (event: Event): void => {
    // Vite only fires this for failed preloads, so no message check; prevent the throw only
    // when we are actually reloading.
    if (attempt()) event.preventDefault();
  };
  const onError = (event: ErrorEvent): void => {
    handle(event.error ?? event.message);
  };
  const onRejection = (event: PromiseRejectionEvent): void => {
    handle(event.reason);
  };

  win.addEventListener('vite:preloadError', onPreloadError);
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return {
    handle,
    uninstall() {
      win.removeEventListener('vite:preloadError', onPreloadError);
      win.removeEventListener('error', onError);
      win.removeEventListener('unhandledrejection', onRejection);
    },
  };
}
