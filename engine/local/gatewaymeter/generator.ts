import type { InputStatus, Source, SourceEmit, SourceReader, SourceReaderContext } from '../api/datastream.ts';
import { deriveSeed, mulberry32, randomUuid, type Random } from '../time/random.ts';
import type { EventType } from './events.ts';

/** A change of the traffic mix at a time after the job started (scenarios). */
export interface TrafficPhase {
  /** ms after the job started. */
  atMs: number;
  /** Replaces the tenant weights. */
  tenants?: Record<string, number>;
  /** Sets these tenants' shares (0..1) of all requests; the other tenants keep their relative weights. */
  share?: Record<string, number>;
}

export interface GeneratorConfig {
  /** Seed of all randomness: the same seed gives the same events. */
  seed: number;
  /** Events per second over all source subtasks. */
  rate: number;
  /** Total events over all source subtasks; undefined = unbounded. */
  events?: number;
  /** Follow `rate` in processing time (true), or produce as fast as the pipeline takes events (benchmarks). @default true */
  throttle?: boolean;
  /** Tenant weights. */
  tenants: Record<string, number>;
  /** Model weights. */
  models: Record<string, number>;
  phases?: TrafficPhase[];
  /** Events reach the source up to this much after their event time (out of order within the bound). @default 1000 */
  maxOutOfOrdernessMs?: number;
  /** Share of requests whose completion arrives late, beyond the bound. @default 0.002 */
  lateFraction?: number;
  /** How late, [min, max] ms. @default [20000, 150000] */
  lateDelayMs?: [number, number];
  /** Share of requests that start and never complete. @default 0.005 */
  abandonFraction?: number;
  /** Completions without a start, per request. @default 0.002 */
  orphanFraction?: number;
  /** TokenGenerated events per request, [min, max]. @default [2, 6] */
  tokenEvents?: [number, number];
  /** @default 0.25 */
  toolCallProbability?: number;
  /** @default 0.2 */
  agentStepProbability?: number;
  /** @default 0.05 */
  modelErrorProbability?: number;
  /** Request latency, [min, max] ms (log-uniform). @default [200, 8000] */
  latencyMs?: [number, number];
  /** @default [50, 4000] */
  promptTokens?: [number, number];
  /** @default [20, 1500] */
  completionTokens?: [number, number];
}

type Resolved = Required<Omit<GeneratorConfig, 'events' | 'phases'>> & Pick<GeneratorConfig, 'events'> & { phases: TrafficPhase[] };

export function resolveGeneratorConfig(config: GeneratorConfig): Resolved {
  const r: Resolved = {
    throttle: true,
    maxOutOfOrdernessMs: 1000,
    lateFraction: 0.002,
    lateDelayMs: [20_000, 150_000],
    abandonFraction: 0.005,
    orphanFraction: 0.002,
    tokenEvents: [2, 6],
    toolCallProbability: 0.25,
    agentStepProbability: 0.2,
    modelErrorProbability: 0.05,
    latencyMs: [200, 8000],
    promptTokens: [50, 4000],
    completionTokens: [20, 1500],
    phases: [],
    ...config,
  } as Resolved;
  if (!(r.rate > 0)) throw new RangeError(`The event rate must be positive, got ${r.rate}.`);
  if (r.events !== undefined && !(Number.isInteger(r.events) && r.events > 0)) throw new RangeError(`The event count must be a positive integer, got ${r.events}.`);
  if (Object.keys(r.tenants).length === 0 || Object.values(r.tenants).some((w) => !(w >= 0))) throw new RangeError('Tenant weights must be non-negative, with at least one tenant.');
  if (Object.keys(r.models).length === 0) throw new RangeError('At least one model is needed.');
  for (const p of [r.lateFraction, r.abandonFraction, r.orphanFraction, r.toolCallProbability, r.agentStepProbability, r.modelErrorProbability]) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`Probabilities must be within [0, 1], got ${p}.`);
  }
  return r;
}

/** Mean events per request slot: start + tokens + optional events + completion (unless abandoned) + orphans. */
export function meanEventsPerRequest(config: GeneratorConfig): number {
  const r = resolveGeneratorConfig(config);
  const tokens = (r.tokenEvents[0] + r.tokenEvents[1]) / 2;
  return 1 + tokens + r.toolCallProbability + r.agentStepProbability + r.modelErrorProbability + (1 - r.abandonFraction) + r.orphanFraction;
}

