import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { cellKey } from './gatewaymeter-oracle.ts';

/**
 * Reads the `--sink-dir` NDJSON upsert log of a GatewayMeter job (`<sinkDir>/<job>.ndjson`, one
 * `{"tenant_id","window_start","window_end","usd","requests"}` per line): the last line per (tenant_id, window_start)
 * is the answer, since windows fire again after restarts and late data. Written independently of the engine's sink
 * code, so the proof does not trust the code it checks. Every line is validated; only a torn last line (a crash in
 * the middle of a write) is skipped.
 */

export interface UpsertRow {
  tenant_id: string;
  window_start: number;
  window_end: number;
  usd: number;
  requests: number;
}

export interface UpsertLog {
  file: string;
  /** The last row per `tenant|window_start`. */
  rows: Map<string, UpsertRow>;
  /** Lines read (firings), ≥ rows.size. */
  lines: number;
  /** Whether a torn last line was skipped. */
  tornLastLine: boolean;
}

export class UpsertLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpsertLogError';
  }
}

function rowProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (typeof r.tenant_id !== 'string' || r.tenant_id === '') return '"tenant_id" must be a non-empty string';
  if (!Number.isInteger(r.window_start)) return '"window_start" must be a whole number (ms)';
  if (!Number.isInteger(r.window_end) || (r.window_end as number) <= (r.window_start as number)) return '"window_end" must be a whole number after window_start';
  if (typeof r.usd !== 'number' || !Number.isFinite(r.usd) || r.usd < 0) return '"usd" must be a number >= 0';
  if (!Number.isInteger(r.requests) || (r.requests as number) < 1) return '"requests" must be a whole number >= 1';
  return undefined;
}

/**
 * `target` is the sink directory (then `<target>/<jobName>.ndjson` is read) or the log file itself. A missing file
 * means no rows.
 */
export function readUpsertLog(target: string, jobName = 'gatewaymeter'): UpsertLog {
  const file = existsSync(target) && statSync(target).isDirectory() ? path.join(target, `${jobName}.ndjson`) : target;
  const rows = new Map<string, UpsertRow>();
  if (!existsSync(file)) return { file, rows, lines: 0, tornLastLine: false };
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  let count = 0;
  let torn = false;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const last = i === lines.length - 1 && !endsWithNewline;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last) {
        torn = true;
        return;
      }
      throw new UpsertLogError(`${file}:${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const problem = rowProblem(value);
    if (problem) throw new UpsertLogError(`${file}:${i + 1}: ${problem}.`);
    const row = value as UpsertRow;
    rows.set(cellKey(row.tenant_id, row.window_start), { tenant_id: row.tenant_id, window_start: row.window_start, window_end: row.window_end, usd: row.usd, requests: row.requests });
    count++;
  });
  return { file, rows, lines: count, tornLastLine: torn };
}
