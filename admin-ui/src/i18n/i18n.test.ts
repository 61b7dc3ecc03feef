import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, MESSAGES, i18nProvider } from '.';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe('admin i18nProvider', () => {
  it('defaults to Japanese', () => {
    expect(DEFAULT_LOCALE).toBe('ja');
    expect(i18nProvider.getLocale()).toBe('ja');
    expect(i18nProvider.translate('vmarket.dashboard.ready')).toBe('管理コンソールの準備ができました。');
    expect(i18nProvider.translate('ra.action.save')).toBe('保存');
    expect(i18nProvider.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe(
      '1〜10件 / 全42件',
    );
  });

  it('has the same keys in Japanese and English', () => {
    expect(keysOf(MESSAGES.ja).sort()).toEqual(keysOf(MESSAGES.en).sort());
  });

  it('switches to English', async () => {
    await i18nProvider.changeLocale('en');
    try {
      expect(i18nProvider.translate('vmarket.dashboard.ready')).toBe('The admin console is ready.');
      expect(document.documentElement.lang).toBe('en');
      expect(i18nProvider.translate('ra.notification.deleted', { smart_count: 2 })).toBe('2 elements deleted');
    } finally {
      await i18nProvider.changeLocale('ja');
    }
  });
});
