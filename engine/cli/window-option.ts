import { CliError, EXIT } from './cli-error.ts';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** What a `--window` may span, as the command's history keeps it, and how its message spells the range. */
export interface WindowRange {
  minMs: number;
  maxMs: number;
  /** "from 10s to 24h (e.g. 60s, 5m, 1h)". */
  inWords: string;
}

/** `--window`: "60s", "5m", "1.5 h", "2d", "90000" (a bare number is ms) → ms, within the range the command reads. */
export function parseWindowOption(raw: string, range: WindowRange): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)?\s*$/i.exec(raw);
  const ms = match ? Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? 'ms').toLowerCase() as keyof typeof UNIT_MS]) : Number.NaN;
  if (!(ms >= range.minMs && ms <= range.maxMs)) throw new CliError(EXIT.badArguments, `--window must be a duration ${range.inWords}, got "${raw}".`);
  return ms;
}
