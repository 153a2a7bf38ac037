import type { HotKeyLoad } from '../contracts/operations.ts';
import type { LoadFigures, PlannedHotKey, PlannedSubtask, VertexRescalePlan } from '../contracts/rescale.ts';
import { assignToKeyGroup, computeKeyGroupRangeForOperatorIndex, computeOperatorIndexForKeyGroup } from './key-groups/key-group-range-assignment.ts';
import { describeSpread, keyGroupSpread } from './key-groups/key-group-spread.ts';

/**
 * The rescale plan of one keyed vertex: its per-subtask load at a new parallelism, predicted from the load observed
 * per subtask, Flink's key-group ranges and the known hot keys. Pure.
 *
 * Flink does not expose load per key group, so the model is: a subtask's observed load, less the known hot keys it
 * owns, is spread evenly over its key groups; each hot key is placed exactly (its key group by Flink's assignment).
 * At the new parallelism a subtask gets the load of the key groups in its new range.
 */
export const RESCALE_PLAN_ASSUMPTION =
  "Flink does not measure load per key group. The prediction assumes each subtask's observed load (minus the known hot keys it owns) is spread " +
  'evenly over its key groups, and places each known hot key exactly, in the key group Flink assigns it (murmur hash of its Java hashCode, ' +
  "modulo the max parallelism). Observed rates are throughput: a saturated subtask's demand can be higher, and its back-pressure holds its " +
  'upstream down, so the other subtasks may get more once it is relieved.';

/** A subtask at or above this busy time is saturated: it processes what it can, not what arrives. */
export const SATURATED_BUSY_MS_PER_SECOND = 900;
/** Below this busy time a subtask says little about what one subtask can sustain. */
const MIN_BUSY_FOR_CAPACITY = 100;

export interface ObservedVertexLoad {
  vertexId: string;
  vertexName: string;
  maxParallelism: number;
  /** Per subtask at the current parallelism; NaN where the cluster gave no figure. */
  recordsInPerSecond: ArrayLike<number>;
  busyTimeMsPerSecond: ArrayLike<number>;
}

/** max, mean and max/mean of per-subtask loads. */
export function loadFigures(values: number[]): LoadFigures {
  const max = values.length ? Math.max(...values) : 0;
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  return { max, mean, maxOverMean: mean > 0 ? max / mean : null };
}

function rate(n: number): string {
  return `${n >= 100 ? Math.round(n) : Number(n.toFixed(1))} records/s`;
}

/** Records/s one subtask sustains: the busiest subtask's rate scaled to 1000 ms/s of busy time. */
export function estimateCapacity(recordsPerSecond: ArrayLike<number>, busyMsPerSecond: ArrayLike<number>): VertexRescalePlan['capacity'] {
  let best: VertexRescalePlan['capacity'] = null;
  for (let i = 0; i < recordsPerSecond.length; i++) {
    const r = recordsPerSecond[i];
    const b = busyMsPerSecond[i];
    if (!(r > 0) || !(b >= MIN_BUSY_FOR_CAPACITY)) continue;
    if (!best || b > best.busyTimeMsPerSecond) best = { recordsPerSecond: (r * 1000) / Math.min(b, 1000), subtask: i, busyTimeMsPerSecond: b };
  }
  return best;
}

