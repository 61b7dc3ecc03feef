import { HttpError, type fetchUtils } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createDataProvider, createHttpClient, formErrors } from './dataProvider';

type Call = { url: string; options: fetchUtils.Options };

/** An HTTP environment answering every call with `status` and `body`, recording the calls. */
function env(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: Call[] = [];
  const fetchJson = (async (url: string, options: fetchUtils.Options = {}) => {
    calls.push({ url, options });
    if (status >= 400) {
      throw new HttpError((body as { message?: string })?.message ?? 'error', status, body);
    }
    return { status, headers: new Headers(headers), body: JSON.stringify(body), json: body };
  }) as typeof fetchUtils.fetchJson;
  return { calls, e: { fetchJson, lang: () => 'en', csrf: () => 'tok' } };
}

const invalid = {
  code: 'validation_failed',
  message: 'Some fields need fixing.',
  details: [
    { attribute: 'name_ja', message: 'Required.' },
    { attribute: 'phases.1.phase_timestamp', message: 'Not a date.' },
    { attribute: 'body', message: 'ignored' },
  ],
};

describe('formErrors', () => {
  it('puts each detail beside its field and the message on the form', () => {
    expect(formErrors(invalid)).toEqual({
      root: { serverError: 'Some fields need fixing.' },
      name_ja: 'Required.',
      'phases.1.phase_timestamp': 'Not a date.',
    });
  });
});