/** Requests started per second for a config (each yields one RequestRecord: completed or abandoned). */
export function requestsPerSecond(config: GeneratorConfig): number {
  return config.rate / meanEventsPerRequest(config);
}

/** Tenant weights in force `offsetMs` after the start. */
export function tenantWeightsAt(config: GeneratorConfig, offsetMs: number): Record<string, number> {
  let weights = { ...config.tenants };
  for (const phase of [...(config.phases ?? [])].sort((a, b) => a.atMs - b.atMs)) {
    if (phase.atMs > offsetMs) break;
    if (phase.tenants) weights = { ...phase.tenants };
    if (phase.share) weights = applyShares(weights, phase.share);
  }
  return weights;
}

/** Sets some tenants' shares of the total; the others are scaled to fill the rest, keeping their proportions. */
export function applyShares(weights: Record<string, number>, share: Record<string, number>): Record<string, number> {
  const fixed = Object.values(share).reduce((a, b) => a + b, 0);
  if (!(fixed >= 0 && fixed <= 1)) throw new RangeError(`Shares must add up to at most 1, got ${fixed}.`);
  const others = Object.entries(weights).filter(([t]) => !(t in share));
  const othersTotal = others.reduce((s, [, w]) => s + w, 0);
  const out: Record<string, number> = {};
  for (const [t, w] of others) out[t] = othersTotal > 0 ? (w / othersTotal) * (1 - fixed) : 0;
  for (const [t, s] of Object.entries(share)) out[t] = s;
  return out;
}

class WeightedPicker {
  private readonly names: string[];
  private readonly cumulative: number[];

  constructor(weights: Record<string, number>) {
    this.names = Object.keys(weights);
    let sum = 0;
    this.cumulative = this.names.map((n) => (sum += weights[n]));
    if (!(sum > 0)) throw new RangeError('Weights must not all be zero.');
  }

  pick(random: Random): string {
    const x = random() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.names[lo];
  }
}

const TYPE_STARTED = 0;
const TYPE_TOKEN = 1;
const TYPE_TOOL = 2;
const TYPE_STEP = 3;
const TYPE_ERROR = 4;
const TYPE_COMPLETED = 5;
const TYPE_NAMES: EventType[] = ['RequestStarted', 'TokenGenerated', 'ToolCalled', 'AgentStepCompleted', 'ModelError', 'RequestCompleted'];

/** Inserts an event keeping the arrays sorted by time (stable; a request has a handful of events). */
function insertByTime(types: number[], ts: number[], type: number, at: number): void {
  let i = ts.length;
  types.push(type);
  ts.push(at);
  while (i > 1 && ts[i - 1] > at) {
    types[i] = types[i - 1];
    ts[i] = ts[i - 1];
    i--;
  }
  types[i] = type;
  ts[i] = at;
}

/** A request in flight in the generator. */
interface PendingRequest {
  id: string;
  tenant: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  latency: number;
  status: string;
  types: number[];
  ts: number[];
  /** Index of the next event to emit: a request's events are queued and emitted in order. */
  next: number;
}

/** Emission times are grouped in buckets of this many ms (events of one request keep their order). */
const BUCKET_MS = 10;
const RING_BUCKETS = 1 << 14;

/** The events due in one bucket, in insertion order: one entry per event, the request it belongs to. */
interface Bucket {
  requests: PendingRequest[];
}

/**
 * One source subtask of the GatewayMeter generator: requests start at a steady rate (its share of
 * `rate / meanEventsPerRequest`), each spreads its events over its latency; events reach the reader a little after
 * their event time (bounded jitter, order kept within a request), a few completions much later (late data), some
 * requests never complete, some completions have no start. Deterministic from the seed and the subtask index.
 * Records are JSON lines with the event time as record timestamp (like a Kafka record's CreateTime).
 *
 * Pending events sit in a calendar queue of 10 ms buckets (O(1) per event), so the generator costs little next to
 * the pipeline it feeds.
 */
