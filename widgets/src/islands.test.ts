import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTranslator } from './i18n';
import { ISLANDS, mountIslands, parseIslandProps } from './islands';
import { EN } from './test/messages';

const t = createTranslator(EN);

describe('parseIslandProps', () => {
  it('accepts JSON objects only', () => {
    expect(parseIslandProps('{"a":1}')).toEqual({ a: 1 });
    expect(parseIslandProps(null)).toEqual({});
    expect(() => parseIslandProps('[1]')).toThrow();
    expect(() => parseIslandProps('{oops')).toThrow();
  });
});

describe('mountIslands', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z'), toFake: ['Date', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  it('replaces the server fallback with the phase-countdown island', async () => {
    const props = {
      lang: 'en',
      now: '2026-01-01T00:00:00Z',
      phases: [{ type: 'entry_start', label: 'Entry opens', at: '2026-01-01T01:00:00Z' }],
    };
    document.body.innerHTML = `<div data-island="phase-countdown" data-props='${JSON.stringify(props)}'><p class="fallback">2026/01/01 10:00</p></div>`;
    const getTranslate = vi.fn(async () => t);
    await mountIslands(document, getTranslate);
    const el = document.querySelector<HTMLElement>('[data-island]');
    await vi.waitFor(() => expect(el?.querySelector('[data-testid="phase-countdown-remaining"]')?.textContent).toBe('1h 0m 0s'));
    expect(el?.querySelector('.fallback')).toBeNull();
    expect(el?.dataset.islandState).toBe('mounted');
    expect(getTranslate).toHaveBeenCalledOnce();
  });

  it('mounts the profile-form island, which loads the user in the language of its props', async () => {
    const user = { id: 1, name: 'Hanako', name_ja: '花子', name_en: 'Hanako', icon: null, external_links: [] };
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(user), { status: 200 }));
    document.body.innerHTML = `<div data-island="profile-form" data-props='{"lang":"en"}'><p class="fallback">no JS</p></div>`;
    await mountIslands(document, async () => t);
    const el = document.querySelector<HTMLElement>('[data-island]');
    await vi.waitFor(() => expect(el?.querySelector<HTMLInputElement>('[data-testid="profile-name-en"]')?.value).toBe('Hanako'));
    expect(el?.querySelector('.fallback')).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/user/me?lang=en', expect.anything());
  });

  it('loads no messages on pages without islands', async () => {
    const getTranslate = vi.fn(async () => t);
    await mountIslands(document, getTranslate);
    expect(getTranslate).not.toHaveBeenCalled();
  });

  it('keeps the fallback for bad props or unknown islands, and reports chunk failures', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    document.body.innerHTML = `
      <div id="bad" data-island="phase-countdown" data-props="{oops">fallback</div>
      <div id="unknown" data-island="nope">fallback</div>
      <div id="broken" data-island="broken">fallback</div>`;
    const chunkError = new TypeError('Failed to fetch dynamically imported module: /x.js');
    const onError = vi.fn();
    await mountIslands(document, async () => t, {
      registry: { ...ISLANDS, broken: () => Promise.reject(chunkError) },
      onError,
    });
    expect(document.getElementById('bad')?.textContent).toBe('fallback');
    expect(document.getElementById('unknown')?.textContent).toBe('fallback');
    expect(document.getElementById('broken')?.dataset.islandState).toBe('failed');
    expect(onError).toHaveBeenCalledExactlyOnceWith(chunkError, document.getElementById('broken'));
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