describe('the HTTP client', () => {
  it('sends the CSRF token on writes only, and the language on every call', async () => {
    const { calls, e } = env(200, { id: 1 });
    const http = createHttpClient(e);
    await http('/admin/api/events/1');
    await http('/admin/api/events/1', { method: 'PUT', body: '{}' });
    expect(calls[0]?.url).toBe('/admin/api/events/1?lang=en');
    expect((calls[0]?.options.headers as Headers).get('X-CSRF-Token')).toBeNull();
    expect((calls[1]?.options.headers as Headers).get('X-CSRF-Token')).toBe('tok');
    expect(calls[1]?.options.credentials).toBe('same-origin');
  });

  it('turns a validation error body into react-admin field errors', async () => {
    const { e } = env(422, invalid);
    const provider = createDataProvider(e);
    const error = await provider.create('events', { data: {} }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(422);
    expect(http.message).toBe('Some fields need fixing.');
    expect(http.body.errors.name_ja).toBe('Required.');
    expect(http.body.code).toBe('validation_failed');
  });

  it('keeps a refusal without details a form-level message (shown as a notification)', async () => {
    const { e } = env(409, { code: 'in_use', message: 'Still in use.', details: [] });
    const provider = createDataProvider(e);
    const error = (await provider.delete('concepts', { id: 3 }).catch((err: unknown) => err)) as HttpError;
    expect(error.status).toBe(409);
    expect(error.body.errors).toEqual({ root: { serverError: 'Still in use.' } });
  });
});

describe('time travel calls', () => {
  it('PUT a timestamp to travel, DELETE to come back', async () => {
    const clock = { timestamp: null, offset_seconds: 0, now: '2026-11-23T00:00:00Z' };
    const { calls, e } = env(200, clock);
    const provider = createDataProvider(e);
    await provider.timeTravel('2026-12-12T12:00:00+09:00');
    await provider.timeTravel(null);
    expect(calls.map((c) => [c.options.method, c.url])).toEqual([
      ['PUT', '/api/v1/admin/time_travel?lang=en'],
      ['DELETE', '/api/v1/admin/time_travel?lang=en'],
    ]);
    expect(JSON.parse(String(calls[0]?.options.body))).toEqual({ timestamp: '2026-12-12T12:00:00+09:00' });
  });

  it('shows the production refusal as the server words it', async () => {
    const { e } = env(422, { code: 'time_travel_disabled', message: 'Time travel is off in production.', details: [] });
    const error = (await createDataProvider(e).timeTravel('2026-12-12T12:00').catch((err: unknown) => err)) as HttpError;
    expect(error.message).toBe('Time travel is off in production.');
  });
});

describe('pictures chosen in a form', () => {
  /** An HTTP environment that stores uploads and answers the saved record back. */
  function uploads(refuse = false, attribute = 'logo') {
    const calls: Call[] = [];
    const fetchJson = (async (url: string, options: fetchUtils.Options = {}) => {
      calls.push({ url, options });
      if (url.startsWith('/admin/api/uploads')) {
        if (refuse) {
          throw new HttpError('Some values are not valid.', 422, {
            code: 'validation_failed',
            message: 'Some values are not valid.',
            details: [{ attribute, message: 'This image file is too large. Choose one of at most 5 MiB.' }],
          });
        }
        const json = { url: '/media/admin/events/logo/abc.png', width: 10, height: 10 };
        return { status: 201, headers: new Headers(), body: JSON.stringify(json), json };
      }
      const json = JSON.parse(String(options.body ?? '{}'));
      return { status: 200, headers: new Headers(), body: JSON.stringify(json), json };
    }) as typeof fetchUtils.fetchJson;
    return { calls, e: { fetchJson, lang: () => 'en', csrf: () => 'tok' } };
  }

  it('are uploaded for their field and saved as its address; pictures kept stay as they were', async () => {
    const { calls, e } = uploads();
    const provider = createDataProvider(e);
    const rawFile = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    const data = { id: 3, name_ja: '冬', logo: { rawFile, src: 'blob:x', title: 'logo.png' }, image: { src: '/static/a.png', title: 'Key visual' }, phases: [] };
    const saved = await provider.update('events', { id: 3, data, previousData: { id: 3 } });
    expect(calls[0]?.url).toBe('/admin/api/uploads?resource=events&field=logo&lang=en');
    expect(calls[0]?.options.method).toBe('POST');
    const sent = calls[0]?.options.body as FormData;
    expect((sent.get('file') as File).name).toBe('logo.png');
    expect((calls[0]?.options.headers as Headers).get('X-CSRF-Token')).toBe('tok');
    const put = JSON.parse(String(calls[1]?.options.body));
    expect(put).toEqual({ id: 3, name_ja: '冬', logo: '/media/admin/events/logo/abc.png', image: '/static/a.png', phases: [] });
    expect(saved.data.logo).toBe('/media/admin/events/logo/abc.png');
  });

  it('a refused file fails the save with the reason beside its field, and nothing is saved', async () => {
    const { calls, e } = uploads(true);
    const provider = createDataProvider(e);
    const rawFile = new File([new Uint8Array(8)], 'huge.png', { type: 'image/png' });
    const error = await provider
      .create('events', { data: { name_ja: '冬', logo: { rawFile, src: 'blob:x', title: 'huge.png' } } })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).body.errors.logo).toBe('This image file is too large. Choose one of at most 5 MiB.');
    expect(calls).toHaveLength(1);
  });

  it("pictures of a record's rows are uploaded as `<list>.<field>`, a refusal shown beside the row's input", async () => {
    const { calls, e } = uploads();
    const provider = createDataProvider(e);
    const rawFile = new File([new Uint8Array([137, 80, 78, 71])], 'area.png', { type: 'image/png' });
    const areas = [
      { id: 4, number: 1, name: '入口', image: { src: '/media/a.png', title: 'a' } },
      { number: 2, name: '広場', image: { rawFile, src: 'blob:x', title: 'area.png' } },
    ];
    await provider.update('worlds', { id: 9, data: { id: 9, keyword_ids: [1, 2], areas }, previousData: { id: 9 } });
    expect(calls[0]?.url).toBe('/admin/api/uploads?resource=worlds&field=areas.image&lang=en');
    expect(JSON.parse(String(calls[1]?.options.body))).toEqual({
      id: 9,
      keyword_ids: [1, 2],
      areas: [
        { id: 4, number: 1, name: '入口', image: '/media/a.png' },
        { number: 2, name: '広場', image: '/media/admin/events/logo/abc.png' },
      ],
    });

    const refused = uploads(true, 'areas.image');
    const error = (await createDataProvider(refused.e)
      .update('worlds', {
        id: 9,
        data: { areas: [{ number: 1, name: 'x', image: { rawFile, src: 'blob:y', title: 'huge.png' } }] },
        previousData: { id: 9 },
      })
      .catch((err: unknown) => err)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.body.errors['areas.0.image']).toBe('This image file is too large. Choose one of at most 5 MiB.');
    expect(error.body.errors['areas.image']).toBeUndefined();
    expect(refused.calls).toHaveLength(1);
  });
});
