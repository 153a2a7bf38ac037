/**
 * What an operator types for the State view, read the same in the app and the CLI: a size (the projection's limit)
 * and a key count. Null = not readable; each caller says why in its own words.
 */

const BYTE_UNITS: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** "8GiB", "500 MiB", "1.5GB", "1048576" (bytes) → bytes ≥ 1. */
export function readSize(raw: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?\s*$/i.exec(raw);
  const bytes = match ? Math.round(Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]) : Number.NaN;
  return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : null;
}

/** "2000000", "2,000,000", "2_000_000" → a whole number of keys ≥ 1. */
export function readKeyCount(raw: string): number | null {
  const n = Number(raw.trim().replace(/[,_]/g, ''));
  return /^\s*\d[\d,_]*\s*$/.test(raw) && Number.isSafeInteger(n) && n >= 1 ? n : null;
}