export class GatewayEventReader implements SourceReader<string> {
  private readonly random: Random;
  private readonly interval: number;
  private readonly startTime: number;
  private nextStartIndex = 0;
  private nextStartAt: number;
  private readonly stagger: number;
  private readonly ring: Bucket[] = new Array(RING_BUCKETS);
  private readonly overflow = new Map<number, Bucket>();
  /** Absolute bucket number being emitted, and the position in it. */
  private cursor: number;
  private cursorPos = 0;
  private pending = 0;
  private readonly modelPicker: WeightedPicker;
  private readonly phasePickers: Array<{ atMs: number; picker: WeightedPicker }>;
  private readonly budget: number | undefined;
  private scheduled = 0;
  private emitted = 0;
  private startsExhausted = false;
  private readonly c: Resolved;
  private readonly meanEvents: number;
  private lastNow = 0;

  constructor(config: GeneratorConfig, context: SourceReaderContext) {
    this.c = resolveGeneratorConfig(config);
    this.meanEvents = meanEventsPerRequest(config);
    this.random = mulberry32(deriveSeed(config.seed, `gatewaymeter-source-${context.subtaskIndex}`));
    const requestRate = requestsPerSecond(config) / context.parallelism;
    this.interval = 1000 / requestRate;
    this.startTime = context.startTime;
    // Subtasks start staggered so their requests interleave.
    this.stagger = (this.interval * context.subtaskIndex) / context.parallelism;
    this.nextStartAt = this.startTime + this.stagger;
    this.cursor = Math.floor(this.startTime / BUCKET_MS);
    for (let i = 0; i < RING_BUCKETS; i++) this.ring[i] = { requests: [] };
    this.modelPicker = new WeightedPicker(this.c.models);
    const offsets = [0, ...this.c.phases.map((p) => p.atMs)].sort((a, b) => a - b);
    this.phasePickers = [...new Set(offsets)].map((atMs) => ({ atMs, picker: new WeightedPicker(tenantWeightsAt(config, atMs)) }));
    if (this.c.events !== undefined) {
      const base = Math.floor(this.c.events / context.parallelism);
      this.budget = base + (context.subtaskIndex < this.c.events % context.parallelism ? 1 : 0);
      if (this.budget === 0) this.startsExhausted = true;
    }
  }

  /** Events emitted so far. */
  get count(): number {
    return this.emitted;
  }

  metrics(): Record<string, number> {
    return { pendingRecords: this.pendingRecords(this.lastNow) };
  }

  /** Events due but not yet read (the lag, as a Kafka source reports it), estimated from the start schedule. */
  pendingRecords(now: number): number {
    if (!this.c.throttle || this.startsExhausted) return 0;
    const dueStarts = Math.max(0, Math.floor((now - this.nextStartAt) / this.interval) + 1);
    return Math.round(dueStarts * this.meanEvents);
  }

  private bucketOf(index: number): Bucket | undefined {
    if (index - this.cursor < RING_BUCKETS) return this.ring[index & (RING_BUCKETS - 1)];
    return this.overflow.get(index);
  }

  private enqueue(request: PendingRequest, emitAt: number): void {
    let index = Math.floor(emitAt / BUCKET_MS);
    if (index < this.cursor) index = this.cursor;
    let bucket: Bucket;
    if (index - this.cursor < RING_BUCKETS) bucket = this.ring[index & (RING_BUCKETS - 1)];
    else {
      bucket = this.overflow.get(index) ?? { requests: [] };
      this.overflow.set(index, bucket);
    }
    bucket.requests.push(request);
    this.pending++;
  }

  pollNext(now: number, max: number, emit: (value: string, timestamp: number) => void): InputStatus {
    this.lastNow = now;
    return this.advance(this.c.throttle ? now : Number.POSITIVE_INFINITY, max, emit);
  }

  /**
   * Moves past the next `count` events without emitting them (restoring a position: the stream is a pure function
   * of seed, split and start time, whatever the poll times). Returns how many were skipped (fewer at the end).
   */
  skip(count: number): number {
    const before = this.emitted;
    if (count > 0) this.advance(Number.POSITIVE_INFINITY, count, null);
    return this.emitted - before;
  }