/** The plan of one keyed vertex at parallelism `to`. `to` must be within 1..maxParallelism (checked by the caller). */
export function planKeyedVertex(observed: ObservedVertexLoad, to: number, hotKeys: HotKeyLoad[]): VertexRescalePlan {
  const maxP = observed.maxParallelism;
  const from = observed.recordsInPerSecond.length;
  const rates = Array.from(observed.recordsInPerSecond, (r) => (Number.isFinite(r) && r > 0 ? r : 0));
  // What the plan concludes comes first; what limits the figures it stands on, last.
  const findings: string[] = [];
  const caveats: string[] = [];
  const missing = Array.from(observed.recordsInPerSecond, (r, i) => (Number.isFinite(r) ? -1 : i)).filter((i) => i >= 0);
  if (missing.length > 0) caveats.push(`No load figure for subtask${missing.length === 1 ? '' : 's'} ${missing.join(', ')}: counted as 0.`);

  const keys = hotKeys
    .filter((k) => k.vertexId === undefined || k.vertexId === observed.vertexId)
    .map((k) => {
      const keyGroup = assignToKeyGroup(k.key, maxP);
      return { ...k, keyGroup, before: computeOperatorIndexForKeyGroup(maxP, from, keyGroup), after: computeOperatorIndexForKeyGroup(maxP, to, keyGroup) };
    });

  // Per key group: the residual load of its subtask, spread evenly, plus the hot keys placed exactly.
  const perKeyGroup = new Float64Array(maxP);
  for (let s = 0; s < from; s++) {
    const range = computeKeyGroupRangeForOperatorIndex(maxP, from, s);
    const hot = keys.filter((k) => k.before === s).reduce((sum, k) => sum + k.recordsPerSecond, 0);
    if (hot > rates[s] * 1.05 && hot > 0) {
      caveats.push(
        `The known hot keys of subtask ${s} (${rate(hot)}) exceed what it processed (${rate(rates[s])}): it is capped (saturated), or the figures come from different moments. The plan uses the known rates.`,
      );
    }
    const residual = Math.max(0, rates[s] - hot) / (range.endKeyGroup - range.startKeyGroup + 1);
    for (let g = range.startKeyGroup; g <= range.endKeyGroup; g++) perKeyGroup[g] = residual;
  }
  for (const k of keys) perKeyGroup[k.keyGroup] += k.recordsPerSecond;

  const capacity = estimateCapacity(observed.recordsInPerSecond, observed.busyTimeMsPerSecond);
  const predicted: PlannedSubtask[] = [];
  for (let s = 0; s < to; s++) {
    const range = computeKeyGroupRangeForOperatorIndex(maxP, to, s);
    let load = 0;
    for (let g = range.startKeyGroup; g <= range.endKeyGroup; g++) load += perKeyGroup[g];
    const busy = capacity ? (load / capacity.recordsPerSecond) * 1000 : null;
    predicted.push({
      subtask: s,
      startKeyGroup: range.startKeyGroup,
      endKeyGroup: range.endKeyGroup,
      recordsPerSecond: load,
      busyTimeMsPerSecond: busy,
      hotKeys: keys.filter((k) => k.after === s).map((k) => k.key),
      overCapacity: busy !== null && busy > 1000,
    });
  }

  const plannedKeys: PlannedHotKey[] = keys.map((k) => ({
    key: k.key,
    recordsPerSecond: k.recordsPerSecond,
    keyGroup: k.keyGroup,
    subtaskBefore: k.before,
    subtaskAfter: k.after,
    aloneAfter: keys.every((o) => o === k || o.after !== k.after),
    overCapacity: capacity !== null && k.recordsPerSecond > capacity.recordsPerSecond,
  }));

  for (const k of plannedKeys) {
    const at = predicted[k.subtaskAfter];
    if (k.overCapacity && capacity) {
      const where = k.aloneAfter ? `still lands alone on subtask ${k.subtaskAfter}` : `lands on subtask ${k.subtaskAfter} with ${at.hotKeys.filter((x) => x !== k.key).join(', ')}`;
      findings.push(
        `At parallelism ${to}, ${k.key} ${where} at ${rate(k.recordsPerSecond)}, above the ~${rate(capacity.recordsPerSecond)} one subtask sustains: ` +
          'rescaling will not fix this; consider two-stage aggregation (salting).',
      );
    } else if (at.overCapacity && capacity) {
      findings.push(`At parallelism ${to}, ${k.key} lands on subtask ${k.subtaskAfter}, which would get ${rate(at.recordsPerSecond)}: above the ~${rate(capacity.recordsPerSecond)} one subtask sustains.`);
    } else {
      findings.push(`At parallelism ${to}, ${k.key} (key group ${k.keyGroup}) moves from subtask ${k.subtaskBefore} to subtask ${k.subtaskAfter}.`);
    }
  }
  const overloaded = predicted.filter((p) => p.overCapacity && p.hotKeys.length === 0);
  if (overloaded.length > 0 && capacity) {
    findings.push(
      `${overloaded.length} subtask${overloaded.length === 1 ? '' : 's'} (${overloaded.slice(0, 5).map((p) => p.subtask).join(', ')}${overloaded.length > 5 ? ', …' : ''}) would get more than the ~${rate(capacity.recordsPerSecond)} one subtask sustains.`,
    );
  }
  const spread = keyGroupSpread(maxP, to);
  if (!spread.even) findings.push(describeSpread(spread));
  findings.push(...caveats);

  const after = loadFigures(predicted.map((p) => p.recordsPerSecond));
  const before = loadFigures(rates);
  return {
    vertexId: observed.vertexId,
    vertexName: observed.vertexName,
    maxParallelism: maxP,
    from,
    to,
    observed: Array.from({ length: from }, (_, s) => ({
      subtask: s,
      recordsPerSecond: Number.isFinite(observed.recordsInPerSecond[s]) ? observed.recordsInPerSecond[s] : null,
      busyTimeMsPerSecond: Number.isFinite(observed.busyTimeMsPerSecond[s]) ? observed.busyTimeMsPerSecond[s] : null,
    })),
    predicted,
    hotKeys: plannedKeys,
    before,
    after,
    capacity,
    spread,
    findings,
  };
}

