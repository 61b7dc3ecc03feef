/**
 * The console's dataProvider: ra-data-simple-rest over `/admin/api`, through an HTTP client that
 * sends the signed-in browser's cookies, the CSRF token on writes and `?lang=` (so errors come
 * in the console's language), and turns the server's error body into react-admin's shape:
 * `details` become field errors shown beside the inputs. Plus the console's own calls:
 * dashboard, clock, time travel, a payment's reconcile and a store purchase's refund.
 */
import simpleRestProvider from 'ra-data-simple-rest';
import { type DataProvider, HttpError, fetchUtils } from 'react-admin';
import { storedLocale } from './i18n';

export const API_URL = '/admin/api';
export const TIME_TRAVEL_URL = '/api/v1/admin/time_travel';

/** The server's error body. */
export interface ErrorBody {
  code: string;
  message: string;
  details: { attribute: string; message: string }[];
}

/** Field errors in react-admin's shape: `{ name_ja: '…', 'phases.1.phase_timestamp': '…', root: { serverError } }`. */
export function formErrors(body: ErrorBody): Record<string, unknown> {
  const errors: Record<string, unknown> = { root: { serverError: body.message } };
  for (const { attribute, message } of body.details ?? []) {
    if (attribute !== 'body') errors[attribute] = message;
  }
  return errors;
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).code === 'string';
}

/** `url` with `lang=` added. */
export function withLang(url: string, lang: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`;
}

function csrfToken(): string {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
}

/** Where the console's HTTP calls go (tests pass their own). */
export interface HttpEnvironment {
  fetchJson: typeof fetchUtils.fetchJson;
  lang: () => string;
  csrf: () => string;
}

const browser: HttpEnvironment = { fetchJson: fetchUtils.fetchJson, lang: () => storedLocale(), csrf: csrfToken };

/** The HTTP client of the console. */
export function createHttpClient(env: HttpEnvironment = browser) {
  return async (url: string, options: fetchUtils.Options = {}) => {
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    const method = (options.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') headers.set('X-CSRF-Token', env.csrf());
    try {
      return await env.fetchJson(withLang(url, env.lang()), { ...options, headers, credentials: 'same-origin' });
    } catch (err) {
      if (err instanceof HttpError && isErrorBody(err.body)) {
        throw new HttpError(err.body.message, err.status, { ...err.body, errors: formErrors(err.body) });
      }
      throw err;
    }
  };
}

/** A file chosen in a picture input (react-admin's `ImageInput` value). */
interface ChosenFile {
  rawFile: File;
}

function isChosenFile(value: unknown): value is ChosenFile {
  return typeof value === 'object' && value !== null && (value as ChosenFile).rawFile instanceof File;
}

/** A picture input's value for a picture already stored: `{ src, title }`. */
function isShownPicture(value: unknown): value is { src: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { src?: unknown }).src === 'string' &&
    !('rawFile' in value)
  );
}

/**
 * `data` as the server takes it: each chosen file uploaded for its field (`POST
 * /admin/api/uploads?resource=…&field=…`, multipart) and replaced by the stored picture's
 * address, each picture kept as it was back to its address. Pictures of rows inside the record
 * (a world's areas) are the field `<list>.<field>` (`areas.image`). A refused file fails the
 * save with the server's reason on that field.
 */
export async function withUploads(
  http: ReturnType<typeof createHttpClient>,
  resource: string,
  data: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  /** `value` as an address: uploaded for `field`; a refusal names the input at `path`. */
  const picture = async (field: string, path: string, value: unknown): Promise<unknown> => {
    if (isChosenFile(value)) {
      const body = new FormData();
      body.append('file', value.rawFile, value.rawFile.name);
      const query = `resource=${encodeURIComponent(resource)}&field=${encodeURIComponent(field)}`;
      try {
        const stored = await http(`${API_URL}/uploads?${query}`, { method: 'POST', body });
        return (stored.json as { url: string }).url;
      } catch (err) {
        if (!(err instanceof HttpError) || field === path) throw err;
        const errors = err.body?.errors as Record<string, unknown> | undefined;
        if (!errors || !(field in errors)) throw err;
        const { [field]: reason, ...rest } = errors;
        throw new HttpError(err.message, err.status, { ...err.body, errors: { ...rest, [path]: reason } });
      }
    }
    return isShownPicture(value) ? value.src : value;
  };
  const isRow = (item: unknown): item is Record<string, unknown> =>
    typeof item === 'object' && item !== null && !Array.isArray(item) && !isChosenFile(item) && !isShownPicture(item);
  const out: Record<string, unknown> = { ...data };
  for (const [field, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.some(isRow)) {
      const rows = [];
      for (const [index, item] of value.entries()) {
        if (!isRow(item)) {
          rows.push(item);
          continue;
        }
        const row: Record<string, unknown> = { ...item };
        for (const [key, inner] of Object.entries(item)) {
          row[key] = await picture(`${field}.${key}`, `${field}.${index}.${key}`, inner);
        }
        rows.push(row);
      }
      out[field] = rows;
    } else {
      out[field] = await picture(field, field, value);
    }
  }
  return out;
}

/** Where the application clock stands (`/admin/api/clock`, `/api/v1/admin/time_travel`). */
export interface ClockState {
  timestamp: string | null;
  offset_seconds: number;
  now: string;
}

/** One dashboard card. */
export interface DashboardCard {
  key: string;
  resource: string;
  filter: Record<string, unknown>;
  count: number;
  items: { id: number; title: string; detail: string | null; at: string }[];
}

/** The console's dataProvider. */
export type ConsoleDataProvider = DataProvider & {
  dashboard: () => Promise<{ cards: DashboardCard[] }>;
  clock: () => Promise<ClockState>;
  timeTravel: (timestamp: string | null) => Promise<ClockState>;
  /** `POST /admin/api/<resource>/<id>/reconcile`: the record as it is now, with `outcome`. */
  reconcile: (resource: string, id: number | string) => Promise<Record<string, unknown> & { outcome: string }>;
  /** `POST /admin/api/<resource>/<id>/refund` with the reason: the record as it is now, with `outcome`. */
  refund: (
    resource: string,
    id: number | string,
    reason: string,
  ) => Promise<Record<string, unknown> & { outcome: string }>;
};

export function createDataProvider(env: HttpEnvironment = browser): ConsoleDataProvider {
  const http = createHttpClient(env);
  const rest = simpleRestProvider(API_URL, http);
  return {
    ...rest,
    create: async (resource, params) =>
      rest.create(resource, { ...params, data: await withUploads(http, resource, params.data) }),
    update: async (resource, params) =>
      rest.update(resource, { ...params, data: await withUploads(http, resource, params.data) }),
    dashboard: async () => (await http(`${API_URL}/dashboard`)).json,
    clock: async () => (await http(`${API_URL}/clock`)).json,
    reconcile: async (resource, id) =>
      (await http(`${API_URL}/${resource}/${encodeURIComponent(String(id))}/reconcile`, { method: 'POST' })).json,
    refund: async (resource, id, reason) =>
      (
        await http(`${API_URL}/${resource}/${encodeURIComponent(String(id))}/refund`, {
          method: 'POST',
          body: JSON.stringify({ reason }),
        })
      ).json,
    timeTravel: async (timestamp) =>
      (
        await http(TIME_TRAVEL_URL, timestamp === null
          ? { method: 'DELETE' }
          : { method: 'PUT', body: JSON.stringify({ timestamp }) })
      ).json,
  };
}
