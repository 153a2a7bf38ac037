import { StreamExecutionEnvironment, type SingleOutputStream } from '../api/datastream.ts';
import type { Collector, KeyedProcessContext, KeyedProcessFunction, ProcessFunction, RuntimeContext } from '../api/functions.ts';
import { OutputTag } from '../api/operator.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import { TumblingEventTimeWindows, type TimeWindow } from '../api/windows.ts';
import { crc32Utf8 } from '../../analysis/key-groups/murmur.ts';
import type { Counter } from '../metrics/views.ts';
import type { ValueState, AggregateFunction } from '../state/keyed-state.ts';
import type { Sink, Source, StreamGraph } from '../api/datastream.ts';
import {
  eventSize,
  parseEvent,
  rawEventSize,
  requestRecordSize,
  tenantCostPartSize,
  tenantCostSize,
  type GatewayEvent,
  type RequestRecord,
  type TenantCost,
  type TenantCostPart,
} from './events.ts';
import { GatewayEventSource, type GeneratorConfig } from './generator.ts';
import { failedLoginsJob, type FailedLoginsConfig } from '../logins/failed-logins-job.ts';
import { DEFAULT_PRICES, nanoUsdToUsd, requestCostNanoUsd, type ModelPrice } from './prices.ts';

/** How long `assemble` waits for a completion before emitting the request as abandoned (event time). */
export const ABANDON_AFTER_MS = 5 * 60 * 1000;
export const WINDOW_MS = 60 * 1000;
/** Stage B of the salted pipeline accepts parts this late. */
export const SALTED_ALLOWED_LATENESS_MS = 2 * 60 * 1000;
/** The salted pipeline's buckets unless the job's `saltBuckets` says otherwise. */
export const SALT_BUCKETS = 8;

/** The built-in jobs, as listed to the console (also as "jars" in part 2). */
export const BUILT_IN_JOBS = ['gatewaymeter', 'gatewaymeter-salted', 'failed-logins'] as const;
export type BuiltInJob = (typeof BUILT_IN_JOBS)[number];

export interface GatewayMeterOptions {
  /** Default parallelism of every operator. */
  parallelism: number;
  /** Per-uid parallelism overrides (e.g. `{ "tenant-cost": 32 }`). */
  operatorParallelism?: Record<string, number>;
  /** @default 128 */
  maxParallelism?: number;
  generator: GeneratorConfig;
  /** Reads the raw events from here instead of the generator (the Kafka source of `--kafka-brokers`). */
  source?: Source<string>;
  sink: Sink<TenantCost>;
  /** Watermarks: bounded out-of-orderness and source idleness. @default 2000 ms / 30000 ms */
  maxOutOfOrdernessMs?: number;
  idleTimeoutMs?: number;
  prices?: Readonly<Record<string, ModelPrice>>;
  /** `failed-logins` only: its state variant and login traffic (a scenario's `logins`). */
  logins?: FailedLoginsConfig;
  /** `gatewaymeter-salted` only: the salt buckets of stage A (2..1024). @default SALT_BUCKETS */
  saltBuckets?: number;
}

/** `parse`: JSON line → GatewayEvent; invalid lines are counted (`numParseErrors`) and dropped. */
export function parseFunction(): ProcessFunction<string, GatewayEvent> {
  return {
    open(this: { errors: Counter }, ctx: RuntimeContext) {
      this.errors = ctx.counter('numParseErrors');
    },
    processElement(this: { errors: Counter }, line: string, _ctx, out: Collector<GatewayEvent>) {
      const event = parseEvent(line);
      if (event) out.collect(event);
      else this.errors.inc();
    },
  } as ProcessFunction<string, GatewayEvent>;
}

/** The `open` state of a request in `assemble`. */
export interface OpenRequest {
  tenant_id: string;
  model: string;
  start_ts: number;
  prompt_tokens: number;
  tool_calls: number;
  agent_steps: number;
  errors: number;
}

