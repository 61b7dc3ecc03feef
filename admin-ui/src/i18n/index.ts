/**
 * react-admin i18nProvider: Japanese (default, spec §9) and English, each with react-admin's
 * own messages plus the console's `vmarket.*` messages. No fallback locale (spec §9).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import raJapanese from './ra-japanese';
import { vmarketEn, vmarketJa } from './vmarket';

export type AdminLocale = 'ja' | 'en';
export const DEFAULT_LOCALE: AdminLocale = 'ja';
export const LOCALES: { locale: AdminLocale; name: string }[] = [
  { locale: 'ja', name: '日本語' },
  { locale: 'en', name: 'English' },
];

export const MESSAGES: Record<AdminLocale, TranslationMessages> = {
  ja: { ...raJapanese, ...vmarketJa },
  en: { ...englishMessages, ...vmarketEn },
};

const polyglot = polyglotI18nProvider((locale) => MESSAGES[locale === 'en' ? 'en' : 'ja'], DEFAULT_LOCALE, LOCALES);

/**
 * Changing the language also sets `<html lang>`, so screen readers pronounce the English console
 * in English (index.html starts as `ja`).
 */
export const i18nProvider: typeof polyglot = {
  ...polyglot,
  changeLocale: async (locale, options) => {
    await polyglot.changeLocale(locale, options);
    if (typeof document !== 'undefined') document.documentElement.lang = locale === 'en' ? 'en' : 'ja';
  },
};
