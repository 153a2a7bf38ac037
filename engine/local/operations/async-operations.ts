import { randomBytes } from 'node:crypto';
import type { Clock } from '../time/clock.ts';
import { javaClassName, javaStackTrace, type FailureCause } from '../restart/exception-history.ts';

/**
 * Flink's trigger-then-poll protocol for long operations (`AbstractAsynchronousOperationHandlers`,
 * `DispatcherCachedOperationsHandler`, `CompletedOperationCache`), as a registry the REST handlers and the runtime
 * share:
 *
 * - trigger: `{ "request-id": <triggerId> }`; the client may choose the trigger ID (32 hex). The ID is an idempotency
 *   key per (job, cache): triggering again with an ID that is in progress or still cached returns the same operation
 *   and starts nothing. Savepoints and stop-with-savepoint share one cache (so a stop with the ID of an earlier
 *   savepoint does NOT stop the job: it returns the savepoint, as observed on Flink 2.2.1); checkpoints have their own.
 * - poll: `{"status":{"id":"IN_PROGRESS"},"operation":null}`, then `{"status":{"id":"COMPLETED"},"operation":{...}}`
 *   where the operation is `{"location"}` / `{"failure-cause"}` for savepoints, `{"checkpointId"}` / `{"failureCause"}`
 *   for checkpoints, `{}` / `{"failure-cause"}` for other operations. "COMPLETED" covers failures too.
 * - a completed result stays `rest.async.store-duration` (5 min) after completion, then the ID is unknown (404) and
 *   may start a new operation; in-progress operations never expire.
 * - unknown IDs: 404 with Flink's messages ("There is no savepoint operation with triggerId=… for job ….").
 */

/** The caches Flink keeps (stop-with-savepoint uses `savepoint`). */
export type OperationCache = 'savepoint' | 'checkpoint' | 'rescaling';
/** What the client asked for. */
export type OperationKind = 'savepoint' | 'stop' | 'checkpoint' | 'rescaling';

/** `rest.async.store-duration`'s default. */
export const DEFAULT_STORE_DURATION_MS = 5 * 60 * 1000;

const TRIGGER_ID = /^[0-9a-f]{32}$/;

export function cacheOf(kind: OperationKind): OperationCache {
  return kind === 'stop' ? 'savepoint' : kind;
}

/** `SerializedThrowable` on the wire. `serialized-throwable` is base64 (of JSON here; Java serialization on Flink). */
export interface SerializedThrowableWire {
  class: string;
  'stack-trace': string;
  'serialized-throwable': string;
}

export type OperationWire =
  | { location: string }
  | { 'failure-cause': SerializedThrowableWire }
  | { checkpointId: number }
  | { failureCause: SerializedThrowableWire }
  | Record<string, never>;

export interface AsynchronousOperationResultWire {
  status: { id: 'IN_PROGRESS' | 'COMPLETED' };
  operation: OperationWire | null;
}

export type StatusResult = { status: 200; body: AsynchronousOperationResultWire } | { status: 404; message: string };

/** The successful result of an operation. */
export type OperationOutcome = { savepointLocation: string } | { checkpointId: number } | Record<string, never>;

export interface AsyncOperation {
  cache: OperationCache;
  kind: OperationKind;
  jobId: string;
  triggerId: string;
  /** What the trigger asked for (target directory, drain, format, ...), for the runtime. */
  request: Readonly<Record<string, unknown>>;
  triggeredAt: number;
  completedAt?: number;
  outcome?: OperationOutcome;
  failure?: SerializedThrowableWire;
}

/** `SerializedThrowable` of a failure, as the status body carries it. */
export function serializedThrowable(cause: FailureCause): SerializedThrowableWire {
  const stack = javaStackTrace(cause);
  const cls = javaClassName(cause);
  return {
    class: cls,
    'stack-trace': stack,
    'serialized-throwable': Buffer.from(JSON.stringify({ class: cls, message: cause.message, 'stack-trace': stack })).toString('base64'),
  };
}

export interface AsyncOperationRegistryOptions {
  clock: Clock;
  /** `rest.async.store-duration` in ms. @default 300000 */
  storeDurationMs?: number;
  /** New trigger IDs when the client gives none. @default 16 random bytes as hex */
  newTriggerId?: () => string;
}

/** A trigger the REST layer must reject with 400 (Flink: "Request did not match expected format …"). */
export class TriggerRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestHandlerException';
  }
}

/** One trigger request as it arrived: the engine's own record, for rehearsals and tests (`/local-engine/v1/async-operations`). */
export interface TriggerRecord {
  kind: OperationKind;
  jobId: string;
  triggerId: string;
  at: number;
  /** False when the trigger id was known: the request started nothing. */
  started: boolean;
}

