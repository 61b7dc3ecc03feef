/**
 * Instants as staff read and type them: always Japan time (UTC+9, no daylight saving), whatever
 * the browser's time zone. Inputs show `YYYY-MM-DDTHH:mm` (a `datetime-local` field) and send
 * RFC 3339 with `+09:00`, which the server reads as that instant.
 */

const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** `iso` (any RFC 3339 instant) as a `datetime-local` value in Japan time; '' when empty or unreadable. */
export function toJstInput(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  return new Date(at + JST_OFFSET_MS).toISOString().slice(0, 16);
}

/** A `datetime-local` value meant as Japan time, as RFC 3339 (`…+09:00`); null when empty. */
export function fromJstInput(local: unknown): string | null {
  if (typeof local !== 'string' || local.trim() === '') return null;
  const value = local.trim();
  // `YYYY-MM-DDTHH:mm` or with seconds; anything else goes to the server as typed (it says what is wrong).
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return `${value}:00+09:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}+09:00`;
  return value;
}

/**
 * `iso` for display in Japan time, in the console's language: `2026/12/12 12:00` in Japanese,
 * `12 Dec 2026, 12:00` in English (a month name: `12/09/2026` reads as 9 December to some
 * readers and as 12 September to others).
 */
export function formatJst(iso: unknown, locale: string): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return String(iso);
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: locale === 'en' ? 'short' : '2-digit',
    day: locale === 'en' ? 'numeric' : '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(at));
}
