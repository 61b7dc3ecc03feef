/**
 * Messages for widgets (no literal UI text in components: everything goes through keys).
 *
 * Fetches `/_i18n/{lang}/messages.json` — the same `locales/{lang}.json` the server renders
 * with — keeps it in memory and in localStorage for 24 hours (spec §9 "message cache 24 hours",
 * also invalidated by a new build id), and translates dotted keys such as `countdown.until`
 * with `{name}` placeholders. A failed load only warns; a missing key shows the key itself.
 */
import { readMeta } from './meta';

export type Lang = 'ja' | 'en';
export interface Messages {
  [key: string]: string | Messages;
}
export type Params = Record<string, string | number>;
export type Translate = (key: string, params?: Params) => string;

/** Spec §9: message cache 24 hours. */
export const MESSAGE_CACHE_MS = 24 * 60 * 60 * 1000;
const STORAGE_PREFIX = 'vmarket.i18n.';

interface StoredMessages {
  savedAt: number;
  version: string | null;
  messages: Messages;
}

export interface LoadOptions {
  fetch?: typeof fetch;
  /** `null` disables the persistent cache. Defaults to `window.localStorage`. */
  storage?: Storage | null;
  now?: () => number;
  /** Cache version; defaults to the page's build id so a deploy refreshes the messages. */
  version?: string | null;
}

const memory = new Map<string, Promise<Messages>>();

/** The page language from `<html lang>`: `en` (also `en-US`) or the default `ja`. */
export function documentLang(doc: Document = document): Lang {
  return doc.documentElement.lang.toLowerCase().startsWith('en') ? 'en' : 'ja';
}

/** Looks up a dotted key in a nested message object; `undefined` unless it ends on a string. */
export function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Replaces `{name}` placeholders; unknown placeholders are left as they are. */
export function interpolate(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** A translate function over loaded messages; a missing key translates to the key itself. */
export function createTranslator(messages: Messages): Translate {
  return (key, params) => {
    const template = lookup(messages, key);
    return template === undefined ? key : interpolate(template, params);
  };
}

function isMessages(value: unknown): value is Messages {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readStored(storage: Storage | null, lang: Lang, now: number, version: string | null): Messages | null {
  try {
    const raw = storage?.getItem(STORAGE_PREFIX + lang);
    if (!raw) return null;
    const stored = JSON.parse(raw) as Partial<StoredMessages>;
    const age = now - (stored.savedAt ?? NaN);
    if (!(age >= 0 && age < MESSAGE_CACHE_MS) || stored.version !== version) return null;
    return isMessages(stored.messages) ? stored.messages : null;
  } catch {
    return null;
  }
}

function writeStored(storage: Storage | null, lang: Lang, entry: StoredMessages): void {
  try {
    storage?.setItem(STORAGE_PREFIX + lang, JSON.stringify(entry));
  } catch {
    // Quota or privacy mode: the memory cache still works.
  }
}

async function fetchMessages(lang: Lang, opts: LoadOptions): Promise<Messages> {
  const storage = opts.storage === undefined ? defaultStorage() : opts.storage;
  const now = (opts.now ?? Date.now)();
  const version = opts.version === undefined ? readMeta('vmarket-build-id') : opts.version;
  const cached = readStored(storage, lang, now, version);
  if (cached) return cached;

  const fetchImpl = opts.fetch ?? fetch;
  const res = await fetchImpl(`/_i18n/${lang}/messages.json`, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body: unknown = await res.json();
  if (!isMessages(body)) throw new Error('messages.json is not an object');
  writeStored(storage, lang, { savedAt: now, version, messages: body });
  return body;
}

/**
 * Messages for `lang`, from memory, localStorage (< 24 h) or the server. Never rejects:
 * on failure it warns and resolves to `{}` (so keys show), and a later call tries again.
 */
export function loadMessages(lang: Lang, opts: LoadOptions = {}): Promise<Messages> {
  const hit = memory.get(lang);
  if (hit) return hit;
  const pending = fetchMessages(lang, opts).catch((err: unknown) => {
    console.warn(`[vmarket] could not load messages for "${lang}"; showing keys`, err);
    memory.delete(lang);
    return {} as Messages;
  });
  memory.set(lang, pending);
  return pending;
}

/** Loads the messages and returns a translate function for them. */
export async function loadTranslator(lang: Lang = documentLang(), opts: LoadOptions = {}): Promise<Translate> {
  return createTranslator(await loadMessages(lang, opts));
}

/** Forgets the in-memory cache (tests). */
export function resetMessageMemory(): void {
  memory.clear();
}
