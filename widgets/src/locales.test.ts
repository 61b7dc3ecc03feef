/**
 * The keys the widgets use must exist in the server's locales/{ja,en}.json (which
 * `/_i18n/{lang}/messages.json` serves). Skipped while a locale file does not exist yet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lookup, type Messages } from './i18n';
import { EN } from './test/messages';

function keysOf(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`),
  );
}

const WIDGET_KEYS = keysOf(EN);

describe.each(['ja', 'en'])('locales/%s.json', (lang) => {
  const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../locales', `${lang}.json`);
  it.skipIf(!existsSync(file))('has every widget message key', () => {
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Messages;
    const missing = WIDGET_KEYS.filter((key) => typeof lookup(messages, key) !== 'string');
    expect(missing).toEqual([]);
    for (const key of WIDGET_KEYS.filter((k) => k.startsWith('countdown.') && k !== 'countdown.none')) {
      const placeholder = key === 'countdown.until' ? '{phase}' : '{n}';
      expect(lookup(messages, key)).toContain(placeholder);
    }
  });

  it.skipIf(!existsSync(file))('keeps the placeholders of every widget message', () => {
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Messages;
    const placeholders = (text: string | undefined): string[] => (text?.match(/\{\w+\}/g) ?? []).sort();
    const wrong = WIDGET_KEYS.filter((key) => {
      const expected = placeholders(lookup(EN, key));
      const found = placeholders(lookup(messages, key));
      return expected.some((p) => !found.includes(p)) || found.some((p) => !expected.includes(p));
    });
    expect(wrong).toEqual([]);
  });
});
