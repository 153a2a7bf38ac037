import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Sink, SinkWriter } from '../api/datastream.ts';
import type { TenantCost } from './events.ts';

/** Key of a row in the upsert log: one row per (tenant, window). */
export function upsertKey(row: Pick<TenantCost, 'tenant_id' | 'window_start'>): string {
  return `${row.tenant_id}|${row.window_start}`;
}

/**
 * The in-memory sink the UI reads: the latest row per (tenant, window) — later firings (late data, restarts)
 * replace earlier ones, as a reader of the upsert log would — and the most recent emissions.
 */
export class ResultStore {
  readonly latest = new Map<string, TenantCost>();
  readonly recent: TenantCost[] = [];
  emitted = 0;

  constructor(readonly recentLimit = 500) {}

  add(row: TenantCost): void {
    this.emitted++;
    this.latest.set(upsertKey(row), row);
    this.recent.push(row);
    if (this.recent.length > this.recentLimit) this.recent.splice(0, this.recent.length - this.recentLimit);
  }

  /** The latest rows, by window then tenant. */
  rows(): TenantCost[] {
    return [...this.latest.values()].sort((a, b) => a.window_start - b.window_start || a.tenant_id.localeCompare(b.tenant_id));
  }
}

/** One NDJSON line of the upsert log, keys in the documented order. */
export function ndjsonLine(row: TenantCost): string {
  return `${JSON.stringify({ tenant_id: row.tenant_id, window_start: row.window_start, window_end: row.window_end, usd: row.usd, requests: row.requests })}\n`;
}

/**
 * Appends each row to `<dir>/<name>.ndjson` as one line. A window that fires again (after a restart, or a late
 * re-fire) appends another line for the same (tenant_id, window_start): the file is an upsert log whose last line
 * per key is the answer (see `readUpsertLog`).
 */
export class NdjsonUpsertLog {
  readonly file: string;

  constructor(directory: string, name: string) {
    mkdirSync(directory, { recursive: true });
    this.file = path.join(directory, `${name}.ndjson`);
  }

  append(row: TenantCost): void {
    appendFileSync(this.file, ndjsonLine(row));
  }
}

/** Reads an upsert log: the last line per (tenant_id, window_start). Missing file = no rows. */
export function readUpsertLog(file: string): Map<string, TenantCost> {
  const out = new Map<string, TenantCost>();
  if (!existsSync(file)) return out;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let row: TenantCost;
    try {
      row = JSON.parse(line) as TenantCost;
    } catch {
      if (i === lines.length - 1) return; // a torn last line from a crash mid-write
      throw new Error(`${file}:${i + 1} is not JSON.`);
    }
    out.set(upsertKey(row), row);
  });
  return out;
}

/** The GatewayMeter sink: every row to the memory store and, when configured, to the upsert log. */
export class TenantCostSink implements Sink<TenantCost> {
  constructor(
    readonly store: ResultStore,
    readonly log?: NdjsonUpsertLog,
  ) {}

  createWriter(): SinkWriter<TenantCost> {
    return {
      write: (row) => {
        this.store.add(row);
        this.log?.append(row);
      },
    };
  }
}
