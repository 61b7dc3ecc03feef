import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasAuthError, resetAuthError } from '../../auth';
import { createTranslator, type Messages } from '../../i18n';
import { I18nContext } from '../../i18n-react';
import { EN, JA } from '../../test/messages';
import ProfileForm from './ProfileForm';

const USER = {
  id: 7,
  sub: 'acct-7',
  vmarket_id: 'hanako',
  name: '山田花子',
  name_ja: '山田花子',
  name_en: 'Hanako Yamada',
  icon: { url: '/u/7.png', small: '/u/7-s.png', medium: '/u/7-m.png', large: '/u/7-l.png' },
  external_links: [{ id: 1, url: 'https://example.com/a' }],
  memo: null,
  score: 0,
  role: 'none',
  attribute: 'none',
};

const HEAD = '<meta name="csrf-token" content="tok-123">';
const SIGNED_IN_HEADER = `
  <header><a data-testid="header-user" href="/mypage"><img data-testid="header-user-icon" src="/static/placeholder.svg" alt=""><span data-testid="header-user-name">山田花子</span></a>
  <a data-testid="sign-out" href="/account/auth/logout">ログアウト</a></header>`;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Routes fetch by method; returns the mock to inspect calls. */
function serve(get: Handler, put?: Handler) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = String(input);
    return (init.method ?? 'GET') === 'PUT' && put ? put(url, init) : get(url, init);
  });
}

