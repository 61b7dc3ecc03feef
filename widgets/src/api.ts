/**
 * The product API client for widgets (spec §7), typed by the OpenAPI document: `paths` and
 * `components` are generated from `widgets/openapi.json` (`npm run generate`, part of `build`
 * and `typecheck`), so a call only compiles for a documented path and method, with its path and
 * query parameters, and resolves to that operation's documented success body.
 *
 * Every call: same-origin cookie auth, `?lang=ja|en`, `Accept: application/json`; unsafe
 * methods send the CSRF token from `<meta name="csrf-token">` as `X-CSRF-Token`. GET and HEAD
 * are retried twice on network failures and 5xx answers; POST, PUT, PATCH and DELETE are sent
 * exactly once (a repeated write could apply twice), and so is every payment call, reads
 * included (spec §7 "Payments (no retry)": {@link isPaymentPath}).
 * Error answers `{code, message, details: [{attribute, message}]}` (spec §8) become an
 * {@link ApiError}; any 401 flags the page's auth error (spec §4). Keys stay snake_case as on
 * the wire, as in the generated types.
 */
import { flagAuthError } from './auth';
import type { components, paths } from './generated/openapi';
import type { Lang } from './i18n';
import { readMeta } from './meta';

/** The API's schemas by name, e.g. `Schemas['UserView']`. */
export type Schemas = components['schemas'];

/** Spec §7: calls retry twice on failure (reads only: GET and HEAD). */
export const API_RETRIES = 2;
const RETRY_DELAY_MS = 300;

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that change nothing on the server, so that repeating them is harmless. */
const RETRIABLE: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD']);

/** The payment calls of spec §7 (`/api/v1/user/payment_histories…`, `/api/v1/user/payment/…`, `/api/v1/payment/…`). */
const PAYMENT_PATH = /^\/api\/v1\/(?:user\/)?payment(?:_histories)?(?:[/?]|$)/;

/** Whether `path` is a payment call, which is never retried whatever its method (spec §7). */
export function isPaymentPath(path: string): boolean {
  return PAYMENT_PATH.test(path);
}

export type ApiErrorDetail = Schemas['FieldError'];

/** A failed call. `status` is 0 when no answer arrived (network failure). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiErrorDetail[];

  constructor(status: number, code: string, message: string, details: ApiErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface ApiOptions {
  lang: Lang;
  method?: HttpMethod;
  /**
   * Form data goes as multipart (the browser sets the boundary), URLSearchParams as a form,
   * anything else as JSON.
   */
  body?: FormData | URLSearchParams | object;
  /** Sent as `X-CSRF-Token` on unsafe methods; defaults to `<meta name="csrf-token">`. */
  csrfToken?: string | null;
  fetch?: typeof fetch;
  /**
   * Retries of a GET or HEAD (default {@link API_RETRIES}); other methods and payment calls
   * ({@link isPaymentPath}) are never retried.
   */
  retries?: number;
  /** Waits between retries; the default waits 300 ms, then 600 ms. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** `path` with `lang` added to its query. */
export function apiUrl(path: string, lang: Lang): string {
  return `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads an error answer; bodies that are not the API error shape keep only the status. */
export async function readApiError(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy page, an empty body): the status is all we know.
  }
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : `http_${res.status}`;
  const message = isRecord(body) && typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
  const details =
    isRecord(body) && Array.isArray(body.details)
      ? body.details.filter(
          (d): d is ApiErrorDetail => isRecord(d) && typeof d.attribute === 'string' && typeof d.message === 'string',
        )
      : [];
  return new ApiError(res.status, code, message, details);
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls the API and resolves to the parsed JSON body of a 2xx answer (null when empty).
 * Rejects with an {@link ApiError}; a 401 also flags the page's auth error. Aborts reject with
 * the abort error as is. Untyped: widgets call the typed {@link api} instead.
 */
export async function apiRequest(path: string, opts: ApiOptions): Promise<unknown> {
  const method = opts.method ?? 'GET';
  const fetchImpl = opts.fetch ?? fetch;
  const retries = RETRIABLE.has(method) && !isPaymentPath(path) ? (opts.retries ?? API_RETRIES) : 0;
  const sleep = opts.sleep ?? defaultSleep;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (!RETRIABLE.has(method)) {
    const token = opts.csrfToken === undefined ? readMeta('csrf-token') : opts.csrfToken;
    if (token) headers['X-CSRF-Token'] = token;
  }
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof URLSearchParams) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const url = apiUrl(path, opts.lang);

  for (let attempt = 0; ; attempt += 1) {
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        cache: 'no-store',
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (attempt < retries) {
        await sleep(RETRY_DELAY_MS * (attempt + 1));
        continue;
      }
      throw new ApiError(0, 'network_error', err instanceof Error ? err.message : String(err));
    }
    if (res.ok) {
      const text = await res.text();
      if (text.trim() === '') return null;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ApiError(res.status, 'invalid_response', 'the response is not JSON');
      }
    }
    if (res.status >= 500 && attempt < retries) {
      await sleep(RETRY_DELAY_MS * (attempt + 1));
      continue;
    }
    const error = await readApiError(res);
    if (res.status === 401) flagAuthError();
    throw error;
  }
}

// ---- Types of the generated document ----

type Method = Lowercase<HttpMethod>;

/** The documented paths that have an operation for `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/** The operation at `P` for `M`. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type PathParams<O> = O extends { parameters: { path: infer T } } ? T : never;
/** Query parameters but `lang`, which every call adds itself. */
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Omit<NonNullable<Q>, 'lang'> : never;
type BodyContent<B> = B extends { content: infer C } ?
    | ('multipart/form-data' extends keyof C ? FormData : never)
    | ('application/x-www-form-urlencoded' extends keyof C ? URLSearchParams : never)
    | (C extends { 'application/json': infer J } ? J : never)
  : never;
type RequestBody<O> = O extends { requestBody?: infer B } ? BodyContent<NonNullable<B>> : never;
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;

/** What a successful call resolves to: the 2xx JSON body, or null for an answer without one. */
export type SuccessBody<O> = O extends { responses: infer R } ?
    {
      [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer T } } ? T : null;
    }[keyof R & SuccessStatus]
  : never;

/** The options of a call: path parameters when the path has any, a body when it takes one. */
export type CallOptions<O> = Omit<ApiOptions, 'method' | 'body'> & {
  query?: QueryParams<O>;
} & ([PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> }) &
  ([RequestBody<O>] extends [never] ? { body?: never } : { body: RequestBody<O> });

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** `template` with its `{name}` segments filled in (URL-encoded) and `query` appended. */
export function buildPath(template: string, path?: object, query?: object): string {
  const values = (path ?? {}) as Record<string, unknown>;
  const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new TypeError(`${template}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(key, String(one));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

function call<M extends Method>(method: M) {
  return <P extends PathsWith<M>>(
    path: P,
    opts: CallOptions<Operation<P, M>>,
  ): Promise<SuccessBody<Operation<P, M>>> => {
    const { path: params, query, ...rest } = opts;
    const url = buildPath(path, params, query);
    return apiRequest(url, { ...rest, method: method.toUpperCase() as HttpMethod }) as Promise<
      SuccessBody<Operation<P, M>>
    >;
  };
}

/**
 * The typed calls, one per HTTP method: `api.get('/api/v1/{event}/worlds', { lang, path:
 * { event: '2026Winter' }, query: { limit: 20 } })` resolves to the documented list body.
 */
export const api = {
  get: call('get'),
  head: call('head'),
  post: call('post'),
  put: call('put'),
  patch: call('patch'),
  delete: call('delete'),
};
