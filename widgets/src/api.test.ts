import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, api, apiRequest, apiUrl, buildPath, type HttpMethod, type Schemas } from './api';
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

  it.each<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE'])('sends a %s exactly once, whatever the answer', async (method) => {
    const unavailable = vi.fn(async () => json({ code: 'internal_error', message: 'busy' }, 503));
    await expect(
      apiRequest('/x', { lang: 'ja', method, fetch: unavailable as typeof fetch, sleep: noSleep, retries: 5 }),
    ).rejects.toMatchObject({ status: 503, code: 'internal_error' });
    expect(unavailable).toHaveBeenCalledOnce();

    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('/x', { lang: 'ja', method, fetch: offline as typeof fetch, sleep: noSleep })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(offline).toHaveBeenCalledOnce();
    expect(noSleep).not.toHaveBeenCalled();
  });

  it.each([
    '/api/v1/user/payment_histories',
    '/api/v1/user/payment_histories?page=2',
    '/api/v1/user/payment_histories/12',
    '/api/v1/user/payment/pre_order',
    '/api/v1/user/payment/paypal/capture',
    '/api/v1/payment/stripe/webhook',
  ])('never repeats a payment call (spec §7), not even a GET: %s', async (path) => {
    const unavailable = vi.fn(async () => json({ code: 'internal_error', message: 'busy' }, 503));
    await expect(
      apiRequest(path, { lang: 'ja', fetch: unavailable as typeof fetch, sleep: noSleep, retries: 5 }),
    ).rejects.toMatchObject({ status: 503 });
    expect(unavailable).toHaveBeenCalledOnce();

    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest(path, { lang: 'en', fetch: offline as typeof fetch, sleep: noSleep })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(offline).toHaveBeenCalledOnce();
    expect(noSleep).not.toHaveBeenCalled();
  });

  it('still retries the reads that are not payments', async () => {
    for (const path of ['/api/v1/user/me', '/api/v1/user/event_entries?page=2', '/api/v1/user/paymentx']) {
      const down = vi.fn(async () => json({ code: 'internal_error', message: 'busy' }, 503));
      await expect(apiRequest(path, { lang: 'ja', fetch: down as typeof fetch, sleep: noSleep })).rejects.toMatchObject({ status: 503 });
      expect(down).toHaveBeenCalledTimes(3);
    }
  });

  it('retries a GET after two 503s and then succeeds; a third failure surfaces', async () => {
    const answers = [503, 503, 200];
    const twice = vi.fn(async () => {
      const status = answers.shift()!;
      return status === 200 ? json({ data: [] }) : json({ code: 'internal_error', message: 'busy' }, status);
    });
    await expect(apiRequest('/x', { lang: 'ja', fetch: twice as typeof fetch, sleep: noSleep })).resolves.toEqual({ data: [] });
    expect(twice).toHaveBeenCalledTimes(3);

    const thrice = vi.fn(async () => json({ code: 'internal_error', message: 'still busy' }, 503));
    await expect(apiRequest('/x', { lang: 'ja', fetch: thrice as typeof fetch, sleep: noSleep })).rejects.toMatchObject({
      status: 503,
      message: 'still busy',
    });
    expect(thrice).toHaveBeenCalledTimes(3);
  });

  it('retries a HEAD like a GET and sends it without a CSRF header', async () => {
    let n = 0;
    const flaky = vi.fn(async (..._args: FetchArgs) => (++n < 2 ? new Response(null, { status: 502 }) : new Response(null, { status: 200 })));
    await expect(apiRequest('/x', { lang: 'ja', method: 'HEAD', fetch: flaky as typeof fetch, sleep: noSleep })).resolves.toBeNull();
    expect(flaky).toHaveBeenCalledTimes(2);
    expect(flaky.mock.calls[0]![1].headers).not.toHaveProperty('X-CSRF-Token');
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

describe('buildPath', () => {
  it('fills in path parameters, URL-encoded, and appends the query', () => {
    expect(buildPath('/api/v1/{event}/concepts/{id}', { event: '2026 Winter/x', id: 7 })).toBe('/api/v1/2026%20Winter%2Fx/concepts/7');
    expect(buildPath('/api/v1/events', undefined, { page: 2, limit: undefined, keyword: 'ネコ&犬', ids: [1, 2] })).toBe(
      '/api/v1/events?page=2&keyword=%E3%83%8D%E3%82%B3%26%E7%8A%AC&ids=1&ids=2',
    );
    expect(() => buildPath('/api/v1/events/{id}', {})).toThrow('missing path parameter id');
  });
});

describe('api (typed by the OpenAPI document)', () => {
  beforeEach(() => {
    document.head.innerHTML = '<meta name="csrf-token" content="tok-2">';
  });
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('GETs a documented path with its path and query parameters and the page language', async () => {
    const fetchMock = vi.fn(async (..._args: FetchArgs) => json({ data: [], pagination: {} }));
    const body = await api.get('/api/v1/{event}/worlds', {
      lang: 'en',
      path: { event: '2026Winter' },
      query: { limit: 2 },
      fetch: fetchMock as typeof fetch,
    });
    expect(body).toEqual({ data: [], pagination: {} });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/2026Winter/worlds?limit=2&lang=en');
    expect(init.method).toBe('GET');

    // The result has the documented type: a list of worlds.
    expectTypeOf(body.data).toEqualTypeOf<Schemas['WorldView'][]>();
    expectTypeOf(api.get<'/api/v1/user/me'>).returns.resolves.toEqualTypeOf<Schemas['UserView']>();
  });

  it('sends multipart writes once with the CSRF token, and JSON bodies as JSON', async () => {
    const put = vi.fn(async (..._args: FetchArgs) => json({ code: 'internal_error', message: 'x' }, 500));
    const form = new FormData();
    form.set('name_ja', '花子');
    await expect(api.put('/api/v1/user/me', { lang: 'ja', body: form, fetch: put as typeof fetch })).rejects.toMatchObject({
      status: 500,
    });
    expect(put).toHaveBeenCalledOnce();
    const [url, init] = put.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/me?lang=ja');
    expect(init).toMatchObject({ method: 'PUT', body: form, headers: { 'X-CSRF-Token': 'tok-2' } });

    const post = vi.fn(async (..._args: FetchArgs) => json({ id: 9 }, 201));
    const inquiry: Schemas['InquiryInput'] = {
      inquiry_category_id: 1,
      name: '山田',
      email: 'a@example.com',
      message: '質問です',
      agreement: true,
    };
    await api.post('/api/v1/inquiry', { lang: 'en', body: inquiry, fetch: post as typeof fetch });
    const [, sent] = post.mock.calls[0]!;
    expect(sent.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-CSRF-Token': 'tok-2' });
    expect(JSON.parse(sent.body as string)).toEqual(inquiry);
  });

  it('only compiles for documented operations with their parameters', () => {
    const fetchNever = vi.fn();
    const opts = { lang: 'ja' as const, fetch: fetchNever as typeof fetch };
    // Compile-time checks (npm run typecheck); the calls are never made.
    const unused = () => {
      // @ts-expect-error: not a documented path
      void api.get('/api/v1/no_such_thing', opts);
      // @ts-expect-error: GET /api/v1/inquiry is not documented (only POST is)
      void api.get('/api/v1/inquiry', opts);
      // @ts-expect-error: the path parameter `event` is required
      void api.get('/api/v1/{event}/worlds', opts);
      // @ts-expect-error: `limit` is a number
      void api.get('/api/v1/events', { ...opts, query: { limit: 'ten' } });
      // @ts-expect-error: the profile update takes multipart form data, not JSON
      void api.put('/api/v1/user/me', { ...opts, body: { name_ja: 'x' } });
    };
    expect(typeof unused).toBe('function');
    expect(fetchNever).not.toHaveBeenCalled();
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
