/**
 * The State tab's optional inputs, read as the engine wants them: a capacity (the projection's target) and a key count
 * (bytes per key without RocksDB's native metrics). Empty = not set; anything else unreadable says why.
 */

export type Parsed = { ok: true; value: number | null } | { ok: false; message: string };

const UNITS: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** "8GiB", "500 MiB", "1.5GB", "1048576" (bytes) → bytes. */
export function parseCapacity(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: null };
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?\s*$/i.exec(raw);
  const bytes = match ? Math.round(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]) : Number.NaN;
  if (!(bytes >= 1 && Number.isSafeInteger(bytes))) return { ok: false, message: `A capacity is a size such as 8GiB, 500MiB or a number of bytes, not "${raw.trim()}".` };
  return { ok: true, value: bytes };
}

/** "2000000", "2,000,000", "2_000_000" → a whole number of keys ≥ 1. */
export function parseKeyCount(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: null };
  const n = Number(raw.trim().replace(/[,_]/g, ''));
  if (!/^\s*\d[\d,_]*\s*$/.test(raw) || !Number.isSafeInteger(n) || n < 1) return { ok: false, message: `A key count is a whole number of keys of at least 1, not "${raw.trim()}".` };
  return { ok: true, value: n };
}

/** The windows the State tab offers. */
export const STATE_WINDOWS: Array<{ ms: number; label: string }> = [
  { ms: 10 * 60_000, label: '10 min' },
  { ms: 60 * 60_000, label: '1 h' },
  { ms: 6 * 60 * 60_000, label: '6 h' },
  { ms: 24 * 60 * 60_000, label: '1 d' },
];
