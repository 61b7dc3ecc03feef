/**
 * CSV export of a list with the columns it shows: a header of the translated column labels, then
 * one line per record. UTF-8 with a byte-order mark so that spreadsheet programs read Japanese
 * correctly; fields quoted when they hold a comma, quote or line break.
 */

/** A column of the export: the record field and its header. */
export interface CsvColumn {
  source: string;
  label: string;
}

/** One value as CSV text: lists joined with spaces, objects as JSON, nothing as empty. */
export function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(csvValue).join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `records` as CSV with `columns`, lines ending in CRLF (RFC 4180), with a BOM. */
export function toCsv(records: Record<string, unknown>[], columns: CsvColumn[]): string {
  const lines = [columns.map((c) => quoted(c.label))];
  for (const record of records) {
    lines.push(columns.map((c) => quoted(csvValue(record[c.source]))));
  }
  return `\ufeff${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}
