/**
 * Calls to the product API from widgets (spec §7): same-origin cookie auth, `?lang=ja|en` on
 * every call, the CSRF token from `<meta name="csrf-token">` on writes, two retries on network
 * failures and 5xx answers, and the error body `{code, message, details: [{attribute,
 * message}]}` (spec §8) turned into an {@link ApiError}. Any 401 flags the page's auth error
 * (spec §4).
 */
import { flagAuthError } from './auth';
import type { Lang } from './i18n';
import { readMeta } from './meta';

/** Spec §7: calls retry twice on failure. */
export const API_RETRIES = 2;
const RETRY_DELAY_MS = 300;

export interface ApiErrorDetail {
  attribute: string;
  message: string;
}

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
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** Form data is sent as multipart (the browser sets the boundary). */
  body?: FormData;
  /** Sent as `X-CSRF-Token` on writes; defaults to `<meta name="csrf-token">`. */
  csrfToken?: string | null;
  fetch?: typeof fetch;
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
 * the abort error as is.
 */
export async function apiRequest(path: string, opts: ApiOptions): Promise<unknown> {
  const method = opts.method ?? 'GET';
  const fetchImpl = opts.fetch ?? fetch;
  const retries = opts.retries ?? API_RETRIES;
  const sleep = opts.sleep ?? defaultSleep;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') {
    const token = opts.csrfToken === undefined ? readMeta('csrf-token') : opts.csrfToken;
    if (token) headers['X-CSRF-Token'] = token;
  }
  const url = apiUrl(path, opts.lang);

  for (let attempt = 0; ; attempt += 1) {
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method,
        headers,
        body: opts.body,
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
