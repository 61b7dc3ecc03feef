/** What to call a record in the console's language: its name, title, handle or key. */

type AnyRecord = Record<string, unknown> | null | undefined;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The record's name in `locale` (`name_ja` / `name_en`, then `title_*`), else its `name`,
 * `title`, its circle's name (an entry), handle, slug or key, else `#id`.
 */
export function recordName(record: AnyRecord, locale: string): string {
  if (!record) return '';
  const lang = locale === 'en' ? 'en' : 'ja';
  const other = lang === 'en' ? 'ja' : 'en';
  for (const key of [
    `name_${lang}`,
    `title_${lang}`,
    'name',
    'title',
    `name_${other}`,
    `title_${other}`,
    `circle_name_${lang}`,
    `circle_name_${other}`,
    'vmarket_id',
    'slug',
    'url_key',
    'permalink',
  ]) {
    const found = text(record[key]);
    if (found) return found;
  }
  return record.id === undefined ? '' : `#${String(record.id)}`;
}
