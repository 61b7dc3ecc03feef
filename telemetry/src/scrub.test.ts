import { describe, expect, it } from 'vitest';
import { FILTERED, scrubEnvelope, scrubEvent, scrubText, scrubValue } from './scrub';

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3OTk5OTk5OTl9.c2lnbmF0dXJlLXBhcnQ';

describe('scrubText', () => {
  it('removes emails, credentials, JWTs and secret query values and keeps the rest', () => {
    const text =
      `failed for taro.yamada+vket@example.co.jp: Authorization: Bearer ${JWT} ` +
      'at /auth/callback?code=sig-in-code-123&state=st4te&lang=ja#access_token=at-999 Basic dXNlcjpwYXNz';
    const out = scrubText(text);
    for (const secret of ['taro.yamada', 'example.co.jp', JWT, 'eyJ', 'sig-in-code-123', 'st4te', 'at-999', 'dXNlcjpwYXNz']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('failed for [Filtered]');
    expect(out).toContain('/auth/callback?code=[Filtered]&state=[Filtered]&lang=ja#access_token=[Filtered]');
    expect(out).toContain('Bearer [Filtered]');
  });

  it('leaves text without secrets alone', () => {
    const text = 'TypeError: Cannot read properties of undefined (reading "name") at /2026Winter/worlds?page=2';
    expect(scrubText(text)).toBe(text);
  });

  it('filters the contact form signature and tokens in any position of a query', () => {
    expect(scrubText('/contact/form/sent/1?s=8536eb23d746833b8a9b1428a4d469ba')).toBe('/contact/form/sent/1?s=[Filtered]');
    expect(scrubText('/x?a=1&token=abc&b=2')).toBe('/x?a=1&token=[Filtered]&b=2');
    expect(scrubText('/x?Password=hunter2')).toBe('/x?Password=[Filtered]');
  });
});

describe('scrubValue', () => {
  it('replaces whatever is under a secret-looking key, at any depth', () => {
    const out = scrubValue({
      extra: { csrfToken: 'abc', nested: [{ Cookie: 'vmarket_session=xyz' }, { email: 'a@b.jp', note: 'ok' }] },
      count: 3,
      none: null,
    });
    expect(out).toEqual({
      extra: { csrfToken: FILTERED, nested: [{ Cookie: FILTERED }, { email: FILTERED, note: 'ok' }] },
      count: 3,
      none: null,
    });
  });

  it('does not change its input', () => {
    const input = { message: 'mail a@b.jp', token: 't' };
    scrubValue(input);
    expect(input).toEqual({ message: 'mail a@b.jp', token: 't' });
  });

  it('survives a value nested deeper than any event', () => {
    let deep: Record<string, unknown> = { message: 'a@b.jp' };
    for (let i = 0; i < 100; i += 1) deep = { inner: deep };
    expect(JSON.stringify(scrubValue(deep))).not.toContain('a@b.jp');
  });
});

describe('scrubEvent', () => {
  it('sends no user, cookie, request body or credential header, and scrubs every string', () => {
    const event = {
      message: 'save failed for hanako@example.com',
      user: { id: '7', email: 'hanako@example.com', ip_address: '203.0.113.9' },
      request: {
        url: 'https://vket.test/auth/callback?code=c0de&state=s7ate',
        cookies: { vmarket_session: 'secret-session' },
        data: '{"password":"hunter2"}',
        headers: { 'User-Agent': 'Chromium', Authorization: 'Bearer abc', Cookie: 'a=b', Referer: 'https://vket.test/?token=t0k' },
      },
      exception: { values: [{ type: 'Error', value: `token ${JWT} for hanako@example.com` }] },
      breadcrumbs: [{ category: 'fetch', data: { url: '/api/v1/user/me?access_token=zzz', method: 'GET' } }],
      extra: { authorization: 'Bearer abc', form: { email: 'hanako@example.com' } },
    };
    const out = scrubEvent(event);
    const sent = JSON.stringify(out);
    for (const secret of ['hanako', 'example.com', '203.0.113.9', 'c0de', 's7ate', 'secret-session', 'hunter2', 'Bearer abc', 'a=b', 't0k', 'eyJ', 'zzz']) {
      expect(sent).not.toContain(secret);
    }
    expect(out.user).toBeUndefined();
    expect(out.request).toEqual({
      url: 'https://vket.test/auth/callback?code=[Filtered]&state=[Filtered]',
      headers: { 'User-Agent': 'Chromium' },
    });
    expect(out.exception.values[0]?.value).toBe('token [Filtered] for [Filtered]');
    expect(out.breadcrumbs[0]?.data.method).toBe('GET');
  });
});

describe('scrubEnvelope', () => {
  it('scrubs every payload in place and keeps each length right, but not the envelope header', () => {
    const recording = '{"segment_id":0}\n[{"type":4,"data":{"href":"https://vket.test/mypage?code=c0de-123"}}]';
    const bytes = new TextEncoder().encode('{"note":"for a@b.jp"}');
    const envelope: [unknown, unknown[]] = [
      { dsn: 'https://key@o1.ingest.sentry.io/42' },
      [
        [{ type: 'replay_recording', length: recording.length }, recording],
        [{ type: 'event' }, { message: 'hello a@b.jp', user: { email: 'a@b.jp' } }],
        [{ type: 'attachment', length: bytes.length }, bytes],
        [{ type: 'attachment', length: 3 }, new Uint8Array([0xff, 0xfe, 0x00])],
      ],
    ];
    scrubEnvelope(envelope);
    const [header, items] = envelope as [{ dsn: string }, [{ length?: number }, unknown][]];
    expect(header.dsn).toBe('https://key@o1.ingest.sentry.io/42');
    const [replay, event, text, binary] = items;
    expect(replay?.[1]).toBe('{"segment_id":0}\n[{"type":4,"data":{"href":"https://vket.test/mypage?code=[Filtered]"}}]');
    expect(replay?.[0].length).toBe(new TextEncoder().encode(String(replay?.[1])).length);
    expect(event?.[1]).toEqual({ message: 'hello [Filtered]', user: { email: FILTERED } });
    expect(new TextDecoder().decode(text?.[1] as Uint8Array)).toBe('{"note":"for [Filtered]"}');
    expect(text?.[0].length).toBe((text?.[1] as Uint8Array).length);
    expect(binary?.[1]).toEqual(new Uint8Array([0xff, 0xfe, 0x00]));
  });
});