interface AssembleFunction extends KeyedProcessFunction<string, GatewayEvent, RequestRecord> {
  open: (ctx: RuntimeContext) => void;
  state: ValueState<OpenRequest>;
  completionsWithoutStart: Counter;
  eventsWithoutStart: Counter;
  duplicateStarts: Counter;
  abandoned: Counter;
  names: Map<string, string>;
  intern(s: string): string;
}

/**
 * `assemble`, keyed by request_id: keyed ValueState `open` per request; RequestCompleted emits a RequestRecord and
 * clears the state; a completion without a start is counted and dropped; an event-time timer emits
 * `status = "abandoned"` 5 minutes after a start that never completes.
 */
export function assembleFunction(): KeyedProcessFunction<string, GatewayEvent, RequestRecord> {
  const fn: AssembleFunction = {
    state: undefined as unknown as ValueState<OpenRequest>,
    completionsWithoutStart: undefined as unknown as Counter,
    eventsWithoutStart: undefined as unknown as Counter,
    duplicateStarts: undefined as unknown as Counter,
    abandoned: undefined as unknown as Counter,
    names: undefined as unknown as Map<string, string>,
    open(this: AssembleFunction, ctx: RuntimeContext) {
      this.state = ctx.getState<OpenRequest>({ name: 'open' });
      this.completionsWithoutStart = ctx.counter('completionsWithoutStart');
      this.eventsWithoutStart = ctx.counter('eventsWithoutStart');
      this.duplicateStarts = ctx.counter('duplicateStarts');
      this.abandoned = ctx.counter('abandonedRequests');
      this.names = new Map();
    },
    intern(this: AssembleFunction, s: string): string {
      const known = this.names.get(s);
      if (known !== undefined) return known;
      this.names.set(s, s);
      return s;
    },
    processElement(this: AssembleFunction, e: GatewayEvent, ctx: KeyedProcessContext<string>, out: Collector<RequestRecord>) {
      const open = this.state.value();
      switch (e.event_type) {
        case 'RequestStarted':
          if (open !== undefined) {
            this.duplicateStarts.inc();
            return;
          }
          this.state.update({
            tenant_id: this.intern(e.tenant_id),
            model: this.intern(e.model),
            start_ts: e.ts,
            prompt_tokens: e.payload.prompt_tokens ?? 0,
            tool_calls: 0,
            agent_steps: 0,
            errors: 0,
          });
          ctx.timerService.registerEventTimeTimer(e.ts + ABANDON_AFTER_MS);
          return;
        case 'RequestCompleted': {
          if (open === undefined) {
            this.completionsWithoutStart.inc();
            return;
          }
          const status = e.payload.status === 'error' || open.errors > 0 ? 'error' : 'ok';
          out.collect({
            request_id: e.request_id,
            tenant_id: open.tenant_id,
            model: open.model,
            start_ts: open.start_ts,
            end_ts: e.ts,
            latency_ms: e.payload.latency_ms ?? e.ts - open.start_ts,
            prompt_tokens: open.prompt_tokens,
            completion_tokens: e.payload.completion_tokens ?? 0,
            status,
            tool_calls: open.tool_calls,
            agent_steps: open.agent_steps,
            errors: open.errors,
          });
          this.state.clear();
          ctx.timerService.deleteEventTimeTimer(open.start_ts + ABANDON_AFTER_MS);
          return;
        }
        default:
          if (open === undefined) {
            this.eventsWithoutStart.inc();
            return;
          }
          if (e.event_type === 'ToolCalled') open.tool_calls++;
          else if (e.event_type === 'AgentStepCompleted') open.agent_steps++;
          else if (e.event_type === 'ModelError') open.errors++;
          this.state.update(open);
      }
    },
    onTimer(this: AssembleFunction, timestamp: number, ctx: KeyedProcessContext<string>, out: Collector<RequestRecord>) {
      const open = this.state.value();
      if (open === undefined || timestamp !== open.start_ts + ABANDON_AFTER_MS) return;
      this.abandoned.inc();
      out.collect({
        request_id: String(ctx.currentKey),
        tenant_id: open.tenant_id,
        model: open.model,
        start_ts: open.start_ts,
        end_ts: timestamp,
        latency_ms: timestamp - open.start_ts,
        prompt_tokens: open.prompt_tokens,
        completion_tokens: 0,
        status: 'abandoned',
        tool_calls: open.tool_calls,
        agent_steps: open.agent_steps,
        errors: open.errors,
      });
      this.state.clear();
    },
  };
  return fn;
}

