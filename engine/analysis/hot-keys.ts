import type { HotKey } from '../contracts/kafka.ts';
import { assignToKeyGroup, checkParallelismAgainstMax, computeOperatorIndexForKeyGroup } from './key-groups/key-group-range-assignment.ts';
import type { JavaKey } from './key-groups/java-hash.ts';

/**
 * Hot keys of a sampled stream: counts per key, each key's share of the keyed records and its rate, and — for a keyed
 * vertex — Flink's key group and the subtask each hot key lands on (`KeyGroupRangeAssignment`, bit-exact), plus the
 * share of all keyed records each subtask would get. Pure: the sampler feeds it, the UI, CLI and reports read it.
 */

/**
 * How a key value from JSON is hashed, as the job's key type would be in Java: a JSON string is a `String`; a JSON
 * whole number is a `Long` (`int` when the job keys by `Integer`); true/false a `Boolean`.
 */
export type NumericKeyType = 'long' | 'int';

interface Tallied {
  display: string;
  javaKey: JavaKey;
  count: number;
}

/** Counts keys as records arrive; anything that is not a string, a whole number or a boolean is "unkeyable". */
export class KeyTally {
  private readonly keys = new Map<string, Tallied>();
  keyed = 0;
  unkeyable = 0;

  constructor(private readonly numericKeyType: NumericKeyType = 'long') {}

  add(value: unknown): void {
    let id: string;
    let javaKey: JavaKey;
    let display: string;
    if (typeof value === 'string') {
      id = `s${value}`;
      javaKey = value;
      display = value;
    } else if (typeof value === 'number' && Number.isSafeInteger(value) && (this.numericKeyType === 'long' || (value >= -2147483648 && value <= 2147483647))) {
      id = `n${value}`;
      javaKey = this.numericKeyType === 'long' ? BigInt(value) : value;
      display = String(value);
    } else if (typeof value === 'boolean') {
      id = `b${value}`;
      javaKey = value;
      display = String(value);
    } else {
      this.unkeyable++;
      return;
    }
    this.keyed++;
    const known = this.keys.get(id);
    if (known) known.count++;
    else this.keys.set(id, { display, javaKey, count: 1 });
  }

  get distinct(): number {
    return this.keys.size;
  }

  entries(): Iterable<Tallied> {
    return this.keys.values();
  }
}

export interface HotKeySummaryOptions {
  /** Span of the sample in ms (rates are per second of it). */
  spanMs: number;
  /** @default 20 */
  top?: number;
  keyedVertex?: { maxParallelism: number; parallelism: number };
}

export interface HotKeySummary {
  keys: HotKey[];
  distinctKeys: number;
  subtaskShares?: Array<{ subtask: number; share: number }>;
}

/** The top keys (by count, ties by key) with share and rate; with a keyed vertex, where each lands. */
export function summarizeHotKeys(tally: KeyTally, options: HotKeySummaryOptions): HotKeySummary {
  const top = options.top ?? 20;
  const vertex = options.keyedVertex;
  if (vertex) checkParallelismAgainstMax('the keyed vertex', vertex.parallelism, vertex.maxParallelism);
  const seconds = Math.max(options.spanMs, 1) / 1000;
  const all = [...tally.entries()].sort((a, b) => b.count - a.count || (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  const place = (key: JavaKey) => {
    const keyGroup = assignToKeyGroup(key, vertex!.maxParallelism);
    return { keyGroup, subtask: computeOperatorIndexForKeyGroup(vertex!.maxParallelism, vertex!.parallelism, keyGroup) };
  };
  const keys = all.slice(0, top).map((k): HotKey => ({
    key: k.display,
    count: k.count,
    share: tally.keyed > 0 ? k.count / tally.keyed : 0,
    ratePerSecond: k.count / seconds,
    ...(vertex ? place(k.javaKey) : {}),
  }));
  let subtaskShares: HotKeySummary['subtaskShares'];
  if (vertex && tally.keyed > 0) {
    const load = new Array<number>(vertex.parallelism).fill(0);
    for (const k of all) load[place(k.javaKey).subtask] += k.count;
    subtaskShares = load
      .map((count, subtask) => ({ subtask, share: count / tally.keyed }))
      .sort((a, b) => b.share - a.share || a.subtask - b.subtask);
  }
  return { keys, distinctKeys: tally.distinct, ...(subtaskShares ? { subtaskShares } : {}) };
}
