import type { Source, SourceReaderContext, SourceReader } from '../api/datastream.ts';
import { SequenceSource, type SequenceSplitState } from '../api/sources.ts';
import { deriveSeed } from '../time/random.ts';

/**
 * The login events of the stateful-processing chapter's job ("failed logins per user_id"), generated deterministically
 * from a seed: event n of the stream is a function of (seed, n) only, so a run, a restore and the arithmetic of a
 * scenario's header all see the same events.
 */

/** One login attempt. */
export interface LoginEvent {
  user_id: string;
  /** Epoch ms (the processing time it was emitted at). */
  ts: number;
  ok: boolean;
  ip: string;
}

/** One entry of the broadcast blocklist side stream. */
export interface BlocklistEntry {
  user_id: string;
  reason: string;
  added_at: number;
}

export interface LoginTraffic {
  /** Login events per second, over all source subtasks. */
  rate: number;
  /** A fixed population of this many users, or a fresh user for every event (a key space that never stops growing). */
  users: number | 'unbounded';
  /** Share of logins that fail. */
  failureRate: number;
  /** One user who makes `share` of all logins (an attacked account), failing at its own rate. */
  whale?: { user: string; share: number; failureRate: number };
  /** The broadcast side stream: `entries` blocked users, sent at `rate` per second, once. */
  blocklist?: { entries: number; rate: number };
}

/** User ids are fixed-width (`u` + 10 digits), so every key has the same size and the state arithmetic is exact. */
export function userId(n: number): string {
  return `u${String(n).padStart(10, '0')}`;
}

export function blockedUserId(n: number): string {
  return `b${String(n).padStart(10, '0')}`;
}

/** A uniform float in [0, 1) from (seed, n, salt): a stateless hash, so any event can be recomputed on its own. */
export function uniform(seed: number, n: number, salt: number): number {
  let h = Math.imul(seed ^ Math.imul(n, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Event n of the login stream. */
export function loginEvent(traffic: LoginTraffic, seed: number, n: number, ts: number): LoginEvent {
  const whale = traffic.whale;
  const ip = `10.${Math.floor(uniform(seed, n, 3) * 256)}.${Math.floor(uniform(seed, n, 4) * 256)}.${Math.floor(uniform(seed, n, 5) * 256)}`;
  if (whale && uniform(seed, n, 0) < whale.share) return { user_id: whale.user, ts, ok: uniform(seed, n, 1) >= whale.failureRate, ip };
  const user = traffic.users === 'unbounded' ? userId(n) : userId(Math.floor(uniform(seed, n, 2) * traffic.users));
  return { user_id: user, ts, ok: uniform(seed, n, 1) >= traffic.failureRate, ip };
}

/**
 * The login stream as a split source: split s of a first run at parallelism P emits events s, s + P, s + 2P, ... at
 * `rate / P` per second, so the whole stream is the same at any parallelism and continues where it was on restore.
 */
export class LoginEventSource implements Source<LoginEvent> {
  readonly bounded = false;

  constructor(private readonly traffic: LoginTraffic, private readonly seed: number) {}

  createReader(context: SourceReaderContext): SourceReader<LoginEvent> {
    const splits = (context.restoredState?.[0] as SequenceSplitState | undefined)?.numSplits ?? context.parallelism;
    const seed = deriveSeed(this.seed, 'logins');
    const reader = new SequenceSource<LoginEvent>({
      ratePerSubtask: this.traffic.rate / splits,
      record: (i, split) => loginEvent(this.traffic, seed, i * splits + split, 0),
      timestamp: (_i, scheduledAt) => Math.round(scheduledAt),
    }).createReader(context);
    return withTimestampField(reader, (e, ts) => (e.ts = ts));
  }
}

/** The reader with each record's event time written into the record (the event carries the time it happened). */
function withTimestampField<T>(reader: SourceReader<T>, set: (value: T, ts: number) => void): SourceReader<T> {
  return {
    ...reader,
    pollNext: (now, max, emit) =>
      reader.pollNext(now, max, (value, ts, split) => {
        set(value, ts);
        emit(value, ts, split);
      }),
  };
}

/** The blocklist: entry i blocks user `b<i>`; a bounded source that ends once every entry was sent. */
export function blocklistSource(blocklist: { entries: number; rate: number }): Source<BlocklistEntry> {
  const source = new SequenceSource<BlocklistEntry>({
    ratePerSubtask: blocklist.rate,
    countPerSubtask: blocklist.entries,
    record: (i) => ({ user_id: blockedUserId(i), reason: 'credential-stuffing', added_at: 0 }),
    timestamp: (_i, scheduledAt) => Math.round(scheduledAt),
  });
  return {
    bounded: true,
    createReader: (context) => withTimestampField(source.createReader(context), (e, ts) => (e.added_at = ts)),
  };
}

/** Wire sizes (JSON length), for the network model. */
export const loginEventSize = (e: unknown): number => JSON.stringify(e).length;