interface CostAccumulator {
  nano: number;
  requests: number;
}

/** USD per tenant window (nano-USD integers inside). */
export function usdAggregate(prices: Readonly<Record<string, ModelPrice>>): AggregateFunction<RequestRecord, CostAccumulator, CostAccumulator> {
  return {
    createAccumulator: () => ({ nano: 0, requests: 0 }),
    add: (r, acc) => {
      acc.nano += requestCostNanoUsd(r, prices);
      acc.requests++;
      return acc;
    },
    getResult: (acc) => acc,
    merge: (a, b) => ({ nano: a.nano + b.nano, requests: a.requests + b.requests }),
  };
}

function emitTenantCost(tenant: string, window: TimeWindow, acc: CostAccumulator, out: Collector<TenantCost>): void {
  out.collect({ tenant_id: tenant, window_start: window.start, window_end: window.end, usd: nanoUsdToUsd(acc.nano), requests: acc.requests });
}

function sourceAndAssemble(options: GatewayMeterOptions): { env: StreamExecutionEnvironment; records: SingleOutputStream<RequestRecord>; p: (uid: string) => number } {
  const p = (uid: string) => options.operatorParallelism?.[uid] ?? options.parallelism;
  const env = new StreamExecutionEnvironment({ parallelism: options.parallelism, maxParallelism: options.maxParallelism ?? 128 });
  const records = env
    .fromSource(
      options.source ?? new GatewayEventSource(options.generator),
      forBoundedOutOfOrderness(options.maxOutOfOrdernessMs ?? 2000, options.idleTimeoutMs ?? 30_000),
      'gateway-events',
      rawEventSize,
    )
    .uid('gateway-events')
    .setParallelism(p('gateway-events'))
    .process(parseFunction(), eventSize, 'parse')
    .uid('parse')
    .setParallelism(p('parse'))
    .keyBy((e: GatewayEvent) => e.request_id)
    .process(assembleFunction(), requestRecordSize, 'assemble')
    .uid('assemble')
    .setParallelism(p('assemble'));
  return { env, records, p };
}

/**
 * The common end of both pipelines: the `tenant-cost` operator (its uid is what savepoints match) and the sink,
 * which follows tenant-cost's parallelism unless set on its own, so the two chain into one task.
 */
function tenantCostToSink(costs: SingleOutputStream<TenantCost>, options: GatewayMeterOptions, p: (uid: string) => number): void {
  costs
    .uid('tenant-cost')
    .name('tenant-cost')
    .setParallelism(p('tenant-cost'))
    .sinkTo(options.sink, 'usd-sink')
    .uid('usd-sink')
    .setParallelism(p('usd-sink') === options.parallelism ? p('tenant-cost') : p('usd-sink'));
}

/**
 * `gatewaymeter`: source → parse → keyBy(request_id) → assemble → keyBy(tenant_id) → tenant-cost
 * (1-minute tumbling event-time windows of USD per tenant) → sink.
 */
export function gatewayMeterJob(options: GatewayMeterOptions): StreamGraph {
  const prices = options.prices ?? DEFAULT_PRICES;
  const { env, records, p } = sourceAndAssemble(options);
  const costs = records
    .keyBy((r: RequestRecord) => r.tenant_id)
    .window(TumblingEventTimeWindows.of(WINDOW_MS))
    .aggregate(usdAggregate(prices), { process: emitTenantCost }, tenantCostSize);
  tenantCostToSink(costs, options, p);
  return env.getStreamGraph('gatewaymeter');
}

