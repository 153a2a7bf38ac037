import { StreamExecutionEnvironment, type Sink, type StreamGraph } from '../api/datastream.ts';
import type { BroadcastProcessFunction, BroadcastStateDescriptor } from '../api/broadcast.ts';
import type { Collector, KeyedProcessFunction, RuntimeContext } from '../api/functions.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import type { ListState, ValueState } from '../state/keyed-state.ts';
import { blocklistSource, LoginEventSource, loginEventSize, type BlocklistEntry, type LoginEvent, type LoginTraffic } from './login-events.ts';

/**
 * `failed-logins`, the stateful-processing chapter's job: login events keyed by `user_id`, a ValueState counter of
 * failed logins per user, incremented on a failure and cleared on a success, and an alert on the third failure in a
 * row. Its variants reproduce the chapter's four suspects: a whale user (A), no TTL over a key space that keeps growing
 * (B), a ListState of the raw events where the counter would do (C), a broadcast blocklist on every subtask (D), and
 * the TTL that bounds B (the control).
 */

/** Failures in a row that raise an alert. */
export const ALERT_AFTER_FAILURES = 3;
/** The counter's state (a ValueState<number>). */
export const COUNTER_STATE = 'failed-logins';
/** The raw-list variant's state (a ListState<LoginEvent>). */
export const RAW_LIST_STATE = 'failed-attempts';
/** The blocklist's broadcast state (user_id → entry). */
export const BLOCKLIST_STATE: BroadcastStateDescriptor = { name: 'blocklist' };

export interface FailedLoginsConfig {
  /** `counter`: ValueState<number> (the chapter's job); `raw-list`: ListState of the raw failed login events. */
  state: 'counter' | 'raw-list';
  /** State TTL (processing time, OnCreateAndWrite, never return expired, incremental cleanup): none when undefined. */
  ttlMs?: number;
  traffic: LoginTraffic;
}

export interface LoginAlert {
  user_id: string;
  failures: number;
  ts: number;
}

export interface FailedLoginsOptions {
  parallelism: number;
  operatorParallelism?: Record<string, number>;
  maxParallelism?: number;
  seed: number;
  logins: FailedLoginsConfig;
}

interface CounterFunction extends KeyedProcessFunction<string, LoginEvent, LoginAlert> {
  failures: ValueState<number>;
}

/** The chapter's function: a counter per user_id, cleared on success. */
export function failedLoginCounter(ttlMs: number | undefined): KeyedProcessFunction<string, LoginEvent, LoginAlert> {
  const fn: CounterFunction = {
    failures: undefined as unknown as ValueState<number>,
    open(this: CounterFunction, ctx: RuntimeContext) {
      this.failures = ctx.getState<number>({ name: COUNTER_STATE, ...(ttlMs !== undefined && { ttl: { ttlMs } }) });
    },
    processElement(this: CounterFunction, e: LoginEvent, _ctx, out: Collector<LoginAlert>) {
      if (e.ok) {
        this.failures.clear();
        return;
      }
      const n = (this.failures.value() ?? 0) + 1;
      this.failures.update(n);
      if (n === ALERT_AFTER_FAILURES) out.collect({ user_id: e.user_id, failures: n, ts: e.ts });
    },
  };
  return fn;
}

interface RawListFunction extends KeyedProcessFunction<string, LoginEvent, LoginAlert> {
  attempts: ListState<LoginEvent>;
}

/** The same alert from a list of every raw failed login event (what the chapter warns against), cleared on success. */
export function failedLoginRawList(ttlMs: number | undefined): KeyedProcessFunction<string, LoginEvent, LoginAlert> {
  const fn: RawListFunction = {
    attempts: undefined as unknown as ListState<LoginEvent>,
    open(this: RawListFunction, ctx: RuntimeContext) {
      this.attempts = ctx.getListState<LoginEvent>({ name: RAW_LIST_STATE, ...(ttlMs !== undefined && { ttl: { ttlMs } }) });
    },
    processElement(this: RawListFunction, e: LoginEvent, _ctx, out: Collector<LoginAlert>) {
      if (e.ok) {
        this.attempts.clear();
        return;
      }
      this.attempts.add(e);
      const n = this.attempts.get().length;
      if (n === ALERT_AFTER_FAILURES) out.collect({ user_id: e.user_id, failures: n, ts: e.ts });
    },
  };
  return fn;
}

/** Drops the logins of blocked users; the blocklist arrives on the broadcast side (the same table on every subtask). */
export function blocklistFilter(): BroadcastProcessFunction<LoginEvent, BlocklistEntry, LoginEvent> {
  return {
    processElement(e, ctx, out) {
      if (!ctx.getBroadcastState<string, BlocklistEntry>(BLOCKLIST_STATE).contains(e.user_id)) out.collect(e);
    },
    processBroadcastElement(entry, ctx) {
      ctx.getBroadcastState<string, BlocklistEntry>(BLOCKLIST_STATE).put(entry.user_id, entry);
    },
  };
}

/** Alerts go nowhere: the job is about its state. */
const discardingSink: Sink<LoginAlert> = { createWriter: () => ({ write: () => {} }) };

/**
 * Source: logins → [blocklist-filter ← broadcast(Source: blocklist)] → keyBy(user_id) → failed-logins → Sink: alerts.
 */
export function failedLoginsJob(options: FailedLoginsOptions): StreamGraph {
  const p = (uid: string) => options.operatorParallelism?.[uid] ?? options.parallelism;
  const { logins } = options;
  const env = new StreamExecutionEnvironment({ parallelism: options.parallelism, maxParallelism: options.maxParallelism ?? 128 });
  let events = env
    .fromSource(new LoginEventSource(logins.traffic, options.seed), forBoundedOutOfOrderness(0, 30_000), 'logins', loginEventSize)
    .uid('logins')
    .setParallelism(p('logins'));
  if (logins.traffic.blocklist) {
    const blocklist = env
      .fromSource(blocklistSource(logins.traffic.blocklist), forBoundedOutOfOrderness(0, 30_000), 'blocklist', loginEventSize)
      .uid('blocklist')
      .setParallelism(1)
      .broadcast();
    events = events.connect(blocklist).process(blocklistFilter(), loginEventSize, 'blocklist-filter').uid('blocklist-filter').setParallelism(p('blocklist-filter'));
  }
  const fn = logins.state === 'counter' ? failedLoginCounter(logins.ttlMs) : failedLoginRawList(logins.ttlMs);
  events
    .keyBy((e: LoginEvent) => e.user_id)
    .process(fn, loginEventSize, 'failed-logins')
    .uid('failed-logins')
    .setParallelism(p('failed-logins'))
    .sinkTo(discardingSink, 'alerts')
    .uid('alerts')
    .setParallelism(p('failed-logins'));
  return env.getStreamGraph('failed-logins');
}
