/**
 * The console's i18nProvider: Japanese (default, spec §9) and English. Its own strings live in
 * the site's message catalogues (`locales/{ja,en}.json`, key `admin.*`), which the server serves
 * at `/_i18n/{lang}/messages.json`; react-admin's own strings (`ra.*`) come from
 * ra-language-english and `ra-japanese.ts`. Resource labels are `admin.resources.<name>.*` in
 * the catalogues and become react-admin's `resources.<name>.*`. The catalogues write
 * placeholders as `{name}`; Polyglot's `%{name}` is derived here. No fallback locale (spec §9).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import raJapanese from './ra-japanese';

export type AdminLocale = 'ja' | 'en';
export const DEFAULT_LOCALE: AdminLocale = 'ja';
export const LOCALES: { locale: AdminLocale; name: string }[] = [
  { locale: 'ja', name: '日本語' },
  { locale: 'en', name: 'English' },
];

/** A message catalogue as the server serves it. */
export interface Catalogue {
  [key: string]: string | Catalogue;
}

/** `{name}` placeholders as Polyglot's `%{name}`, throughout `node`. */
export function toPolyglot(node: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/\{(\w+)\}/g, '%{$1}') : toPolyglot(v)]),
  );
}

/** Everything the console translates in `locale`, from that locale's catalogue. */
export function messagesFor(locale: AdminLocale, catalogue: Catalogue): TranslationMessages {
  const site = toPolyglot(catalogue);
  const admin = (site.admin ?? {}) as Catalogue;
  const ra = locale === 'en' ? englishMessages : raJapanese;
  return { ...site, ...ra, resources: admin.resources ?? {} } as TranslationMessages;
}

/**
 * The locale react-admin remembered; else the site's (its language cookies, script-readable:
 * the manual choice, then the language the site last served, so that `/en/admin` → sign-in →
 * `/admin` stays English); else the default.
 */
export function storedLocale(
  storage: Pick<Storage, 'getItem'> | null = globalThis.localStorage ?? null,
  cookies: string = typeof document === 'undefined' ? '' : document.cookie,
): AdminLocale {
  const stored = storage?.getItem('RaStore.locale');
  if (stored) return stored.includes('en') ? 'en' : 'ja';
  const cookie = (name: string) => new RegExp(`(?:^|;\\s*)${name}=(ja|en)(?:;|$)`).exec(cookies)?.[1];
  const site = cookie('VUEI18N_MANUAL_LOCALE') ?? cookie('i18n_redirected');
  return site === 'en' ? 'en' : DEFAULT_LOCALE;
}

/** Sets `<html lang>`, so screen readers pronounce the English console in English. */
function markLanguage(locale: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = locale === 'en' ? 'en' : 'ja';
}

/**
 * The i18nProvider over both catalogues, starting in `initial`. Changing the language also sets
 * `<html lang>` (index.html starts as `ja`).
 */
export function createI18nProvider(
  catalogues: Record<AdminLocale, Catalogue>,
  initial: AdminLocale = storedLocale(),
): I18nProvider {
  const messages = { ja: messagesFor('ja', catalogues.ja), en: messagesFor('en', catalogues.en) };
  const polyglot = polyglotI18nProvider((locale) => messages[locale === 'en' ? 'en' : 'ja'], initial, LOCALES);
  markLanguage(initial);
  return {
    ...polyglot,
    changeLocale: async (locale, options) => {
      await polyglot.changeLocale(locale, options);
      markLanguage(locale);
    },
  };
}

/**
 * Both catalogues from the server. A failed load only warns: the console then shows keys rather
 * than nothing (as the widgets do).
 */
export async function loadCatalogues(fetchImpl: typeof fetch = fetch): Promise<Record<AdminLocale, Catalogue>> {
  const load = async (lang: AdminLocale): Promise<Catalogue> => {
    try {
      const res = await fetchImpl(`/_i18n/${lang}/messages.json`, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as Catalogue;
    } catch (err) {
      console.warn(`[vmarket] could not load messages for "${lang}"; showing keys`, err);
      return {};
    }
  };
  const [ja, en] = await Promise.all([load('ja'), load('en')]);
  return { ja, en };
}
