import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, apiUrl } from './api';
import { hasAuthError, onAuthError, resetAuthError, signInHref } from './auth';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

type FetchArgs = [string, RequestInit];
const noSleep = vi.fn(async () => {});

describe('apiUrl', () => {
  it('adds lang to the query', () => {
    expect(apiUrl('/api/v1/user/me', 'ja')).toBe('/api/v1/user/me?lang=ja');
    expect(apiUrl('/api/v1/x?page=2', 'en')).toBe('/api/v1/x?page=2&lang=en');
  });
});

describe('apiRequest', () => {
  beforeEach(() => {
    resetAuthError();
    noSleep.mockClear();
    document.head.innerHTML = '<meta name="csrf-token" content="tok-1">';
  });
  afterEach(() => {
    document.head.innerHTML = '';
    resetAuthError();
  });

  it('GETs with the page language and same-origin cookies, without a CSRF header', async () => {
    const fetchMock = vi.fn(async (..._args: FetchArgs) => json({ ok: 1 }));
    await expect(apiRequest('/api/v1/user/me', { lang: 'en', fetch: fetchMock as typeof fetch })).resolves.toEqual({ ok: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/me?lang=en');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).not.toHaveProperty('X-CSRF-Token');
  });

  it('sends the CSRF token of the page on writes', async () => {
    const fetchMock = vi.fn(async (..._args: FetchArgs) => new Response(null, { status: 204 }));
    const body = new FormData();
    await expect(apiRequest('/x', { lang: 'ja', method: 'PUT', body, fetch: fetchMock as typeof fetch })).resolves.toBeNull();
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init.headers).toMatchObject({ 'X-CSRF-Token': 'tok-1' });
    expect(init.body).toBe(body);
  });

  it('turns error bodies into ApiError with details', async () => {
    const fetchMock = vi.fn(async () =>
      json({ code: 'validation_failed', message: 'bad', details: [{ attribute: 'name_ja', message: 'too long' }, { x: 1 }] }, 422),
    );
    const err = await apiRequest('/x', { lang: 'ja', fetch: fetchMock as typeof fetch }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'validation_failed', message: 'bad' });
    expect((err as ApiError).details).toEqual([{ attribute: 'name_ja', message: 'too long' }]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(hasAuthError()).toBe(false);

    const html = vi.fn(async () => new Response('<html>', { status: 404 }));
    await expect(apiRequest('/x', { lang: 'ja', fetch: html as typeof fetch })).rejects.toMatchObject({ status: 404, code: 'http_404' });
  });

  it('flags the auth error on any 401, telling subscribers once', async () => {
    const listener = vi.fn();
    const off = onAuthError(listener);
    const fetchMock = vi.fn(async () => json({ code: 'unauthorized', message: 'sign in', details: [] }, 401));
    await expect(apiRequest('/x', { lang: 'ja', fetch: fetchMock as typeof fetch })).rejects.toMatchObject({ status: 401 });
    await expect(apiRequest('/y', { lang: 'ja', fetch: fetchMock as typeof fetch })).rejects.toMatchObject({ status: 401 });
    expect(hasAuthError()).toBe(true);
    expect(listener).toHaveBeenCalledOnce();
    off();
  });

  it('retries network failures and 5xx twice, but not 4xx', async () => {
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('/x', { lang: 'ja', fetch: offline as typeof fetch, sleep: noSleep })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(offline).toHaveBeenCalledTimes(3);
    expect(noSleep.mock.calls).toEqual([[300], [600]]);

    let n = 0;
    const flaky = vi.fn(async () => (++n < 3 ? json({ code: 'internal_error', message: 'x' }, 503) : json({ ok: true })));
    await expect(apiRequest('/x', { lang: 'ja', fetch: flaky as typeof fetch, sleep: noSleep })).resolves.toEqual({ ok: true });
    expect(flaky).toHaveBeenCalledTimes(3);

    const down = vi.fn(async () => json({ code: 'internal_error', message: 'boom' }, 500));
    await expect(apiRequest('/x', { lang: 'ja', fetch: down as typeof fetch, sleep: noSleep })).rejects.toMatchObject({
      status: 500,
      code: 'internal_error',
    });
    expect(down).toHaveBeenCalledTimes(3);
  });

  it('does not retry an aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = vi.fn(async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(
      apiRequest('/x', { lang: 'ja', fetch: aborted as typeof fetch, signal: controller.signal, sleep: noSleep }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(aborted).toHaveBeenCalledTimes(1);
  });

  it('rejects a 2xx body that is not JSON', async () => {
    const html = vi.fn(async () => new Response('<html>', { status: 200 }));
    await expect(apiRequest('/x', { lang: 'ja', fetch: html as typeof fetch })).rejects.toMatchObject({ code: 'invalid_response' });
  });
});

describe('signInHref', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it("reads the header's sign-in link, or null", () => {
    expect(signInHref()).toBeNull();
    document.body.innerHTML = '<a data-testid="sign-in" href="/account/auth/vmarket_account?redirect_url=%2F">ログイン</a>';
    expect(signInHref()).toBe('/account/auth/vmarket_account?redirect_url=%2F');
  });
});
