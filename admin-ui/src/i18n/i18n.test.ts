import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ja from '../../../locales/ja.json';
import { type Catalogue, DEFAULT_LOCALE, createI18nProvider, messagesFor, storedLocale, toPolyglot } from '.';

const catalogues = { ja: ja as Catalogue, en: en as Catalogue };

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe('admin i18nProvider', () => {
  it('defaults to Japanese, with the site catalogue and react-admin strings', () => {
    expect(DEFAULT_LOCALE).toBe('ja');
    expect(storedLocale(null)).toBe('ja');
    const i18n = createI18nProvider(catalogues, 'ja');
    expect(i18n.getLocale()).toBe('ja');
    expect(i18n.translate('admin.dashboard.title')).toBe(ja.admin.dashboard.title);
    expect(i18n.translate('ra.action.save')).toBe('保存');
    expect(i18n.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe(
      '1〜10件 / 全42件',
    );
  });

  it('fills the catalogue placeholders', () => {
    const i18n = createI18nProvider(catalogues, 'en');
    expect(i18n.translate('admin.dashboard.show_all', { count: 3 })).toBe('Show all (3)');
    expect(toPolyglot({ a: 'x {n} y', b: { c: '{m}' } })).toEqual({ a: 'x %{n} y', b: { c: '%{m}' } });
  });

  it('has the same keys in Japanese and English', () => {
    expect(keysOf(messagesFor('ja', catalogues.ja)).sort()).toEqual(keysOf(messagesFor('en', catalogues.en)).sort());
  });

  it('switches to English', async () => {
    const i18n = createI18nProvider(catalogues, 'ja');
    await i18n.changeLocale('en');
    expect(i18n.translate('admin.dashboard.title')).toBe('Dashboard');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.translate('ra.notification.deleted', { smart_count: 2 })).toBe('2 elements deleted');
  });

  it('remembers the chosen locale', () => {
    expect(storedLocale({ getItem: () => '"en"' })).toBe('en');
    expect(storedLocale({ getItem: () => null }, '')).toBe('ja');
  });

  it("starts in the site's language when the console has none yet", () => {
    const none = { getItem: () => null };
    expect(storedLocale(none, 'a=1; i18n_redirected=en')).toBe('en');
    expect(storedLocale(none, 'VUEI18N_MANUAL_LOCALE=ja; i18n_redirected=en')).toBe('ja');
    expect(storedLocale(none, 'VUEI18N_MANUAL_LOCALE=en')).toBe('en');
    expect(storedLocale(none, 'xi18n_redirected=en')).toBe('ja');
    // The console's own choice wins.
    expect(storedLocale({ getItem: () => '"ja"' }, 'i18n_redirected=en')).toBe('ja');
  });
});
