import { afterEach, describe, expect, it } from 'vitest';
import { displayName, parseUser, profileFormData, smallIconUrl, updateHeaderUser, type User } from './user';

const BODY = {
  id: 7,
  sub: 'acct-7',
  vmarket_id: 'hanako',
  name: '山田花子',
  name_ja: '山田花子',
  name_en: 'Hanako Yamada',
  icon: { url: '/u/7.png', small: '/u/7-s.png', medium: '/u/7-m.png', large: null },
  external_links: [{ id: 1, url: 'https://example.com/a' }, { id: 2 }, 'junk'],
  memo: null,
  score: 0,
  role: 'none',
  attribute: 'none',
};

describe('parseUser', () => {
  it('keeps the fields the form needs and drops malformed links', () => {
    const user = parseUser(BODY);
    expect(user).toEqual({
      id: 7,
      vmarket_id: 'hanako',
      name: '山田花子',
      name_ja: '山田花子',
      name_en: 'Hanako Yamada',
      icon: { url: '/u/7.png', small: '/u/7-s.png', medium: '/u/7-m.png', large: null },
      external_links: [{ id: 1, url: 'https://example.com/a' }],
    });
  });

  it('rejects bodies without the user shape', () => {
    expect(parseUser(null)).toBeNull();
    expect(parseUser({ code: 'unauthorized' })).toBeNull();
    expect(parseUser({ ...BODY, name_ja: 3 })).toBeNull();
    expect(parseUser({ ...BODY, icon: null })?.icon).toEqual({ url: null, small: null, medium: null, large: null });
  });
});

describe('displayName and icons', () => {
  it('uses the page language and falls back to the other name', () => {
    const user = parseUser(BODY)!;
    expect(displayName(user, 'ja')).toBe('山田花子');
    expect(displayName(user, 'en')).toBe('Hanako Yamada');
    expect(displayName({ ...user, name_en: '' }, 'en')).toBe('山田花子');
    expect(displayName({ ...user, name_ja: ' ' }, 'ja')).toBe('Hanako Yamada');
  });

  it('prefers the small icon', () => {
    const user = parseUser(BODY)!;
    expect(smallIconUrl(user)).toBe('/u/7-s.png');
    expect(smallIconUrl({ icon: { url: '/o.png', small: null, medium: null, large: null } })).toBe('/o.png');
    expect(smallIconUrl({ icon: { url: null, small: null, medium: null, large: null } })).toBeNull();
  });
});

describe('profileFormData', () => {
  it('sends external_links as a JSON string and the icon only when chosen', () => {
    const icon = new File(['png'], 'me.png', { type: 'image/png' });
    const data = profileFormData({ name_ja: '花子', name_en: 'Hanako', external_links: ['https://a.example/'], icon });
    expect(data.get('name_ja')).toBe('花子');
    expect(data.get('name_en')).toBe('Hanako');
    expect(data.get('external_links')).toBe('["https://a.example/"]');
    expect((data.get('icon') as File).name).toBe('me.png');
    const noIcon = profileFormData({ name_ja: '花子', name_en: 'Hanako', external_links: [] });
    expect(noIcon.get('external_links')).toBe('[]');
    expect(noIcon.has('icon')).toBe(false);
  });
});

describe('updateHeaderUser', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('writes the name and small icon into every header slot', () => {
    document.body.innerHTML = `
      <a data-testid="header-user" href="/mypage"><img data-testid="header-user-icon" src="/static/placeholder.svg"><span data-testid="header-user-name">old</span></a>
      <nav><span data-testid="header-user-name">old</span></nav>`;
    const user = parseUser(BODY) as User;
    updateHeaderUser(user, 'en');
    const names = Array.from(document.querySelectorAll('[data-testid="header-user-name"]')).map((el) => el.textContent);
    expect(names).toEqual(['Hanako Yamada', 'Hanako Yamada']);
    expect(document.querySelector<HTMLImageElement>('[data-testid="header-user-icon"]')?.getAttribute('src')).toBe('/u/7-s.png');

    updateHeaderUser({ ...user, icon: { url: null, small: null, medium: null, large: null } }, 'ja');
    expect(document.querySelector('[data-testid="header-user-name"]')?.textContent).toBe('山田花子');
    expect(document.querySelector<HTMLImageElement>('[data-testid="header-user-icon"]')?.getAttribute('src')).toBe('/u/7-s.png');
  });
});