  /** Whether every event of a bounded stream was emitted. */
  get ended(): boolean {
    return this.pending === 0 && this.startsExhausted;
  }

  private advance(horizon: number, max: number, emit: ((value: string, timestamp: number) => void) | null): InputStatus {
    let n = 0;
    for (;;) {
      const bucketEnd = (this.cursor + 1) * BUCKET_MS;
      // Requests starting before the end of the current bucket go in first: their events may land in it.
      while (!this.startsExhausted && this.nextStartAt < bucketEnd && this.nextStartAt <= horizon) this.startRequest(this.nextStartAt);
      if (this.cursor * BUCKET_MS > horizon) break;
      const bucket = this.ring[this.cursor & (RING_BUCKETS - 1)];
      if (this.cursorPos < bucket.requests.length) {
        if (n >= max) return 'MORE_AVAILABLE';
        this.emitEvent(bucket.requests[this.cursorPos], emit);
        this.cursorPos++;
        n++;
        continue;
      }
      // The bucket is done: move on once its time has fully passed (or at once when not throttled).
      if (bucketEnd > horizon) break;
      bucket.requests.length = 0;
      this.cursorPos = 0;
      if (this.pending === 0 && this.startsExhausted) return 'END_OF_INPUT';
      this.cursor++;
      const spilled = this.overflow.get(this.cursor + RING_BUCKETS - 1);
      if (spilled) {
        this.overflow.delete(this.cursor + RING_BUCKETS - 1);
        const slot = this.ring[(this.cursor + RING_BUCKETS - 1) & (RING_BUCKETS - 1)];
        for (const r of spilled.requests) slot.requests.push(r);
      }
      if (this.pending === 0 && !this.startsExhausted && this.nextStartAt >= (this.cursor + 1) * BUCKET_MS) {
        // Nothing pending: jump straight to the bucket of the next start.
        this.cursor = Math.max(this.cursor, Math.floor(this.nextStartAt / BUCKET_MS));
      }
    }
    if (this.pending === 0 && this.startsExhausted) return 'END_OF_INPUT';
    return 'NOTHING_AVAILABLE';
  }

  private emitEvent(request: PendingRequest, emit: ((value: string, timestamp: number) => void) | null): void {
    const i = request.next++;
    const type = request.types[i];
    const ts = request.ts[i];
    if (emit === null) {
      this.pending--;
      this.emitted++;
      return;
    }
    let payload: string;
    if (type === TYPE_STARTED) payload = `{"prompt_tokens":${request.promptTokens}}`;
    else if (type === TYPE_COMPLETED) {
      payload = `{"latency_ms":${request.latency},"completion_tokens":${request.completionTokens},"status":"${request.status}"}`;
    } else payload = '{}';
    this.pending--;
    this.emitted++;
    emit(
      `{"event_type":"${TYPE_NAMES[type]}","request_id":"${request.id}","tenant_id":"${request.tenant}","model":"${request.model}","ts":${ts},"payload":${payload}}`,
      ts,
    );
  }

  private weightsAt(t: number): WeightedPicker {
    const offset = t - this.startTime;
    let picker = this.phasePickers[0].picker;
    for (const p of this.phasePickers) if (p.atMs <= offset) picker = p.picker;
    return picker;
  }

  private between(range: [number, number]): number {
    return range[0] + Math.floor(this.random() * (range[1] - range[0] + 1));
  }

