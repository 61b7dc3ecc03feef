import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../i18n';
import { EN, JA } from '../../test/messages';
import {
  ICON_MAX_BYTES,
  charCount,
  checkIcon,
  cleanLinks,
  hasErrors,
  isHttpUrl,
  validateProfile,
  type FieldError,
  type ProfileInput,
} from './validate';

const OK: ProfileInput = { name_ja: '山田花子', name_en: 'Hanako Yamada', links: ['https://example.com/a'], icon: null };
const ja = createTranslator(JA);
const en = createTranslator(EN);
const say = (e: FieldError | undefined, t = ja) => (e ? t(e.key, e.params) : undefined);

describe('validateProfile', () => {
  it('accepts a valid profile, names at their limits and blank link rows', () => {
    expect(validateProfile(OK)).toEqual({});
    expect(hasErrors(validateProfile(OK))).toBe(false);
    const atLimits = validateProfile({
      ...OK,
      name_ja: 'あ'.repeat(64),
      name_en: 'a'.repeat(128),
      links: ['', '  ', 'http://a.example/', 'https://b.example/x?y=1#z', ''],
      icon: { size: ICON_MAX_BYTES, type: 'image/webp' },
    });
    expect(atLimits).toEqual({});
  });

  it('requires both names and caps them at 64 and 128 characters, in the page language', () => {
    const empty = validateProfile({ ...OK, name_ja: '   ', name_en: '' });
    expect(say(empty.name_ja)).toBe('表示名（日本語）を入力してください。');
    expect(say(empty.name_en)).toBe('表示名（英語）を入力してください。');
    expect(say(empty.name_ja, en)).toBe('Enter a Japanese display name.');

    const long = validateProfile({ ...OK, name_ja: 'あ'.repeat(65), name_en: 'a'.repeat(129) });
    expect(say(long.name_ja)).toBe('表示名（日本語）は64文字以内で入力してください。');
    expect(say(long.name_en)).toBe('表示名（英語）は128文字以内で入力してください。');
    expect(say(long.name_en, en)).toBe('The English display name must be at most 128 characters.');
  });

  it('counts characters as code points, like the server', () => {
    expect(charCount('😀'.repeat(64))).toBe(64);
    expect(validateProfile({ ...OK, name_ja: '😀'.repeat(64) }).name_ja).toBeUndefined();
    expect(validateProfile({ ...OK, name_ja: '😀'.repeat(65) }).name_ja?.key).toBe('profile_form.errors.name_ja_too_long');
  });

  it('flags each bad link row by its index', () => {
    const errors = validateProfile({
      ...OK,
      links: ['https://ok.example/', 'ftp://files.example/', '', 'example.com', 'javascript:alert(1)', 'http://'],
    });
    expect(Object.keys(errors.links ?? {})).toEqual(['1', '3', '4', '5']);
    expect(say(errors.links?.[1])).toBe('http:// または https:// で始まるURLを入力してください。');
    expect(say(errors.links?.[3], en)).toBe('Enter a URL starting with http:// or https://.');
    expect(errors.external_links).toBeUndefined();
  });

  it('caps a link at 2048 characters', () => {
    const base = 'https://example.com/';
    const at = base + 'a'.repeat(2048 - base.length);
    expect(validateProfile({ ...OK, links: [at] })).toEqual({});
    const errors = validateProfile({ ...OK, links: [at + 'a'] });
    expect(say(errors.links?.[0])).toBe('URLは2048文字以内で入力してください。');
  });

  it('allows at most 5 links (blank rows do not count)', () => {
    const five = Array.from({ length: 5 }, (_, i) => `https://example.com/${i}`);
    expect(validateProfile({ ...OK, links: [...five, ''] })).toEqual({});
    const errors = validateProfile({ ...OK, links: [...five, 'https://example.com/5'] });
    expect(say(errors.external_links)).toBe('外部リンクは5件まで登録できます。');
    expect(say(errors.external_links, en)).toBe('You can add up to 5 external links.');
  });

  it('limits the icon to 5 MiB of PNG, JPEG, WebP or GIF', () => {
    expect(checkIcon(null)).toBeUndefined();
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) {
      expect(checkIcon({ size: 1000, type })).toBeUndefined();
    }
    const big = validateProfile({ ...OK, icon: { size: ICON_MAX_BYTES + 1, type: 'image/png' } });
    expect(say(big.icon)).toBe('アイコン画像は5MB以下のファイルを選んでください。');
    expect(say(big.icon, en)).toBe('The icon must be 5 MB or smaller.');
    const svg = validateProfile({ ...OK, icon: { size: 100, type: 'image/svg+xml' } });
    expect(say(svg.icon)).toBe('アイコン画像はPNG・JPEG・WebP・GIF形式のファイルを選んでください。');
    expect(checkIcon({ size: 100, type: '' })?.key).toBe('profile_form.errors.icon_type');
  });
});

describe('helpers', () => {
  it('recognises http(s) URLs only', () => {
    expect(isHttpUrl('https://example.com')).toBe(true);
    expect(isHttpUrl('HTTP://EXAMPLE.COM/a')).toBe(true);
    expect(isHttpUrl('https://')).toBe(false);
    expect(isHttpUrl('mailto:a@example.com')).toBe(false);
    expect(isHttpUrl('//example.com')).toBe(false);
  });

  it('drops blank rows and trims the others', () => {
    expect(cleanLinks([' https://a.example/ ', '', '  ', 'https://b.example/'])).toEqual([
      'https://a.example/',
      'https://b.example/',
    ]);
  });
});
