import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILD_POLL_MS, fetchLatestBuildId, startBuildCheck, type BuildCheck } from './build-check';
import { showNewBuildToast } from './build-notice';
import { createTranslator } from './i18n';
import { EN, JA } from './test/messages';

function latest(id: string): Response {
  return new Response(JSON.stringify({ id }), { status: 200 });
}

describe('fetchLatestBuildId', () => {
  it('asks /builds/latest.json with a cache-busting t and no-store', async () => {
    const fetchMock = vi.fn(async () => latest('b2'));
    await expect(fetchLatestBuildId(fetchMock, () => 1234)).resolves.toBe('b2');
    expect(fetchMock).toHaveBeenCalledWith('/builds/latest.json?t=1234', expect.objectContaining({ cache: 'no-store' }));
  });

  it('returns null for failures and bad bodies', async () => {
    await expect(fetchLatestBuildId(async () => Promise.reject(new TypeError('offline')))).resolves.toBeNull();
    await expect(fetchLatestBuildId(async () => new Response('nope', { status: 503 }))).resolves.toBeNull();
    await expect(fetchLatestBuildId(async () => new Response('{"id": 3}'))).resolves.toBeNull();
    await expect(fetchLatestBuildId(async () => new Response('<html>'))).resolves.toBeNull();
  });
});

describe('startBuildCheck', () => {
  let check: BuildCheck | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    check?.stop();
    vi.useRealTimers();
  });

  it('does not notify while the id is unchanged', async () => {
    const onNewBuild = vi.fn();
    const fetchMock = vi.fn(async () => latest('b1'));
    check = startBuildCheck({ currentId: 'b1', onNewBuild, fetch: fetchMock });
    await vi.advanceTimersByTimeAsync(BUILD_POLL_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(onNewBuild).not.toHaveBeenCalled();
  });

  it('notifies once per new id, polling on the interval and on focus', async () => {
    const onNewBuild = vi.fn();
    let served = 'b1';
    const fetchMock = vi.fn(async () => latest(served));
    check = startBuildCheck({ currentId: 'b1', onNewBuild, fetch: fetchMock, intervalMs: 500 });

    served = 'b2';
    await vi.advanceTimersByTimeAsync(500);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith('b2');

    await vi.advanceTimersByTimeAsync(1500);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(onNewBuild).toHaveBeenCalledTimes(1);

    served = 'b3';
    await check.check();
    expect(onNewBuild).toHaveBeenLastCalledWith('b3');
    expect(onNewBuild).toHaveBeenCalledTimes(2);
  });

  it('survives fetch failures without notifying or throwing', async () => {
    const onNewBuild = vi.fn();
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    check = startBuildCheck({ currentId: 'b1', onNewBuild, fetch: fetchMock });
    await expect(check.check()).resolves.toBeNull();
    await vi.advanceTimersByTimeAsync(BUILD_POLL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onNewBuild).not.toHaveBeenCalled();
  });

  it('stops polling after stop()', async () => {
    const fetchMock = vi.fn(async () => latest('b1'));
    check = startBuildCheck({ currentId: 'b1', onNewBuild: vi.fn(), fetch: fetchMock });
    check.stop();
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(BUILD_POLL_MS * 2);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('showNewBuildToast', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('shows a translated bottom-right toast with a reload action once per id, closing after 3 s', () => {
    const reload = vi.fn();
    const toast = showNewBuildToast('b2', createTranslator(JA), reload);
    expect(toast?.textContent).toContain('新しいバージョンがあります。');
    const region = document.querySelector<HTMLElement>('.vmarket-toasts');
    expect(region?.style.position).toBe('fixed');
    expect(region?.style.right).toBe('16px');
    expect(region?.style.bottom).toBe('16px');
    expect(document.querySelector('[role="progressbar"]')).toBeNull();

    expect(showNewBuildToast('b2', createTranslator(JA), reload)).toBeNull();
    expect(document.querySelectorAll('.vmarket-toast')).toHaveLength(1);

    const button = toast?.querySelector('button');
    expect(button?.textContent).toBe('再読み込み');
    button?.click();
    expect(reload).toHaveBeenCalledOnce();

    vi.advanceTimersByTime(2999);
    expect(document.querySelectorAll('.vmarket-toast')).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(document.querySelectorAll('.vmarket-toast')).toHaveLength(0);
  });

  it('shows keys when messages are missing', () => {
    const toast = showNewBuildToast('b9', createTranslator({}), vi.fn());
    expect(toast?.textContent).toContain('build.new_version');
    expect(createTranslator(EN)('build.reload')).toBe('Reload');
  });
});