/** Trigger records kept (oldest dropped first). */
const TRIGGER_LOG_SIZE = 10_000;

export class AsyncOperationRegistry {
  private readonly clock: Clock;
  private readonly storeDurationMs: number;
  private readonly newTriggerId: () => string;
  private readonly operations = new Map<string, AsyncOperation>();
  /** Every trigger request received, even those that started nothing: a trigger is never lost from here. */
  readonly triggerLog: TriggerRecord[] = [];

  constructor(options: AsyncOperationRegistryOptions) {
    this.clock = options.clock;
    this.storeDurationMs = options.storeDurationMs ?? DEFAULT_STORE_DURATION_MS;
    this.newTriggerId = options.newTriggerId ?? (() => randomBytes(16).toString('hex'));
  }

  private static key(cache: OperationCache, jobId: string, triggerId: string): string {
    return `${cache}|${jobId}|${triggerId}`;
  }

  /** The operation under the key, dropping it if its result expired. */
  private lookup(cache: OperationCache, jobId: string, triggerId: string): AsyncOperation | undefined {
    const key = AsyncOperationRegistry.key(cache, jobId, triggerId);
    const op = this.operations.get(key);
    if (op?.completedAt !== undefined && this.clock.now() - op.completedAt >= this.storeDurationMs) {
      this.operations.delete(key);
      return undefined;
    }
    return op;
  }

  /**
   * Registers a triggered operation. With a `triggerId` that is in progress or still cached in the same cache, returns
   * that operation with `isNew: false`: the caller must not start anything. Otherwise the caller starts the
   * operation and later calls `complete` or `fail`.
   */
  trigger(kind: OperationKind, jobId: string, triggerId?: string, request: Record<string, unknown> = {}): { operation: AsyncOperation; isNew: boolean; body: { 'request-id': string } } {
    if (triggerId !== undefined && !TRIGGER_ID.test(triggerId)) {
      throw new TriggerRequestError(`triggerId "${triggerId}" is not 32 lower-case hex characters.`);
    }
    const cache = cacheOf(kind);
    const id = triggerId ?? this.newTriggerId();
    const existing = this.lookup(cache, jobId, id);
    this.triggerLog.push({ kind, jobId, triggerId: id, at: this.clock.now(), started: !existing });
    if (this.triggerLog.length > TRIGGER_LOG_SIZE) this.triggerLog.shift();
    if (existing) return { operation: existing, isNew: false, body: { 'request-id': id } };
    const operation: AsyncOperation = { cache, kind, jobId, triggerId: id, request: { ...request }, triggeredAt: this.clock.now() };
    this.operations.set(AsyncOperationRegistry.key(cache, jobId, id), operation);
    return { operation, isNew: true, body: { 'request-id': id } };
  }

  private inProgress(cache: OperationCache, jobId: string, triggerId: string): AsyncOperation {
    const op = this.lookup(cache, jobId, triggerId);
    if (!op) throw new Error(`No ${cache} operation ${triggerId} of job ${jobId} is registered.`);
    if (op.completedAt !== undefined) throw new Error(`The ${cache} operation ${triggerId} of job ${jobId} already completed.`);
    return op;
  }

  /** The operation succeeded: a savepoint location, a checkpoint ID, or nothing (rescaling). */
  complete(cache: OperationCache, jobId: string, triggerId: string, outcome: OperationOutcome): void {
    const op = this.inProgress(cache, jobId, triggerId);
    op.outcome = outcome;
    op.completedAt = this.clock.now();
  }

  /** The operation failed; the status will carry the cause. */
  fail(cache: OperationCache, jobId: string, triggerId: string, cause: FailureCause): void {
    const op = this.inProgress(cache, jobId, triggerId);
    op.failure = serializedThrowable(cause);
    op.completedAt = this.clock.now();
  }

  /** In-progress operations of a job (e.g. to fail them when the job fails). */
  pending(jobId: string): AsyncOperation[] {
    return [...this.operations.values()].filter((op) => op.jobId === jobId && op.completedAt === undefined);
  }

  /** `GET …/savepoints/:triggerid`, `…/checkpoints/:triggerid`, `…/rescaling/:triggerid`. */
  status(cache: OperationCache, jobId: string, triggerId: string): StatusResult {
    const op = this.lookup(cache, jobId, triggerId);
    if (!op) return { status: 404, message: notFoundMessage(cache, jobId, triggerId) };
    if (op.completedAt === undefined) return { status: 200, body: { status: { id: 'IN_PROGRESS' }, operation: null } };
    let operation: OperationWire;
    if (cache === 'checkpoint') operation = op.failure ? { failureCause: op.failure } : { checkpointId: (op.outcome as { checkpointId: number }).checkpointId };
    else if (cache === 'savepoint') operation = op.failure ? { 'failure-cause': op.failure } : { location: (op.outcome as { savepointLocation: string }).savepointLocation };
    else operation = op.failure ? { 'failure-cause': op.failure } : {};
    return { status: 200, body: { status: { id: 'COMPLETED' }, operation } };
  }

