import { assert, describe, expect, it } from 'vitest';
import { FILTERED, MASKED_ATTRIBUTES, readReportingConfig, reportingOptions, startErrorReporting } from './index';

function page(metas: Record<string, string>): Document {
  const doc = document.implementation.createHTMLDocument('page');
  for (const [name, content] of Object.entries(metas)) {
    const el = doc.createElement('meta');
    el.name = name;
    el.content = content;
    doc.head.append(el);
  }
  return doc;
}

describe('readReportingConfig', () => {
  it('is off without a DSN, whatever else the page says', () => {
    expect(readReportingConfig(page({}))).toBeNull();
    expect(readReportingConfig(page({ 'vmarket-sentry-dsn': ' ', 'vmarket-build-id': 'b1' }))).toBeNull();
  });

  it('takes the DSN, environment and release (the build id) from the page', () => {
    const doc = page({
      'vmarket-sentry-dsn': 'https://k@o1.ingest.sentry.io/42',
      'vmarket-sentry-environment': 'staging',
      'vmarket-build-id': 'b1f3',
    });
    expect(readReportingConfig(doc)).toEqual({ dsn: 'https://k@o1.ingest.sentry.io/42', environment: 'staging', release: 'b1f3' });
  });
});

describe('reportingOptions', () => {
  const options = reportingOptions({ dsn: 'https://k@h/1', environment: 'production', release: 'r' }, []);

  it('samples as the spec says and collects no personal data', () => {
    expect(options).toMatchObject({ tracesSampleRate: 0.5, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1.0 });
    expect(options.dataCollection).toEqual({ userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false });
  });

  it('scrubs every event and breadcrumb before it leaves', () => {
    const event = options.beforeSend?.({ type: undefined, message: 'for a@b.jp', request: { cookies: { s: 'x' } } }, {});
    expect(event).toEqual({ type: undefined, message: `for ${FILTERED}`, request: { headers: {} } });
    const crumb = options.beforeBreadcrumb?.({ category: 'navigation', data: { to: '/auth/callback?code=123' } });
    expect(crumb?.data?.to).toBe(`/auth/callback?code=${FILTERED}`);
  });

  it('scrubs replay events too, which no beforeSend sees', async () => {
    const integrations = options.integrations;
    assert(Array.isArray(integrations));
    const scrub = integrations.find((i) => i.name === 'VmarketScrub');
    const replay = { type: 'replay_event' as const, urls: ['https://vket.test/mypage?code=c0de&state=s7'], replay_id: 'r1' };
    const processed = await scrub?.processEvent?.(replay, {}, {} as never);
    expect(processed).toEqual({ type: 'replay_event', urls: [`https://vket.test/mypage?code=${FILTERED}&state=${FILTERED}`], replay_id: 'r1' });
  });

  it('masks the attributes that carry URLs, tokens and the islands props in replays', () => {
    for (const attribute of ['href', 'content', 'data-props', 'value']) expect(MASKED_ATTRIBUTES).toContain(attribute);
  });
});

describe('startErrorReporting', () => {
  it('loads nothing and reports nothing without a DSN', async () => {
    const report = await startErrorReporting(null);
    expect(() => report(new Error('ignored'))).not.toThrow();
  });
});
