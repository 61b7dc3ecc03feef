/**
 * Browser error reporting for the widgets and the console (Sentry), configured by the server
 * through the page: `<meta name="vmarket-sentry-dsn">` (from `sentry_browser_dsn`; no tag, no
 * reporting), `vmarket-sentry-environment` and `vmarket-build-id` (the release). Sentry's code is
 * loaded only when the page has a DSN. Traces of half the page loads, replays of a tenth of the
 * sessions and of every session with an error, every text and input masked (and attributes that
 * may hold personal data or tokens); every event, breadcrumb, replay frame and, last, every
 * envelope scrubbed (`./scrub`).
 */
import type { BrowserOptions } from '@sentry/react';
import { scrubEnvelope, scrubEvent, scrubValue } from './scrub';

export { FILTERED, scrubEnvelope, scrubEvent, scrubText, scrubValue } from './scrub';

/** A Sentry integration (the SDK's type, as its options name it). */
export type Integration = Extract<BrowserOptions['integrations'], unknown[]>[number];

/** What the page says about error reporting. */
export interface ReportingConfig {
  dsn: string;
  environment: string;
  release: string | undefined;
}

function meta(doc: Document, name: string): string | undefined {
  const value = doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return value ? value : undefined;
}

/** The page's reporting settings; `null` (reporting off) without a DSN. */
export function readReportingConfig(doc: Document = document): ReportingConfig | null {
  const dsn = meta(doc, 'vmarket-sentry-dsn');
  if (!dsn) return null;
  return { dsn, environment: meta(doc, 'vmarket-sentry-environment') ?? 'development', release: meta(doc, 'vmarket-build-id') };
}

/**
 * Attributes masked in replays: besides Sentry's defaults, those that carry URLs (with their
 * query strings), values, `<meta content>` (the CSRF token) and the islands' props (which may
 * hold the signed-in user's email).
 */
export const MASKED_ATTRIBUTES = ['title', 'placeholder', 'aria-label', 'alt', 'value', 'content', 'href', 'src', 'action', 'data-props'];

/**
 * Scrubs every event as the SDK prepares it — replay events too, which no `beforeSend` sees (a
 * replay's `urls` once carried a sign-in code: e2e/error-reporting.test.mjs).
 */
export const scrubIntegration: Integration = { name: 'VmarketScrub', processEvent: (event) => scrubEvent(event) };

/** Sentry's options for `config` (`integrations` from the loaded SDK; the scrub goes first). */
export function reportingOptions(config: ReportingConfig, integrations: Integration[]): BrowserOptions {
  return {
    dsn: config.dsn,
    environment: config.environment,
    release: config.release,
    // Collected by the SDK at all: no user, cookies, headers, bodies or query strings (the scrub
    // is the second line, for what the page's own code puts in messages).
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    tracesSampleRate: 0.5,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1.0,
    integrations: [scrubIntegration, ...integrations],
    // The last word on errors and transactions, after every integration added its part.
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubValue(breadcrumb),
  };
}

/** Reports an error caught by the page's own code (an island that failed); nothing when off. */
export type Report = (error: unknown) => void;

/**
 * Starts reporting when the page has a DSN (loading Sentry's code then); resolves to the
 * function that reports a caught error, which does nothing when reporting is off.
 */
export async function startErrorReporting(config: ReportingConfig | null = readReportingConfig()): Promise<Report> {
  if (!config) return () => {};
  const Sentry = await import('@sentry/react');
  Sentry.init({
    ...reportingOptions(config, [
      Sentry.browserTracingIntegration(),
      Sentry.replayIntegration({
        maskAllText: true,
        maskAllInputs: true,
        blockAllMedia: true,
        maskAttributes: MASKED_ATTRIBUTES,
        beforeAddRecordingEvent: (event) => scrubValue(event),
        // Plain text, so that the envelope scrub below reads every recording.
        useCompression: false,
      }),
    ]),
    // The last line, for what no hook sees whole (a replay's recording holds the page's address
    // in rrweb's own frames, and replays bypass the client's `beforeEnvelope`): every envelope
    // is scrubbed by the transport itself, just before it leaves.
    transport: (options) => {
      const fetchTransport = Sentry.makeFetchTransport(options);
      return {
        ...fetchTransport,
        send: (envelope) => {
          scrubEnvelope(envelope);
          return fetchTransport.send(envelope);
        },
      };
    },
  });
  return (error) => {
    Sentry.captureException(error);
  };
}