function renderForm(lang: 'ja' | 'en' = 'ja', messages: Messages = lang === 'ja' ? JA : EN) {
  return render(
    <I18nContext.Provider value={createTranslator(messages)}>
      <ProfileForm lang={lang} />
    </I18nContext.Provider>,
  );
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const pickFile = (file: File) => fireEvent.change(input('profile-icon-input'), { target: { files: [file] } });
const submit = () => fireEvent.click(screen.getByTestId('profile-submit'));
const ready = () => screen.findByTestId('profile-form');

function sized(name: string, typeName: string, size: number): File {
  const file = new File(['x'], name, { type: typeName });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('<ProfileForm>', () => {
  beforeEach(() => {
    resetAuthError();
    document.head.innerHTML = HEAD;
    document.body.innerHTML = SIGNED_IN_HEADER;
  });
  afterEach(() => {
    cleanup();
    document.head.innerHTML = '';
    document.body.innerHTML = '';
    resetAuthError();
  });

  it('loads the user into the form', async () => {
    const fetchMock = serve(() => json(USER));
    renderForm();
    expect(screen.getByTestId('profile-loading').textContent).toBe('プロフィールを読み込んでいます…');
    await ready();
    expect(fetchMock).toHaveBeenCalledExactlyOnceWith('/api/v1/user/me?lang=ja', expect.objectContaining({ credentials: 'same-origin' }));
    expect(input('profile-name-ja').value).toBe('山田花子');
    expect(input('profile-name-en').value).toBe('Hanako Yamada');
    expect(screen.getAllByTestId('profile-link-input').map((el) => (el as HTMLInputElement).value)).toEqual(['https://example.com/a']);
    expect(screen.getByTestId('profile-icon-preview').getAttribute('src')).toBe('/u/7-m.png');
    expect(screen.getByLabelText('表示名（日本語）')).toBe(input('profile-name-ja'));
    expect(screen.getByTestId('profile-submit').textContent).toBe('保存する');
  });

  it('shows validation messages in the page language and sends nothing', async () => {
    const fetchMock = serve(() => json(USER));
    renderForm();
    await ready();
    type(input('profile-name-ja'), '');
    type(input('profile-name-en'), 'a'.repeat(129));
    type(screen.getAllByTestId('profile-link-input')[0]!, 'ftp://files.example/');
    fireEvent.click(screen.getByTestId('profile-link-add'));
    type(screen.getAllByTestId('profile-link-input')[1]!, 'example.com');
    pickFile(sized('huge.png', 'image/png', 5 * 1024 * 1024 + 1));
    submit();

    expect(screen.getByTestId('profile-error-name_ja').textContent).toBe('表示名（日本語）を入力してください。');
    expect(screen.getByTestId('profile-error-name_en').textContent).toBe('表示名（英語）は128文字以内で入力してください。');
    expect(screen.getAllByTestId('profile-link-error').map((el) => el.textContent)).toEqual([
      'http:// または https:// で始まるURLを入力してください。',
      'http:// または https:// で始まるURLを入力してください。',
    ]);
    expect(screen.getByTestId('profile-error-icon').textContent).toBe('アイコン画像は5MB以下のファイルを選んでください。');
    expect(screen.getByTestId('profile-form-error').textContent).toBe(JA_TEXT.has_errors);
    expect(input('profile-name-ja').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // Fixing a field clears its message.
    type(input('profile-name-ja'), '花子');
    expect(screen.queryByTestId('profile-error-name_ja')).toBeNull();
  });

  it('rejects an unsupported icon as soon as it is chosen, and more than 5 links on submit (English)', async () => {
    const links = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, url: `https://example.com/${i}` }));
    const fetchMock = serve(() => json({ ...USER, external_links: links }));
    renderForm('en');
    await ready();
    expect((screen.getByTestId('profile-link-add') as HTMLButtonElement).disabled).toBe(true);
    pickFile(sized('me.svg', 'image/svg+xml', 100));
    expect(screen.getByTestId('profile-error-icon').textContent).toBe('Choose a PNG, JPEG, WebP or GIF image.');
    submit();
    expect(screen.getByTestId('profile-error-external_links').textContent).toBe('You can add up to 5 external links.');
    fireEvent.click(screen.getAllByTestId('profile-link-remove')[5]!);
    expect(screen.queryByTestId('profile-error-external_links')).toBeNull();
    expect(screen.getAllByTestId('profile-link-input')).toHaveLength(5);
    expect((screen.getByTestId('profile-link-add') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getAllByTestId('profile-link-remove')[0]!);
    expect(screen.getAllByTestId('profile-link-input').map((el) => (el as HTMLInputElement).value)).toEqual(
      links.slice(1, 5).map((l) => l.url),
    );
    expect((screen.getByTestId('profile-link-add') as HTMLButtonElement).disabled).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends the multipart fields with the CSRF header, toasts and updates the header', async () => {
    const updated = {
      ...USER,
      name: '山田はなこ',
      name_ja: '山田はなこ',
      name_en: 'Hana Yamada',
      icon: { url: '/u/7-v2.png', small: '/u/7-v2-s.png', medium: '/u/7-v2-m.png', large: null },
      external_links: [
        { id: 3, url: 'https://example.com/a2' },
        { id: 4, url: 'https://b.example.org/' },
      ],
    };
    const fetchMock = serve(
      () => json(USER),
      () => json(updated),
    );
    renderForm();
    await ready();
    type(input('profile-name-ja'), ' 山田はなこ ');
    type(input('profile-name-en'), 'Hana Yamada');
    type(screen.getAllByTestId('profile-link-input')[0]!, 'https://example.com/a2');
    fireEvent.click(screen.getByTestId('profile-link-add'));
    fireEvent.click(screen.getByTestId('profile-link-add'));
    type(screen.getAllByTestId('profile-link-input')[2]!, 'https://b.example.org/');
    const icon = new File(['png-bytes'], 'me.png', { type: 'image/png' });
    pickFile(icon);
    expect(screen.getByTestId('profile-icon-preview').getAttribute('src')).toMatch(/^blob:/);
    submit();
    expect(screen.getByTestId('profile-submit').textContent).toBe('保存中…');

    await waitFor(() => expect(document.querySelector('.vmarket-toast')?.textContent).toBe('保存しました'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/v1/user/me?lang=ja');
    expect(init?.method).toBe('PUT');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.headers).toMatchObject({ 'X-CSRF-Token': 'tok-123' });
    const body = init?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('name_ja')).toBe('山田はなこ');
    expect(body.get('name_en')).toBe('Hana Yamada');
    expect(JSON.parse(body.get('external_links') as string)).toEqual(['https://example.com/a2', 'https://b.example.org/']);
    expect((body.get('icon') as File).name).toBe('me.png');

    const region = document.querySelector<HTMLElement>('.vmarket-toasts');
    expect([region?.style.right, region?.style.bottom]).toEqual(['16px', '16px']);
    expect(screen.getByTestId('header-user-name').textContent).toBe('山田はなこ');
    expect(screen.getByTestId('header-user-icon').getAttribute('src')).toBe('/u/7-v2-s.png');
    // The form now shows what the server saved. The toast is put into the page directly, so it can
    // appear a render before React has drawn the form again: wait for the button, as a user would.
    await waitFor(() => expect(screen.getByTestId('profile-submit').textContent).toBe('保存する'));
    expect(screen.getByTestId('profile-icon-preview').getAttribute('src')).toBe('/u/7-v2-m.png');
    expect(screen.getAllByTestId('profile-link-input').map((el) => (el as HTMLInputElement).value)).toEqual([
      'https://example.com/a2',
      'https://b.example.org/',
    ]);
    expect(screen.queryByTestId('profile-form-error')).toBeNull();
  });

  it('uses the English name for the header on English pages, and sends no icon when none was chosen', async () => {
    const fetchMock = serve(
      () => json(USER),
      () => json({ ...USER, name_en: 'Hana' }),
    );
    renderForm('en');
    await ready();
    type(input('profile-name-en'), 'Hana');
    submit();
    await waitFor(() => expect(screen.getByTestId('header-user-name').textContent).toBe('Hana'));
    expect(document.querySelector('.vmarket-toast')?.textContent).toBe('Profile saved');
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/v1/user/me?lang=en');
    expect((init?.body as FormData).has('icon')).toBe(false);
    expect((init?.body as FormData).get('external_links')).toBe('["https://example.com/a"]');
  });

  it("shows the server's 422 messages beside their fields", async () => {
    serve(
      () => json(USER),
      () =>
        json(
          {
            code: 'validation_failed',
            message: '入力内容に誤りがあります。',
            details: [
              { attribute: 'name_ja', message: 'この表示名は使用できません。' },
              { attribute: 'external_links', message: '同じURLが重複しています。' },
              { attribute: 'icon', message: '画像を読み込めませんでした。' },
              { attribute: 'name_en', message: 'Name is reserved.' },
            ],
          },
          422,
        ),
    );
    renderForm();
    await ready();
    submit();
    await screen.findByTestId('profile-error-name_ja');
    expect(screen.getByTestId('profile-error-name_ja').textContent).toBe('この表示名は使用できません。');
    expect(screen.getByTestId('profile-error-name_en').textContent).toBe('Name is reserved.');
    expect(screen.getByTestId('profile-error-external_links').textContent).toBe('同じURLが重複しています。');
    expect(screen.getByTestId('profile-error-icon').textContent).toBe('画像を読み込めませんでした。');
    expect(screen.getByTestId('profile-form-error').textContent).toBe(JA_TEXT.has_errors);
    expect(document.querySelector('.vmarket-toast')).toBeNull();
    expect(screen.getByTestId('header-user-name').textContent).toBe('山田花子');
  });

  it('shows a 413 beside the icon and a 403 CSRF failure for the form', async () => {
    let status = 413;
    serve(
      () => json(USER),
      () => json({ code: status === 413 ? 'payload_too_large' : 'csrf_failed', message: 'x', details: [] }, status),
    );
    renderForm();
    await ready();
    submit();
    expect((await screen.findByTestId('profile-error-icon')).textContent).toBe('アイコン画像は5MB以下のファイルを選んでください。');
    expect(screen.getByTestId('profile-form-error').textContent).toBe('プロフィールを更新できませんでした。');

    status = 403;
    submit();
    await waitFor(() => expect(screen.getByTestId('profile-form-error').textContent).toBe(JA_TEXT.csrf_failed));
    expect(screen.queryByTestId('profile-error-icon')).toBeNull();
  });

  it('flags the auth error on a 401 from the update, clears the user and links to sign-in', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<a data-testid="sign-in" href="/account/auth/vmarket_account?redirect_url=%2Fmypage%2Fprofile">ログイン</a>',
    );
    serve(
      () => json(USER),
      () => json({ code: 'unauthorized', message: 'ログインが必要です。', details: [] }, 401),
    );
    renderForm();
    await ready();
    submit();
    const alert = await screen.findByTestId('profile-auth-error');
    expect(hasAuthError()).toBe(true);
    expect(alert.textContent).toContain('ログインの有効期限が切れました。もう一度ログインしてください。');
    const link = within(alert).getByTestId('profile-sign-in');
    expect(link.textContent).toBe('ログイン');
    expect(link.getAttribute('href')).toBe('/account/auth/vmarket_account?redirect_url=%2Fmypage%2Fprofile');
    // The loaded user is gone from the form.
    expect(screen.queryByTestId('profile-form')).toBeNull();
    expect(screen.queryByDisplayValue('山田花子')).toBeNull();
    expect(screen.queryByDisplayValue('Hanako Yamada')).toBeNull();
  });

  it('flags the auth error on a 401 profile fetch and offers a reload without a sign-in link', async () => {
    serve(() => json({ code: 'unauthorized', message: 'Please sign in.', details: [] }, 401));
    renderForm('en');
    const alert = await screen.findByTestId('profile-auth-error');
    expect(hasAuthError()).toBe(true);
    expect(alert.textContent).toContain('Your session has expired. Please sign in again.');
    const link = within(alert).getByTestId('profile-sign-in') as HTMLAnchorElement;
    expect(link.textContent).toBe('Reload the page');
    expect(link.href).toBe(window.location.href);
    expect(screen.queryByTestId('profile-form')).toBeNull();
  });

  it('clears the user when the profile fetch fails, after two retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const fetchMock = serve(() => json({ code: 'internal_error', message: 'boom', details: [] }, 500));
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      renderForm();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(screen.getByTestId('profile-load-error').textContent).toContain('プロフィールを読み込めませんでした。');
      expect(screen.queryByTestId('profile-form')).toBeNull();
      expect(hasAuthError()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

const JA_TEXT = JA.profile_form as Record<string, string>;
