import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MESSAGE_CACHE_MS,
  createTranslator,
  documentLang,
  interpolate,
  loadMessages,
  loadTranslator,
  lookup,
  resetMessageMemory,
} from './i18n';
import { EN, JA } from './test/messages';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('interpolate and lookup', () => {
  it('fills {name} placeholders and leaves unknown ones', () => {
    expect(interpolate('{phase}まで', { phase: 'エントリー開始' })).toBe('エントリー開始まで');
    expect(interpolate('{n}d {x}', { n: 3 })).toBe('3d {x}');
  });

  it('looks up dotted keys only when they end on a string', () => {
    expect(lookup(EN, 'countdown.until')).toBe('Until {phase}');
    expect(lookup(EN, 'countdown')).toBeUndefined();
    expect(lookup(EN, 'countdown.until.more')).toBeUndefined();
    expect(lookup(EN, 'nope.key')).toBeUndefined();
  });

  it('translates with placeholders and falls back to the key when missing', () => {
    const t = createTranslator(JA);
    expect(t('countdown.days', { n: 2 })).toBe('2日');
    expect(t('countdown.missing', { n: 2 })).toBe('countdown.missing');
    expect(createTranslator({})('build.reload')).toBe('build.reload');
  });

  it('reads the page language from <html lang>', () => {
    document.documentElement.lang = 'en-US';
    expect(documentLang()).toBe('en');
    document.documentElement.lang = 'ja';
    expect(documentLang()).toBe('ja');
    document.documentElement.lang = '';
    expect(documentLang()).toBe('ja');
  });
});

describe('loadMessages', () => {
  beforeEach(() => {
    resetMessageMemory();
    localStorage.clear();
  });
  afterEach(() => resetMessageMemory());

  it('fetches /_i18n/{lang}/messages.json once and keeps it in memory', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(EN));
    const a = await loadMessages('en', { fetch: fetchMock, version: 'b1' });
    const b = await loadMessages('en', { fetch: fetchMock, version: 'b1' });
    expect(a).toEqual(EN);
    expect(b).toBe(a);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/_i18n/en/messages.json', expect.anything());
  });

  it('uses localStorage for 24 hours, then fetches again', async () => {
    const t0 = 1_700_000_000_000;
    const fetchMock = vi.fn(async () => jsonResponse(JA));
    await loadMessages('ja', { fetch: fetchMock, now: () => t0, version: 'b1' });
    expect(JSON.parse(localStorage.getItem('vmarket.i18n.ja') ?? '{}').messages).toEqual(JA);

    resetMessageMemory();
    const offline = vi.fn(async () => {
      throw new Error('offline');
    });
    await expect(loadMessages('ja', { fetch: offline, now: () => t0 + MESSAGE_CACHE_MS - 1, version: 'b1' })).resolves.toEqual(JA);
    expect(offline).not.toHaveBeenCalled();

    resetMessageMemory();
    await loadMessages('ja', { fetch: fetchMock, now: () => t0 + MESSAGE_CACHE_MS, version: 'b1' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('ignores the stored copy of another build', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(EN));
    await loadMessages('en', { fetch: fetchMock, version: 'old' });
    resetMessageMemory();
    await loadMessages('en', { fetch: fetchMock, version: 'new' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('warns and shows keys when loading fails, and retries later', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = vi.fn(async () => jsonResponse({ error: 'x' }, 500));
    const t = await loadTranslator('en', { fetch: failing, storage: null, version: null });
    expect(t('countdown.until', { phase: 'Entry' })).toBe('countdown.until');
    expect(warn).toHaveBeenCalledOnce();

    const ok = vi.fn(async () => jsonResponse(EN));
    const t2 = await loadTranslator('en', { fetch: ok, storage: null, version: null });
    expect(t2('countdown.until', { phase: 'Entry' })).toBe('Until Entry');
  });
});
