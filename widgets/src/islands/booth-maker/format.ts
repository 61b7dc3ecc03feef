/**
 * Numbers as the editor shows them and as its test ids carry them (pure): positions with two
 * decimals, attributes with three, counts grouped for the page's language, sizes in MB (MiB, as
 * the rule sets read "MB"). Units and words come from the messages; these give the numbers.
 */
import type { Lang } from '../../i18n';
import type { Vec3 } from './types';

/** `v` with `digits` decimals, never `-0.00`. */
export function fixed(v: number, digits: number): string {
  const text = v.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** `x 0.10 y 0.00 z -1.20`: the selected item's readout. */
export function positionText(p: Vec3): string {
  return `x ${fixed(p[0], 2)} y ${fixed(p[1], 2)} z ${fixed(p[2], 2)}`;
}

/** `1.200,0.750,0.800`: a box as a test attribute. */
export function vecAttr(v: Vec3): string {
  return v.map((n) => fixed(n, 3)).join(',');
}

/** `12,345` / `12,345`: a count in the page's language. */
export function count(n: number, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US').format(n);
}

export const MIB = 1024 * 1024;

/** Bytes as MB with two decimals (`15.00`). */
export function megabytes(bytes: number): string {
  return fixed(bytes / MIB, 2);
}

/** A time of day (`14:05:09`) in the page's language. */
export function clockTime(iso: string | null, lang: Lang): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return at.toLocaleTimeString(lang === 'ja' ? 'ja-JP' : 'en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A date and time (`2026/12/06 18:00`) in the page's language. */
export function dateTime(iso: string | null, lang: Lang): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return at.toLocaleString(lang === 'ja' ? 'ja-JP' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