  private startRequest(t0: number): void {
    const rnd = this.random;
    const c = this.c;
    this.nextStartIndex++;
    this.nextStartAt = this.startTime + this.stagger + this.nextStartIndex * this.interval;
    const start = Math.floor(t0);
    const orphan = rnd() < c.orphanFraction;
    const abandoned = rnd() < c.abandonFraction;
    const latency = Math.round(Math.exp(Math.log(c.latencyMs[0]) + rnd() * (Math.log(c.latencyMs[1]) - Math.log(c.latencyMs[0]))));
    const tokens = this.between(c.tokenEvents);
    const error = rnd() < c.modelErrorProbability;
    const tool = rnd() < c.toolCallProbability;
    const step = rnd() < c.agentStepProbability;
    // Events in event-time order (insertion sort: a handful of events): start, tokens spread over the latency,
    // tool call, agent step and error slotted in by time, completion last.
    let types: number[] = [TYPE_STARTED];
    let ts: number[] = [start];
    for (let k = 1; k <= tokens; k++) insertByTime(types, ts, TYPE_TOKEN, start + Math.floor((latency * k) / (tokens + 1)));
    if (tool) insertByTime(types, ts, TYPE_TOOL, start + Math.floor(latency * rnd()));
    if (step) insertByTime(types, ts, TYPE_STEP, start + Math.floor(latency * rnd()));
    if (error) insertByTime(types, ts, TYPE_ERROR, start + Math.floor(latency * 0.95));
    if (!abandoned) {
      types.push(TYPE_COMPLETED);
      ts.push(start + latency);
    }
    if (this.budget !== undefined) {
      const remaining = this.budget - this.scheduled - (orphan ? 1 : 0);
      if (types.length >= remaining) {
        // The last request fits the event budget exactly: trim its middle, keep the completion if there is room.
        this.startsExhausted = true;
        if (remaining <= 0) {
          types = [];
          ts = [];
        } else if (remaining === 1) {
          types = [TYPE_STARTED];
          ts = [start];
        } else if (types.length > remaining) {
          const keepLast = types[types.length - 1] === TYPE_COMPLETED;
          const headCount = keepLast ? remaining - 1 : remaining;
          const lastTs = ts[ts.length - 1];
          types = types.slice(0, headCount);
          ts = ts.slice(0, headCount);
          if (keepLast) {
            types.push(TYPE_COMPLETED);
            ts.push(lastTs);
          }
        }
      }
    }
    if (types.length > 0) {
      const request: PendingRequest = {
        id: randomUuid(rnd),
        tenant: this.weightsAt(start).pick(rnd),
        model: this.modelPicker.pick(rnd),
        promptTokens: this.between(c.promptTokens),
        completionTokens: this.between(c.completionTokens),
        latency,
        status: error ? 'error' : 'ok',
        types,
        ts,
        next: 0,
      };
      const late = types[types.length - 1] === TYPE_COMPLETED && rnd() < c.lateFraction;
      let last = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < ts.length; i++) {
        let at = ts[i] + rnd() * c.maxOutOfOrdernessMs;
        if (late && i === ts.length - 1) at = ts[i] + this.between(c.lateDelayMs);
        if (at < last) at = last;
        last = at;
        this.enqueue(request, at);
      }
      this.scheduled += types.length;
    }
    if (orphan && (this.budget === undefined || this.scheduled < this.budget)) {
      const at = start + Math.floor(rnd() * 1000);
      const request: PendingRequest = {
        id: randomUuid(rnd),
        tenant: this.weightsAt(start).pick(rnd),
        model: this.modelPicker.pick(rnd),
        promptTokens: 0,
        completionTokens: this.between(c.completionTokens),
        latency: this.between(c.latencyMs),
        status: 'ok',
        types: [TYPE_COMPLETED],
        ts: [at],
        next: 0,
      };
      this.enqueue(request, at + rnd() * c.maxOutOfOrdernessMs);
      this.scheduled++;
    }
    if (this.budget !== undefined && this.scheduled >= this.budget) this.startsExhausted = true;
  }
}

/** The position of one split of the GatewayMeter stream: the source's operator state (`SourceReaderState`). */
export interface GatewaySplitState {
  split: number;
  /** Splits of the stream: the source parallelism of the job's first run. */
  numSplits: number;
  /** The first run's start: every split's schedule is relative to it. */
  startTime: number;
  /** Events of this split emitted so far. */
  emitted: number;
}

function isSplitState(v: unknown): v is GatewaySplitState {
  const s = v as Record<string, unknown>;
  return (
    typeof s === 'object' &&
    s !== null &&
    Number.isInteger(s.split) &&
    Number.isInteger(s.numSplits) &&
    (s.numSplits as number) > 0 &&
    (s.split as number) >= 0 &&
    (s.split as number) < (s.numSplits as number) &&
    Number.isFinite(s.startTime) &&
    Number.isInteger(s.emitted) &&
    (s.emitted as number) >= 0
  );
}

