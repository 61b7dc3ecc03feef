/**
 * Where the console starts. The site serves it at `/admin` and, through its locale prefixes, at
 * `/en/admin` and `/ja/admin` too; the app's routes live under `/admin`, so a prefixed address
 * matched none of them and the page stayed blank. A prefixed address picks the console's
 * language and is replaced by the unprefixed one.
 */
import type { AdminLocale } from './i18n';

/** The language a `/en/admin…` or `/ja/admin…` path asks for and the path without the prefix. */
export function consoleEntry(pathname: string): { lang: AdminLocale | null; path: string } {
  const match = /^\/(en|ja)(\/admin(?:\/.*)?)$/.exec(pathname);
  if (!match) return { lang: null, path: pathname };
  return { lang: match[1] as AdminLocale, path: match[2] ?? pathname };
}

/** Applies [`consoleEntry`] to the browser: remembers the language, drops the prefix. */
export function enterConsole(win: Window = window): void {
  const { lang, path } = consoleEntry(win.location.pathname);
  if (lang === null) return;
  // react-admin's store keeps the locale as JSON under `RaStore.locale`.
  win.localStorage.setItem('RaStore.locale', JSON.stringify(lang));
  win.history.replaceState(win.history.state, '', path + win.location.search + win.location.hash);
}