/** The salt of the two-stage aggregation: `tenant#(crc32(request_id) % buckets)`. */
export function saltedKey(record: Pick<RequestRecord, 'tenant_id' | 'request_id'>, buckets = SALT_BUCKETS): string {
  return `${record.tenant_id}#${crc32Utf8(record.request_id) % buckets}`;
}

/**
 * `gatewaymeter-salted`: the two-stage aggregation. Stage A (`tenant-cost-partial`) keyed by the salted key (`saltBuckets`),
 * 1-minute windows, no allowed lateness, late records to a side output as one-request parts (`late-parts`);
 * stage B (`tenant-cost`) keyed by tenant sums the parts, with 2 minutes of allowed lateness.
 */
export function gatewayMeterSaltedJob(options: GatewayMeterOptions): StreamGraph {
  const prices = options.prices ?? DEFAULT_PRICES;
  const buckets = options.saltBuckets ?? SALT_BUCKETS;
  if (!(Number.isInteger(buckets) && buckets >= 2 && buckets <= 1024)) throw new RangeError(`The salt buckets must be a whole number from 2 to 1024, got ${buckets}.`);
  const { env, records, p } = sourceAndAssemble(options);
  const lateRecords = new OutputTag<RequestRecord>('late-records');
  const partial = records
    .keyBy((r: RequestRecord) => saltedKey(r, buckets))
    .window(TumblingEventTimeWindows.of(WINDOW_MS))
    .sideOutputLateData(lateRecords)
    .aggregate(
      usdAggregate(prices),
      {
        process: (_key: string, _w: TimeWindow, acc: CostAccumulator, out: Collector<TenantCostPart>) => {
          out.collect({ tenant_id: _key.slice(0, _key.lastIndexOf('#')), nano_usd: acc.nano, requests: acc.requests });
        },
      },
      tenantCostPartSize,
    )
    .uid('tenant-cost-partial')
    .name('tenant-cost-partial')
    .setParallelism(p('tenant-cost-partial'));
  const lateParts = partial
    .getSideOutput(lateRecords, requestRecordSize)
    .map((r: RequestRecord): TenantCostPart => ({ tenant_id: r.tenant_id, nano_usd: requestCostNanoUsd(r, prices), requests: 1 }), tenantCostPartSize, 'late-parts')
    .uid('late-parts')
    .setParallelism(p('tenant-cost-partial'));
  const costs = partial
    .union(lateParts)
    .keyBy((part: TenantCostPart) => part.tenant_id)
    .window(TumblingEventTimeWindows.of(WINDOW_MS))
    .allowedLateness(SALTED_ALLOWED_LATENESS_MS)
    .aggregate(
      {
        createAccumulator: (): CostAccumulator => ({ nano: 0, requests: 0 }),
        add: (part: TenantCostPart, acc: CostAccumulator) => {
          acc.nano += part.nano_usd;
          acc.requests += part.requests;
          return acc;
        },
        getResult: (acc: CostAccumulator) => acc,
        merge: (a: CostAccumulator, b: CostAccumulator) => ({ nano: a.nano + b.nano, requests: a.requests + b.requests }),
      },
      { process: emitTenantCost },
      tenantCostSize,
    );
  tenantCostToSink(costs, options, p);
  return env.getStreamGraph('gatewaymeter-salted');
}

export function builtInJob(name: BuiltInJob, options: GatewayMeterOptions): StreamGraph {
  if (name === 'failed-logins') {
    if (!options.logins) throw new Error('The failed-logins job needs its login traffic: run it with a scenario that has a `logins` section (state-whale, state-no-ttl, ...).');
    const { parallelism, operatorParallelism, maxParallelism } = options;
    return failedLoginsJob({ parallelism, operatorParallelism, maxParallelism, seed: options.generator.seed, logins: options.logins });
  }
  return name === 'gatewaymeter' ? gatewayMeterJob(options) : gatewayMeterSaltedJob(options);
}
