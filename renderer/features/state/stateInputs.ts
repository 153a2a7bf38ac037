/**
 * The State tab's optional inputs, read as the engine wants them: a capacity (the projection's target) and a key count
 * (bytes per key without RocksDB's native metrics). Empty = not set; anything else unreadable says why.
 */

import { readKeyCount, readSize } from '../../../engine/contracts/state-inputs';

export type Parsed = { ok: true; value: number | null } | { ok: false; message: string };

/** "8GiB", "500 MiB", "1.5GB", "1048576" (bytes) → bytes. */
export function parseCapacity(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: null };
  const bytes = readSize(raw);
  return bytes === null ? { ok: false, message: `A capacity is a size such as 8GiB, 500MiB or a number of bytes, not "${raw.trim()}".` } : { ok: true, value: bytes };
}

/** "2000000", "2,000,000", "2_000_000" → a whole number of keys ≥ 1. */
export function parseKeyCount(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: null };
  const n = readKeyCount(raw);
  return n === null ? { ok: false, message: `A key count is a whole number of keys of at least 1, not "${raw.trim()}".` } : { ok: true, value: n };
}

/** The windows the State tab offers. */
export const STATE_WINDOWS: Array<{ ms: number; label: string }> = [
  { ms: 10 * 60_000, label: '10 min' },
  { ms: 60 * 60_000, label: '1 h' },
  { ms: 6 * 60 * 60_000, label: '6 h' },
  { ms: 24 * 60 * 60_000, label: '1 d' },
];
