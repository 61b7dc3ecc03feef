/**
 * Reads `<meta name="..." content="...">` values that the server puts into every page
 * (build id, poll interval). Missing or empty tags read as `null`.
 */
export function readMeta(name: string, doc: Document = document): string | null {
  const el = doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  const value = el?.content.trim();
  return value ? value : null;
}

/** A positive integer from a meta tag, or `fallback` when absent or malformed. */
export function readMetaInt(name: string, fallback: number, doc: Document = document): number {
  const raw = readMeta(name, doc);
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
