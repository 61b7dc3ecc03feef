/**
 * Client-side checks of the profile form (spec §5, same limits as the server): names 1–64 (ja)
 * and 1–128 (en) characters, at most 5 external links that are http(s) URLs of at most 2048
 * characters, an icon of at most 5 MiB in PNG, JPEG, WebP or GIF. Results are message keys
 * under `profile_form.errors.*` with their parameters, translated by the component.
 */
import type { Params } from '../../i18n';

export const NAME_JA_MAX = 64;
export const NAME_EN_MAX = 128;
export const LINKS_MAX = 5;
export const LINK_URL_MAX = 2048;
export const ICON_MAX_BYTES = 5 * 1024 * 1024;
export const ICON_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** A message key and its placeholders. */
export interface FieldError {
  key: string;
  params?: Params;
}

export interface ProfileErrors {
  name_ja?: FieldError;
  name_en?: FieldError;
  /** The list as a whole (too many links). */
  external_links?: FieldError;
  /** Per row of the edited list, by row index. */
  links?: Record<number, FieldError>;
  icon?: FieldError;
}

export interface ProfileInput {
  name_ja: string;
  name_en: string;
  /** The rows as edited; blank rows are ignored. */
  links: string[];
  icon: Pick<File, 'size' | 'type'> | null;
}

/** Length in characters (code points), as the server counts them. */
export function charCount(value: string): number {
  return Array.from(value).length;
}

function checkName(value: string, max: number, field: 'name_ja' | 'name_en'): FieldError | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return { key: `profile_form.errors.${field}_required` };
  if (charCount(trimmed) > max) return { key: `profile_form.errors.${field}_too_long`, params: { max } };
  return undefined;
}

/** Whether `value` is a well-formed absolute http or https URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function checkLink(value: string): FieldError | undefined {
  if (charCount(value) > LINK_URL_MAX) return { key: 'profile_form.errors.link_too_long', params: { max: LINK_URL_MAX } };
  if (!isHttpUrl(value)) return { key: 'profile_form.errors.link_invalid' };
  return undefined;
}

/** MiB, for messages ("5"). */
export const ICON_MAX_MB = ICON_MAX_BYTES / (1024 * 1024);

/** Checks a chosen icon file. */
export function checkIcon(file: Pick<File, 'size' | 'type'> | null): FieldError | undefined {
  if (!file) return undefined;
  if (!ICON_TYPES.includes(file.type.toLowerCase())) return { key: 'profile_form.errors.icon_type' };
  if (file.size > ICON_MAX_BYTES) return { key: 'profile_form.errors.icon_too_large', params: { max: ICON_MAX_MB } };
  return undefined;
}

/** The non-blank link rows, trimmed, in order. */
export function cleanLinks(links: readonly string[]): string[] {
  return links.map((l) => l.trim()).filter((l) => l !== '');
}

/** Validates the whole form; an empty object means it can be sent. */
export function validateProfile(input: ProfileInput): ProfileErrors {
  const errors: ProfileErrors = {};
  const nameJa = checkName(input.name_ja, NAME_JA_MAX, 'name_ja');
  if (nameJa) errors.name_ja = nameJa;
  const nameEn = checkName(input.name_en, NAME_EN_MAX, 'name_en');
  if (nameEn) errors.name_en = nameEn;

  const rows: Record<number, FieldError> = {};
  input.links.forEach((raw, index) => {
    const value = raw.trim();
    if (value === '') return;
    const error = checkLink(value);
    if (error) rows[index] = error;
  });
  if (Object.keys(rows).length > 0) errors.links = rows;
  if (cleanLinks(input.links).length > LINKS_MAX) {
    errors.external_links = { key: 'profile_form.errors.too_many_links', params: { max: LINKS_MAX } };
  }

  const icon = checkIcon(input.icon);
  if (icon) errors.icon = icon;
  return errors;
}

/** Whether `validateProfile` found anything. */
export function hasErrors(errors: ProfileErrors): boolean {
  return Object.keys(errors).length > 0;
}