  /** Drops expired results (optional housekeeping; lookups expire lazily anyway). */
  evictExpired(): void {
    for (const op of [...this.operations.values()]) this.lookup(op.cache, op.jobId, op.triggerId);
  }
}

/** Flink 2.2.1's 404 messages for unknown trigger IDs (`SavepointStatusHandler`, `CheckpointStatusHandler`). */
export function notFoundMessage(cache: OperationCache, jobId: string, triggerId: string): string {
  if (cache === 'savepoint') return `There is no savepoint operation with triggerId=${triggerId} for job ${jobId}.`;
  if (cache === 'checkpoint') return `There is no checkpoint operation with triggerId=${triggerId} for job ${jobId}.`;
  // AbstractAsynchronousOperationHandlers.StatusHandler prints the key with Object.toString().
  let h = 0;
  for (const c of `${triggerId}${jobId}`) h = (Math.imul(31, h) + c.charCodeAt(0)) | 0;
  return `Operation not found under key: org.apache.flink.runtime.rest.handler.job.AsynchronousJobOperationKey@${(h >>> 0).toString(16)}`;
}

/** The trigger bodies, checked like Flink's JSON mapper would (unknown fields and wrong types are rejected). */
export interface SavepointTriggerRequest {
  'cancel-job'?: boolean;
  formatType?: 'CANONICAL' | 'NATIVE';
  'target-directory'?: string;
  triggerId?: string;
}
export interface StopWithSavepointRequest {
  drain?: boolean;
  formatType?: 'CANONICAL' | 'NATIVE';
  targetDirectory?: string;
  triggerId?: string;
}
export interface CheckpointTriggerRequest {
  checkpointType?: 'CONFIGURED' | 'FULL' | 'INCREMENTAL';
  triggerId?: string;
}

const BODY_FIELDS: Record<'savepoint' | 'stop' | 'checkpoint', { name: string; fields: Record<string, (v: unknown) => boolean> }> = {
  savepoint: {
    name: 'SavepointTriggerRequestBody',
    fields: {
      'cancel-job': (v) => typeof v === 'boolean',
      formatType: (v) => v === 'CANONICAL' || v === 'NATIVE',
      'target-directory': (v) => typeof v === 'string',
      triggerId: (v) => typeof v === 'string' && TRIGGER_ID.test(v),
    },
  },
  stop: {
    name: 'StopWithSavepointRequestBody',
    fields: {
      drain: (v) => typeof v === 'boolean',
      formatType: (v) => v === 'CANONICAL' || v === 'NATIVE',
      targetDirectory: (v) => typeof v === 'string',
      triggerId: (v) => typeof v === 'string' && TRIGGER_ID.test(v),
    },
  },
  checkpoint: {
    name: 'CheckpointTriggerRequestBody',
    fields: {
      checkpointType: (v) => v === 'CONFIGURED' || v === 'FULL' || v === 'INCREMENTAL',
      triggerId: (v) => typeof v === 'string' && TRIGGER_ID.test(v),
    },
  },
};

/**
 * Validates a trigger body; throws {@link TriggerRequestError} with Flink's 400 message ("Request did not match
 * expected format SavepointTriggerRequestBody.") and the field at fault. An empty or absent body is fine. JSON null
 * fields count as absent.
 */
export function parseTriggerRequest(kind: 'savepoint', body: unknown): SavepointTriggerRequest;
export function parseTriggerRequest(kind: 'stop', body: unknown): StopWithSavepointRequest;
export function parseTriggerRequest(kind: 'checkpoint', body: unknown): CheckpointTriggerRequest;
export function parseTriggerRequest(kind: 'savepoint' | 'stop' | 'checkpoint', body: unknown): Record<string, unknown> {
  const spec = BODY_FIELDS[kind];
  if (body === undefined || body === null || body === '') return {};
  const fail = (why: string) => new TriggerRequestError(`Request did not match expected format ${spec.name}. (${why})`);
  if (typeof body !== 'object' || Array.isArray(body)) throw fail('the body must be a JSON object');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null) continue;
    // Own fields only: a body key like "__proto__" or "constructor" must read as unknown, not as Object.prototype's.
    const check = Object.hasOwn(spec.fields, k) ? spec.fields[k] : undefined;
    if (!check) throw fail(`unknown field "${k}"; known: ${Object.keys(spec.fields).join(', ')}`);
    if (!check(v)) throw fail(k === 'triggerId' ? 'triggerId must be 32 lower-case hex characters' : `"${k}" has the wrong type or value`);
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
