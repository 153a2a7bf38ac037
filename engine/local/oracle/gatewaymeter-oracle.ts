import { GatewayEventReader, type GeneratorConfig } from '../gatewaymeter/generator.ts';
import { DEFAULT_PRICES, type ModelPrice } from '../gatewaymeter/prices.ts';
import { ManualClock } from '../time/clock.ts';

/**
 * The independent oracle of the exactly-once proofs: per-tenant, per-minute totals (`usd`, `requests`) of a bounded
 * GatewayMeter run, computed from the generator's output in plain code, without the engine, its operators, state,
 * windows or pipelines (only the generator, the input, and the price table, data, are imported).
 *
 * What the pipeline defines, restated here on purpose (the test checks these equal the pipeline's constants):
 * - `assemble` (keyed by request_id): a RequestStarted opens a request (a second start is ignored); RequestCompleted
 *   closes it into a record with the completion's timestamp; a completion without an open request is dropped;
 *   a request still open when event time passes start + 5 min becomes an `abandoned` record with timestamp
 *   start + 5 min and 0 completion tokens (in a bounded run the final MAX_WATERMARK abandons every open request).
 * - cost: prompt tokens × input price + completion tokens × output price, in whole nano-USD per token.
 * - `tenant-cost`: 1-minute tumbling event-time windows on the record's timestamp, summed per tenant.
 *
 * Lateness, the one place the oracle must model the engine: the window operator drops a record (plain job) when its
 * window's end − 1 + allowed lateness <= the operator's current watermark. Which records that hits depends on timing
 * (how far each source subtask got, periodic watermark emission, restarts resetting watermarks): real Flink is not
 * deterministic there either. The oracle therefore splits records into
 * - certain: the window's end − 1 + lateness is above the highest watermark the record's own source subtask can have
 *   emitted before it (max event time emitted before it − bound − 1). Every watermark downstream is at most that, so
 *   no run, with or without failures, can drop it. Every abandoned record is certain (its timer fires before the
 *   watermark that fired it is forwarded).
 * - uncertain: may be counted or dropped. `compareTotals` accepts an actual cell when it equals the certain sum plus
 *   some subset of the cell's uncertain records. Generator configs with `lateFraction: 0` have no uncertain records,
 *   so the comparison is exact.
 *
 * Assumptions (hold for the built-in jobs; break them and the oracle no longer applies):
 * - the source and `parse` have the same parallelism (chained), so each request's events reach `assemble` in order;
 * - the job's source readers are those of `sourceParallelism` subtasks started at `startTime` (a job restored from a
 *   savepoint must keep both in its source state to continue the same stream);
 * - no source subtask goes idle (`idleTimeoutMs`) while it still has events to emit: an idle subtask no longer holds
 *   the watermark back, so others could fire abandon timers and windows early;
 * - request IDs are unique (random UUIDs).
 */

/** `pipelines.ts` constants, restated (checked by the test). */
export const ORACLE_WINDOW_MS = 60_000;
export const ORACLE_ABANDON_AFTER_MS = 5 * 60_000;
/** The pipeline's default bounded out-of-orderness of the watermark strategy. */
export const ORACLE_DEFAULT_MAX_OUT_OF_ORDERNESS_MS = 2000;
/** Allowed lateness of the salted job's stage B (`gatewaymeter-salted`); the plain job has none. */
export const ORACLE_SALTED_ALLOWED_LATENESS_MS = 2 * 60_000;

