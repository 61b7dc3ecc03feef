import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_GUARD_MS, claimReload, installChunkReload, isChunkLoadError, reloadGuardKey } from './reload-guard';

const CHUNK_ERROR = new TypeError('Failed to fetch dynamically imported module: http://x/static/dist/widgets/assets/a.js');

describe('isChunkLoadError', () => {
  it('recognises browser chunk-load messages only', () => {
    expect(isChunkLoadError(CHUNK_ERROR)).toBe(true);
    expect(isChunkLoadError('error loading dynamically imported module')).toBe(true);
    expect(isChunkLoadError({ message: 'Importing a module script failed.' })).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});

describe('claimReload', () => {
  beforeEach(() => sessionStorage.clear());

  it('allows one reload per 10 s per path', () => {
    const t0 = 1_000_000;
    expect(claimReload(sessionStorage, '/mypage', t0)).toBe(true);
    expect(sessionStorage.getItem(reloadGuardKey('/mypage'))).toBe(String(t0));
    expect(claimReload(sessionStorage, '/mypage', t0 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload(sessionStorage, '/other', t0 + 1)).toBe(true);
    expect(claimReload(sessionStorage, '/mypage', t0 + RELOAD_GUARD_MS)).toBe(true);
  });

  it('never reloads without storage', () => {
    expect(claimReload(null, '/', 0)).toBe(false);
  });
});

describe('installChunkReload', () => {
  let now = 5_000_000;
  const reload = vi.fn();
  let uninstall = (): void => {};

  beforeEach(() => {
    sessionStorage.clear();
    reload.mockClear();
    now = 5_000_000;
    window.history.replaceState(null, '', '/mypage/circles');
    uninstall = installChunkReload({ reload, now: () => now }).uninstall;
  });
  afterEach(() => uninstall());

  function rejection(reason: unknown): void {
    const event = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(event, 'reason', { value: reason });
    window.dispatchEvent(event);
  }

  it('reloads on a chunk error, not again within 10 s, again after', () => {
    rejection(CHUNK_ERROR);
    expect(reload).toHaveBeenCalledTimes(1);
    now += RELOAD_GUARD_MS - 1;
    rejection(CHUNK_ERROR);
    expect(reload).toHaveBeenCalledTimes(1);
    now += 1;
    rejection(CHUNK_ERROR);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('guards each path separately', () => {
    rejection(CHUNK_ERROR);
    window.history.replaceState(null, '', '/en/worlds');
    rejection(CHUNK_ERROR);
    expect(reload).toHaveBeenCalledTimes(2);
    rejection(CHUNK_ERROR);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('ignores other errors', () => {
    rejection(new Error('boom'));
    window.dispatchEvent(new ErrorEvent('error', { message: 'x is not a function' }));
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads on error events and vite:preloadError, preventing the throw only when reloading', () => {
    window.dispatchEvent(new ErrorEvent('error', { error: CHUNK_ERROR, message: CHUNK_ERROR.message }));
    expect(reload).toHaveBeenCalledTimes(1);

    window.history.replaceState(null, '', '/fresh');
    const first = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(first);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(first.defaultPrevented).toBe(true);

    const second = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(second);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(second.defaultPrevented).toBe(false);
  });
});
