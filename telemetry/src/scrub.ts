/**
 * What leaves the browser in an error report: never a token, a cookie or an email address.
 *
 * Every string of an event (message, exception values, breadcrumbs, URLs, extra data, replay
 * frames) is scrubbed of email addresses, bearer and basic credentials, JWTs and the values of
 * secret-looking query parameters; every value under a secret-looking key (cookie,
 * authorization, token, password, secret, email, csrf, …) is replaced whole; the event's user,
 * cookies, request body and request headers other than the browser's name go. The reports'
 * other settings (replays with every text and input masked) are in `./options`.
 */

import type { Event } from '@sentry/react';

/** What a scrubbed value reads as. */
export const FILTERED = '[Filtered]';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const CREDENTIALS = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/**
 * Query (and fragment) parameters whose values are secrets or personal: sign-in codes and
 * states, tokens of every kind, the contact form's signature `s`, passwords, emails.
 */
const SECRET_PARAMS = [
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'key',
  'signature',
  'sig',
  's',
  'password',
  'email',
  'csrf',
  'csrf_token',
];
const SECRET_PARAM = new RegExp(`([?&#;](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"'<>]*`, 'gi');
/** Keys whose values are replaced whole, wherever they are in the event. */
const SECRET_KEY = /cookie|authori[sz]ation|token|secret|passw(or)?d|e-?mail|csrf|credential|api[-_]?key/i;
/** The request headers an event keeps (anything else may carry a credential). */
const KEPT_HEADERS = new Set(['user-agent']);
/** Deeper than this, values are dropped rather than walked (events are shallow; this is a guard). */
const MAX_DEPTH = 24;

/** `text` without emails, credentials, JWTs or secret query values. */
export function scrubText(text: string): string {
  return text
    .replace(JWT, FILTERED)
    .replace(CREDENTIALS, (_, scheme: string) => `${scheme} ${FILTERED}`)
    .replace(EMAIL, FILTERED)
    .replace(SECRET_PARAM, (_, name: string) => `${name}${FILTERED}`);
}

/**
 * A copy of `value` with every string scrubbed ({@link scrubText}) and every value under a
 * secret-looking key replaced by {@link FILTERED}.
 */
export function scrubValue<T>(value: T, key = '', depth = 0): T {
  if (key !== '' && SECRET_KEY.test(key) && value !== undefined && value !== null) return FILTERED as T;
  if (typeof value === 'string') return scrubText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return FILTERED as T;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, '', depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubValue(v, k, depth + 1);
  return out as T;
}

/**
 * The event as it may leave the browser (Sentry's `beforeSend` / `beforeSendTransaction`): no
 * user, no cookies, no request body, no request header but the browser's name, and every
 * string scrubbed.
 */
export function scrubEvent<E extends Event>(event: E): E {
  const scrubbed = scrubValue(event);
  delete scrubbed.user;
  if (scrubbed.request) {
    delete scrubbed.request.cookies;
    delete scrubbed.request.data;
    const headers = scrubbed.request.headers ?? {};
    scrubbed.request.headers = Object.fromEntries(
      Object.entries(headers).filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
    );
  }
  return scrubbed;
}

/** An envelope item's header as the SDK builds it (`length` in bytes, when it gives one). */
interface ItemHeader {
  type?: string;
  length?: number;
}

/**
 * Scrubs an envelope in place just before it is sent (the client's `beforeEnvelope` hook): every
 * item's payload — events, and the replay recordings no other hook reaches whole (rrweb's page
 * address is in them) — with `length` kept right. Binary payloads that are not UTF-8 text go as
 * they are (replays are sent uncompressed so that none is). The envelope's own header (the DSN,
 * the SDK) is left alone.
 */
export function scrubEnvelope(envelope: readonly [unknown, readonly unknown[]]): void {
  const encoder = new TextEncoder();
  for (const item of envelope[1]) {
    if (!Array.isArray(item) || item.length < 2) continue;
    const header = (item[0] ?? {}) as ItemHeader;
    const payload: unknown = item[1];
    let text: string | undefined;
    if (typeof payload === 'string') {
      text = scrubText(payload);
    } else if (payload instanceof Uint8Array) {
      try {
        text = scrubText(new TextDecoder('utf-8', { fatal: true }).decode(payload));
      } catch {
        continue;
      }
    } else if (payload !== null && typeof payload === 'object') {
      item[1] = scrubValue(payload);
      continue;
    }
    if (text === undefined) continue;
    item[1] = payload instanceof Uint8Array ? encoder.encode(text) : text;
    if (typeof header.length === 'number') header.length = encoder.encode(text).length;
  }
}