export interface OracleOptions {
  /** The generator configuration of the run; `events` must be set (bounded run). */
  generator: GeneratorConfig;
  /** Parallelism of the source (`gateway-events`) when the stream was generated. */
  sourceParallelism: number;
  /** The source readers' start time (`SourceReaderContext.startTime`: the job's start on the virtual clock). */
  startTime: number;
  /** Bounded out-of-orderness of the job's watermark strategy. @default 2000 */
  maxOutOfOrdernessMs?: number;
  /** Allowed lateness where records could be dropped: 0 for `gatewaymeter`, 120000 for `gatewaymeter-salted`. @default 0 */
  allowedLatenessMs?: number;
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** One request's record as the pipeline would produce it. */
export interface OracleRecord {
  request_id: string;
  tenant_id: string;
  model: string;
  /** The record's event timestamp (completion time, or start + 5 min when abandoned). */
  timestamp: number;
  status: 'completed' | 'abandoned';
  nanoUsd: number;
  /** Source subtask that emitted the closing event. */
  sourceSubtask: number;
  /** Whether no timing can make the window operator drop it. */
  certain: boolean;
  /**
   * For uncertain records: whether a run whose source subtasks advance in step (throttled, no restarts) most likely
   * drops it. A hint for reading diffs, not part of the check.
   */
  likelyDropped?: boolean;
}

export interface Totals {
  nanoUsd: number;
  requests: number;
}

export interface ExpectedCell {
  tenant_id: string;
  window_start: number;
  window_end: number;
  certain: Totals;
  uncertain: OracleRecord[];
}

export interface ExpectedTotals {
  /** By `tenant|window_start`. */
  cells: Map<string, ExpectedCell>;
  stats: {
    events: number;
    records: number;
    completed: number;
    abandoned: number;
    completionsWithoutStart: number;
    duplicateStarts: number;
    uncertain: number;
  };
}

/** `tenant|window_start`, the upsert key of a result row. */
export function cellKey(tenant: string, windowStart: number): string {
  return `${tenant}|${windowStart}`;
}

/** Window start of a timestamp (1-minute tumbling windows, offset 0; correct for negative times). */
export function windowStartOf(timestamp: number): number {
  const r = timestamp % ORACLE_WINDOW_MS;
  return r < 0 ? timestamp - (r + ORACLE_WINDOW_MS) : timestamp - r;
}

/** Whole nano-USD per token of a price per 1,000 tokens (0.0025 USD/1k → 2,500). */
function nanoPerToken(usdPer1k: number): number {
  return Math.round(usdPer1k * 1e6);
}

interface OpenRequest {
  tenant: string;
  model: string;
  start: number;
  promptTokens: number;
}

interface Emitted {
  subtask: number;
  line: string;
  ts: number;
  /** Highest event time the subtask emitted before this event. */
  maxTsBefore: number;
  /** Poll time (10 ms steps of processing time since startTime) at which a throttled source emits it. */
  emitTime: number;
}

const POLL_STEP_MS = 10;
const MAX_POLL = 100_000;

/** The generator's events, per source subtask in emission order, with what the lateness model needs. */
function generate(options: OracleOptions): { events: Emitted[]; watermarkAt: (subtask: number, emitTime: number) => number } {
  const p = options.sourceParallelism;
  if (!(Number.isInteger(p) && p > 0)) throw new RangeError(`sourceParallelism must be a whole number > 0, got ${p}.`);
  if (options.generator.events === undefined) throw new RangeError('The oracle needs a bounded run: set generator.events.');
  const config: GeneratorConfig = { ...options.generator, throttle: true };
  const bound = options.maxOutOfOrdernessMs ?? ORACLE_DEFAULT_MAX_OUT_OF_ORDERNESS_MS;
  const readers = Array.from({ length: p }, (_, i) => new GatewayEventReader(config, { subtaskIndex: i, parallelism: p, startTime: options.startTime, clock: new ManualClock(options.startTime) }));
  const maxTs = new Array<number>(p).fill(Number.NEGATIVE_INFINITY);
  const done = new Array<boolean>(p).fill(false);
  const events: Emitted[] = [];
  // Per subtask: (emitTime, max event time so far) steps, to look up its watermark at a poll time.
  const history: Array<Array<[number, number]>> = Array.from({ length: p }, () => []);
  const finishedAt = new Array<number>(p).fill(Number.POSITIVE_INFINITY);
  let now = options.startTime;
  while (done.includes(false)) {
    for (let s = 0; s < p; s++) {
      if (done[s]) continue;
      const status = readers[s].pollNext(now, MAX_POLL, (line, ts) => {
        events.push({ subtask: s, line, ts, maxTsBefore: maxTs[s], emitTime: now });
        if (ts > maxTs[s]) maxTs[s] = ts;
      });
      history[s].push([now, maxTs[s]]);
      if (status === 'END_OF_INPUT') {
        done[s] = true;
        finishedAt[s] = now;
      }
    }
    now += POLL_STEP_MS;
  }
  const watermarkAt = (s: number, t: number): number => {
    if (t >= finishedAt[s]) return Number.POSITIVE_INFINITY; // a finished source emits MAX_WATERMARK
    const h = history[s];
    let lo = 0;
    let hi = h.length - 1;
    let best = Number.NEGATIVE_INFINITY;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (h[mid][0] <= t) {
        best = h[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best - bound - 1;
  };
  return { events, watermarkAt };
}

/** Computes the expected totals of a bounded GatewayMeter run. */
export function computeExpectedTotals(options: OracleOptions): ExpectedTotals {
  const prices = options.prices ?? DEFAULT_PRICES;
  const bound = options.maxOutOfOrdernessMs ?? ORACLE_DEFAULT_MAX_OUT_OF_ORDERNESS_MS;
  const lateness = options.allowedLatenessMs ?? 0;
  const { events, watermarkAt } = generate(options);
  const open = new Map<string, OpenRequest & { subtask: number }>();
  const records: OracleRecord[] = [];
  const stats: ExpectedTotals['stats'] = { events: events.length, records: 0, completed: 0, abandoned: 0, completionsWithoutStart: 0, duplicateStarts: 0, uncertain: 0 };
  const cost = (model: string, prompt: number, completion: number): number => {
    const price = prices[model];
    return price ? prompt * nanoPerToken(price.inputPer1k) + completion * nanoPerToken(price.outputPer1k) : 0;
  };

  for (const e of events) {
    const event = JSON.parse(e.line) as { event_type: string; request_id: string; tenant_id: string; model: string; ts: number; payload: Record<string, unknown> };
    const id = event.request_id;
    if (event.event_type === 'RequestStarted') {
      if (open.has(id)) {
        stats.duplicateStarts++;
        continue;
      }
      open.set(id, { tenant: event.tenant_id, model: event.model, start: event.ts, promptTokens: Number(event.payload.prompt_tokens ?? 0), subtask: e.subtask });
    } else if (event.event_type === 'RequestCompleted') {
      const req = open.get(id);
      if (!req) {
        stats.completionsWithoutStart++;
        continue;
      }
      open.delete(id);
      const windowEnd = windowStartOf(e.ts) + ORACLE_WINDOW_MS;
      const ownWatermark = e.maxTsBefore - bound - 1;
      const certain = windowEnd - 1 + lateness > ownWatermark;
      const record: OracleRecord = {
        request_id: id,
        tenant_id: req.tenant,
        model: req.model,
        timestamp: e.ts,
        status: 'completed',
        nanoUsd: cost(req.model, req.promptTokens, Number(event.payload.completion_tokens ?? 0)),
        sourceSubtask: e.subtask,
        certain,
      };
      if (!certain) {
        let global = ownWatermark;
        for (let s = 0; s < options.sourceParallelism; s++) if (s !== e.subtask) global = Math.min(global, watermarkAt(s, e.emitTime));
        record.likelyDropped = windowEnd - 1 + lateness <= global;
      }
      records.push(record);
      stats.completed++;
    }
    // Other event types change fields of the open request that do not affect cost.
  }
  // The end of input (MAX_WATERMARK) fires every remaining abandon timer.
  for (const [id, req] of open) {
    records.push({
      request_id: id,
      tenant_id: req.tenant,
      model: req.model,
      timestamp: req.start + ORACLE_ABANDON_AFTER_MS,
      status: 'abandoned',
      nanoUsd: cost(req.model, req.promptTokens, 0),
      sourceSubtask: req.subtask,
      certain: true,
    });
    stats.abandoned++;
  }

  const cells = new Map<string, ExpectedCell>();
  for (const r of records) {
    const start = windowStartOf(r.timestamp);
    const key = cellKey(r.tenant_id, start);
    let cell = cells.get(key);
    if (!cell) {
      cell = { tenant_id: r.tenant_id, window_start: start, window_end: start + ORACLE_WINDOW_MS, certain: { nanoUsd: 0, requests: 0 }, uncertain: [] };
      cells.set(key, cell);
    }
    if (r.certain) {
      cell.certain.nanoUsd += r.nanoUsd;
      cell.certain.requests++;
    } else {
      cell.uncertain.push(r);
      stats.uncertain++;
    }
  }
  stats.records = records.length;
  return { cells, stats };
}
