import { computeKeyGroupRangeForOperatorIndex } from '../analysis/key-groups/key-group-range-assignment.ts';
import { estimateKeyRate, placeStringKey } from '../analysis/salting-advice.ts';
import { keyPerKeyGroup } from './key-group-keys.ts';

/**
 * The twin's traffic mix: records/s per key, such that every key group carries what production's subtasks show. The
 * hot key (given, else a stand-in for the hottest subtask's excess) and the sampled keys keep their own names and
 * so their exact key groups; the rest of each subtask's load is spread evenly over its key groups' stand-in keys. Pure.
 */

export interface TwinTrafficInput {
  maxParallelism: number;
  /** Per subtask (index = subtask), what production's keyed vertex processed (records/s); NaN where unknown. */
  recordsInPerSecond: ArrayLike<number>;
  /**
   * What the input brings over what got through (≥ 1): back-pressure holds every key back by the same factor, so each
   * key's demand is what it got through times this.
   */
  demandScale: number;
  /** The hot key; without it the hottest subtask's excess becomes a stand-in key of its first key group. */
  key?: string;
  /** Keys with their share of all records (a Kafka sample): they take share × demand, the subtasks the rest. */
  keyShares?: ReadonlyArray<{ key: string; share: number }>;
}

export interface TwinTraffic {
  /** Records/s per key at the demand. */
  recordsPerSecond: Record<string, number>;
  hotKey: string;
  hotKeyRecordsPerSecond: number;
  totalRecordsPerSecond: number;
}

export function twinTraffic(input: TwinTrafficInput): TwinTraffic {
  const maxP = input.maxParallelism;
  const parallelism = input.recordsInPerSecond.length;
  const scale = input.demandScale;
  if (!(scale >= 1 && Number.isFinite(scale))) throw new RangeError(`The demand scale must be at least 1, not ${scale}.`);
  const observed = Array.from(input.recordsInPerSecond, (r) => (Number.isFinite(r) && r > 0 ? r : 0));
  const demandPerSubtask = observed.map((r) => r * scale);
  const total = demandPerSubtask.reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw new RangeError('The keyed vertex processed no records: there is no traffic mix to replay.');
  const standIns = keyPerKeyGroup(maxP);
  const named = new Map<string, number>();

  // The sampled keys (their shares of the demand), or the hot key alone (its subtask's excess over a typical one).
  const shares = input.keyShares?.filter((s) => s.share > 0) ?? [];
  if (shares.length) {
    for (const { key, share } of shares) named.set(key, (named.get(key) ?? 0) + share * total);
  }
  const hottest = observed.indexOf(Math.max(...observed));
  const hotKey = input.key ?? [...named.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? standIns[computeKeyGroupRangeForOperatorIndex(maxP, parallelism, hottest).startKeyGroup];
  if (!named.has(hotKey)) {
    const home = placeStringKey(hotKey, maxP, parallelism).subtask;
    named.set(hotKey, (estimateKeyRate(home, observed) ?? 0) * scale);
  }

  const out: Record<string, number> = {};
  const namedOn = new Array<number>(parallelism).fill(0);
  for (const [key, rate] of named) {
    namedOn[placeStringKey(key, maxP, parallelism).subtask] += rate;
    out[key] = rate;
  }
  for (let s = 0; s < parallelism; s++) {
    const rest = Math.max(0, demandPerSubtask[s] - namedOn[s]);
    if (rest === 0) continue;
    const { startKeyGroup, endKeyGroup } = computeKeyGroupRangeForOperatorIndex(maxP, parallelism, s);
    const perKeyGroup = rest / (endKeyGroup - startKeyGroup + 1);
    for (let kg = startKeyGroup; kg <= endKeyGroup; kg++) out[standIns[kg]] = (out[standIns[kg]] ?? 0) + perKeyGroup;
  }
  const sum = Object.values(out).reduce((a, b) => a + b, 0);
  return { recordsPerSecond: out, hotKey, hotKeyRecordsPerSecond: out[hotKey] ?? 0, totalRecordsPerSecond: sum };
}