/**
 * One source subtask of the GatewayMeter source: it reads the splits it was given, each a {@link GatewayEventReader}
 * of `(seed, split, numSplits, startTime)`, polled in turn. A fresh job gives subtask i split i of `parallelism`
 * splits; a restored job gives each subtask the splits Flink's SPLIT_DISTRIBUTE redistribution assigns it, each
 * fast-forwarded to its position, so the job continues the same deterministic stream at any parallelism.
 */
export class GatewaySplitReader implements SourceReader<string> {
  private readonly splits: Array<{ state: GatewaySplitState; reader: GatewayEventReader; ended: boolean }> = [];
  private turn = 0;
  private active: number[];
  private readonly bounded: boolean;
  /** Per split, the task's emit function with the split attached (made once per emit function). */
  private emitOf: SourceEmit<string> | undefined;
  private wrapped: Array<(value: string, timestamp: number) => void> = [];

  constructor(config: GeneratorConfig, context: SourceReaderContext) {
    this.bounded = config.events !== undefined;
    const states: GatewaySplitState[] = context.restoredState
      ? context.restoredState.map((raw) => {
          if (!isSplitState(raw)) throw new Error(`The source state holds an invalid split ${JSON.stringify(raw)}: it was not written by the GatewayMeter source.`);
          return { ...raw };
        })
      : [{ split: context.subtaskIndex, numSplits: context.parallelism, startTime: context.startTime, emitted: 0 }];
    for (const state of states) {
      const reader = new GatewayEventReader(config, { subtaskIndex: state.split, parallelism: state.numSplits, startTime: state.startTime, clock: context.clock });
      const skipped = reader.skip(state.emitted);
      if (skipped !== state.emitted) {
        throw new Error(`Split ${state.split}/${state.numSplits} has only ${skipped} events, the state says ${state.emitted} were read: restore it with the same --seed, --events and traffic.`);
      }
      this.splits.push({ state, reader, ended: reader.ended });
    }
    this.active = this.splits.filter((s) => !s.ended).map((s) => s.state.split);
  }

  pollNext(now: number, max: number, emit: SourceEmit<string>): InputStatus {
    const n = this.splits.length;
    if (emit !== this.emitOf) {
      this.emitOf = emit;
      this.wrapped = this.splits.map((s) => {
        const split = s.state.split;
        return (value: string, ts: number) => emit(value, ts, split);
      });
    }
    let left = max;
    let more = false;
    let changed = false;
    for (let k = 0; k < n && left > 0; k++) {
      const index = (this.turn + k) % n;
      const s = this.splits[index];
      if (s.ended) continue;
      const before = s.reader.count;
      const status = s.reader.pollNext(now, left, this.wrapped[index]);
      const read = s.reader.count - before;
      s.state.emitted += read;
      left -= read;
      if (status === 'END_OF_INPUT') {
        s.ended = true;
        changed = true;
      } else if (status === 'MORE_AVAILABLE') more = true;
    }
    this.turn = n > 0 ? (this.turn + 1) % n : 0;
    if (changed) this.active = this.splits.filter((s) => !s.ended).map((s) => s.state.split);
    if (this.active.length === 0 && this.bounded) return 'END_OF_INPUT';
    return more || left === 0 ? 'MORE_AVAILABLE' : 'NOTHING_AVAILABLE';
  }

  activeSplits(): readonly number[] {
    return this.active;
  }

  snapshotState(): GatewaySplitState[] {
    return this.splits.map((s) => ({ ...s.state }));
  }

  metrics(): Record<string, number> {
    let pending = 0;
    for (const s of this.splits) if (!s.ended) pending += s.reader.metrics().pendingRecords;
    return { pendingRecords: pending };
  }

  /** Events emitted by this reader's splits in total (restored positions included). */
  get position(): number {
    return this.splits.reduce((sum, s) => sum + s.state.emitted, 0);
  }
}

/** The GatewayMeter generator as a split-based source (FLIP-27 style: splits and their positions are state). */
export class GatewayEventSource implements Source<string> {
  constructor(readonly config: GeneratorConfig) {
    resolveGeneratorConfig(config);
  }

  get bounded(): boolean {
    return this.config.events !== undefined;
  }

  createReader(context: SourceReaderContext): GatewaySplitReader {
    return new GatewaySplitReader(this.config, context);
  }
}
