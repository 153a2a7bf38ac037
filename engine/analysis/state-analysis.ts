import type { JobState, RocksDbState, StatePoint, StateProjection, StateSubtaskView, StateSuspect, StateTrend, StateVertexView } from '../contracts/state.ts';
import { bytesInWords, shortVertexName, subtaskList } from './in-words.ts';
import { formatSpan } from './root-cause.ts';
import { computeKeyGroupRangeForOperatorIndex } from './key-groups/key-group-range-assignment.ts';
import { dataSkewPercent, hotSubtasks } from './skew-figures.ts';
import { MIN_TREND_POINTS, historySlopePerHour, slopePerHour, splitAt, trendOf, type SizePoint } from './state-trend.ts';

/** One completed checkpoint of a vertex, as the history keeps it. */
export interface StateCheckpointInput {
  checkpointId: number;
  t: number;
  /** The vertex's full state; null = not reported. */
  stateBytes: number | null;
  /** Per subtask (index = subtask): full and written (incremental) sizes; null when the details are not stored. */
  subtasks: Array<{ stateBytes: number | null; checkpointedBytes: number | null }> | null;
}

/** RocksDB's native metrics of a vertex, summed over its subtasks and column families (null = that metric is not on). */
export interface RocksDbFigures {
  estimateLiveDataSize: number | null;
  totalSstFilesSize: number | null;
  estimateNumKeys: number | null;
  blockCacheUsage: number | null;
}

export interface StateVertexInput {
  vertexId: string;
  name: string;
  parallelism: number;
  maxParallelism: number | null;
  keyed: boolean;
  broadcastInput: boolean;
  /** Completed checkpoints of the whole history kept, oldest first. */
  checkpoints: StateCheckpointInput[];
  /** When RocksDB's native metrics were read (`agg=sum` over the subtasks); null = not read or off. */
  rocksdb: RocksDbFigures | null;
  /** A hot key the Kafka key sample found on this vertex, with the subtask that owns it. */
  sampledKey?: { key: string; subtask: number } | null;
}

export interface StateAnalysisInput {
  clusterId: string;
  jobId: string;
  jobName: string | null;
  /** The window: `[to − windowMs, to]`. */
  to: number;
  windowMs: number;
  vertices: StateVertexInput[];
  /** When the job was restored from a checkpoint or savepoint (epoch ms): sizes before and after do not compare. */
  restores: number[];
  /** on/off as read from the job's metrics; unknown when they were not asked. */
  rocksdbStatus: RocksDbState['status'];
  /** The limit a subtask's state must not reach, and what it is ("the limit set", "the TaskManager's managed memory"). */
  capacity?: { bytes: number; source: string } | null;
  /** Keys the operator counted (or the Kafka key sample estimates), for the largest keyed vertex. */
  keyCount?: number | null;
}

/** Below this a vertex's state is too small to be a suspect (a source's offsets, a few timers). */
export const MIN_SUSPECT_BYTES = 64 * 1024;
/** Bytes per key above this are far beyond what a counter or a small value needs (key + value + RocksDB overhead ~ 100 B). */
export const RAW_EVENTS_BYTES_PER_KEY = 1024;
/** Subtasks whose sizes are within this ratio hold the same state (a broadcast table). */
export const BROADCAST_EQUAL_RATIO = 1.05;
/** Share of a vertex's subtasks that must grow for "every subtask grows". */
export const GROWING_SHARE = 0.75;
/** A one-step drop larger than this is a restore from an older checkpoint, even when no restore was recorded. */
const RESTORE_DROP = 0.5;
/** Fewer checkpoints than this in the window and the confidence is medium. */
const FEW_CHECKPOINTS = 6;
const HOUR_MS = 3_600_000;

interface VertexFinding {
  suspect: Exclude<StateSuspect, 'unknown'>;
  vertex: StateVertexView;
  sentence: string;
  reasons: string[];
}

/** Pure: the State view of a job: per stateful vertex and subtask, the figures, and the one sentence. */
export function analyseState(input: StateAnalysisInput): JobState {
  const from = input.to - input.windowMs;
  const notKnown: string[] = [];
  const reasons: string[] = [];
  const vertices = input.vertices.map((v) => vertexView(v, from, input, notKnown, reasons)).filter((v): v is StateVertexView => v !== null);
  applyKeyCount(vertices, input);
  const windowCheckpoints = Math.max(0, ...vertices.map((v) => v.series.length));
  const rocksdb = rocksDbState(input);
  if (rocksdb.status !== 'on') notKnown.push(rocksdb.sentence);

  const base = {
    schemaVersion: 1 as const,
    clusterId: input.clusterId,
    jobId: input.jobId,
    jobName: input.jobName,
    window: { requestedMs: input.windowMs, from: windowCheckpoints > 0 ? from : null, to: windowCheckpoints > 0 ? input.to : null, checkpoints: windowCheckpoints },
    vertices,
    rocksdb,
    notKnown,
  };
  const stateful = vertices.filter((v) => (v.totalBytes ?? 0) > 0);
  if (stateful.length === 0) {
    const sentence =
      input.vertices.every((v) => v.checkpoints.length === 0)
        ? 'No completed checkpoint in the history: state size is known only at checkpoints (is checkpointing on?).'
        : 'No vertex holds state in its checkpoints: nothing to grow.';
    return { ...base, suspect: 'unknown', vertexId: null, sentence, confidence: { level: 'low', reasons: ['no stateful vertex in the checkpoints'] }, alsoSeen: [], projection: null };
  }
  const largest = [...stateful].sort((a, b) => (b.totalBytes ?? 0) - (a.totalBytes ?? 0))[0];
  if (largest.series.length < MIN_TREND_POINTS) {
    const n = largest.series.length;
    return {
      ...base,
      suspect: 'unknown',
      vertexId: largest.vertexId,
      sentence: `Not enough checkpoints yet: ${n} completed with sizes in the last ${formatSpan(input.windowMs)} (${MIN_TREND_POINTS} are needed to see how ${shortVertexName(largest.name)}'s ${bytesInWords(largest.totalBytes ?? 0)} of state moves).`,
      confidence: { level: 'low', reasons: [`only ${n} checkpoint${n === 1 ? '' : 's'} in the window`] },
      alsoSeen: [],
      projection: null,
    };
  }

  const findings = stateful.map((v) => findingOf(v, input)).filter((f): f is VertexFinding => f !== null);
  const problems = findings.filter((f) => f.suspect !== 'bounded').sort((a, b) => (b.vertex.totalBytes ?? 0) - (a.vertex.totalBytes ?? 0));
  const chosen = problems[0] ?? boundedFinding(stateful);
  const alsoSeen = problems.slice(1).map((f) => f.sentence);
  const projection = projectionOf(chosen.vertex, input.capacity ?? null);
  let level: JobState['confidence']['level'] = 'high';
  const all = [...reasons, ...chosen.reasons];
  if (largest.series.length < FEW_CHECKPOINTS) all.push(`${largest.series.length} checkpoints in the window`);
  if (all.length > 0) level = 'medium';
  if (chosen.suspect === 'bounded' && chosen.vertex.trend === 'unknown') level = 'low';
  const sentence = chosen.suspect === 'B' || chosen.suspect === 'C' ? `${chosen.sentence}${projection ? ` ${projection.sentence}` : ''}` : chosen.sentence;
  return { ...base, suspect: chosen.suspect, vertexId: chosen.vertex.vertexId, sentence, confidence: { level, reasons: all }, alsoSeen, projection };
}

function vertexView(v: StateVertexInput, from: number, input: StateAnalysisInput, notKnown: string[], reasons: string[]): StateVertexView | null {
  const sized = v.checkpoints.filter((c) => c.stateBytes !== null && c.stateBytes >= 0);
  if (sized.length === 0) {
    if (v.checkpoints.length > 0) notKnown.push(`${v.name}: its checkpoints report no state size (an older Flink, or the sizes were not stored).`);
    return null;
  }
  const restoreBreaks = [...input.restores, ...dropsOf(sized)];
  const totals = sized.map((c) => ({ t: c.t, bytes: c.stateBytes! }));
  const totalStretches = splitAt(totals, restoreBreaks);
  const windowTotals = lastStretchIn(totalStretches, from);
  const inWindow = sized.filter((c) => c.t >= from);
  const name = shortVertexName(v.name);
  if (restoreBreaks.some((t) => t > from && t <= input.to)) reasons.push(`the job was restored inside the window: ${name}'s growth counts from the restore`);

  // Per subtask: only the checkpoints at the current parallelism compare (a rescale moves key groups between subtasks).
  const withSubtasks = sized.filter((c) => c.subtasks !== null);
  const newest = [...withSubtasks].reverse().find((c) => c.subtasks!.length === v.parallelism) ?? null;
  const rescales = rescaleTimes(withSubtasks);
  if (rescales.some((t) => t > from)) reasons.push(`${name} was rescaled inside the window: per-subtask growth counts from the rescale`);
  const subtaskBreaks = [...restoreBreaks, ...rescales];
  if (!newest) notKnown.push(`${v.name}: no per-subtask checkpoint details at parallelism ${v.parallelism} in the history: the vertex's total only.`);
  const subtasks: StateSubtaskView[] = [];
  for (let k = 0; newest && k < v.parallelism; k++) {
    const series = withSubtasks
      .filter((c) => c.subtasks!.length === v.parallelism && c.subtasks![k]?.stateBytes !== null && c.subtasks![k]!.stateBytes! >= 0)
      .map((c) => ({ t: c.t, bytes: c.subtasks![k].stateBytes! }));
    const stretches = splitAt(series, subtaskBreaks);
    const window = lastStretchIn(stretches, from);
    const latest = [...withSubtasks].reverse().find((c) => c.subtasks!.length === v.parallelism && c.subtasks![k].stateBytes !== null)?.subtasks![k] ?? null;
    const total = newest.stateBytes ?? 0;
    subtasks.push({
      index: k,
      stateBytes: latest?.stateBytes ?? null,
      checkpointedBytes: latest?.checkpointedBytes ?? null,
      share: latest?.stateBytes !== null && latest !== null && total > 0 ? latest.stateBytes / total : null,
      growthPerHour: slopePerHour(window),
      historyGrowthPerHour: historySlopePerHour(stretches),
      trend: trendOf(window),
      keyGroups: v.keyed && v.maxParallelism !== null && v.maxParallelism >= v.parallelism ? keyGroupsOf(v.maxParallelism, v.parallelism, k) : null,
    });
  }
  const missing = newest ? newest.subtasks!.filter((s) => s.stateBytes === null).length : 0;
  if (missing > 0) notKnown.push(`${v.name}: ${missing} of ${v.parallelism} subtasks reported no state size in checkpoint ${newest!.checkpointId}.`);
  const sizes = subtasks.map((s) => s.stateBytes).filter((b): b is number => b !== null);
  const keyCount = v.rocksdb?.estimateNumKeys ?? null;
  const totalBytes = sized[sized.length - 1].stateBytes;
  return {
    vertexId: v.vertexId,
    name: v.name,
    parallelism: v.parallelism,
    maxParallelism: v.maxParallelism,
    keyed: v.keyed,
    broadcastInput: v.broadcastInput,
    totalBytes,
    growthPerHour: slopePerHour(windowTotals),
    historyGrowthPerHour: historySlopePerHour(totalStretches),
    trend: trendOf(windowTotals),
    stateSkewPercent: sizes.length > 1 ? dataSkewPercent(sizes) : null,
    hotSubtasks: sizes.length === subtasks.length ? hotSubtasks(sizes, { floor: MIN_SUSPECT_BYTES }) : [],
    bytesPerKey: keyCount !== null && keyCount > 0 && totalBytes !== null ? totalBytes / keyCount : null,
    keyCount,
    keyCountSource: keyCount !== null ? 'rocksdb' : null,
    subtasks,
    series: inWindow.map(
      (c): StatePoint => ({
        checkpointId: c.checkpointId,
        t: c.t,
        totalBytes: c.stateBytes,
        subtaskBytes: c.subtasks?.map((s) => s.stateBytes) ?? null,
      }),
    ),
  };
}

/** The operator's key count, when RocksDB gives none: it counts the keys of the largest keyed vertex. */
function applyKeyCount(vertices: StateVertexView[], input: StateAnalysisInput): void {
  if (!input.keyCount || input.keyCount <= 0) return;
  const keyed = vertices.filter((v) => v.keyed && v.keyCount === null).sort((a, b) => (b.totalBytes ?? 0) - (a.totalBytes ?? 0))[0];
  if (!keyed || keyed.totalBytes === null) return;
  keyed.keyCount = input.keyCount;
  keyed.keyCountSource = 'operator';
  keyed.bytesPerKey = keyed.totalBytes / input.keyCount;
}

function findingOf(v: StateVertexView, input: StateAnalysisInput): VertexFinding | null {
  const name = shortVertexName(v.name);
  const total = v.totalBytes ?? 0;
  if (total < MIN_SUSPECT_BYTES) return { suspect: 'bounded', vertex: v, sentence: '', reasons: [] };
  const sizes = v.subtasks.map((s) => s.stateBytes ?? Number.NaN);
  const known = sizes.filter((b) => Number.isFinite(b));

  // D: the same large state on every subtask of a vertex that reads a broadcast input (or holds no keyed state).
  if ((v.broadcastInput || !v.keyed) && known.length === v.parallelism && v.parallelism > 1) {
    const min = Math.min(...known);
    const max = Math.max(...known);
    if (min >= MIN_SUSPECT_BYTES && max <= min * BROADCAST_EQUAL_RATIO && (min * v.parallelism) / total >= 0.5) {
      const spread = ((max / min - 1) * 100).toFixed(max / min - 1 < 0.01 ? 1 : 0);
      return {
        suspect: 'D',
        vertex: v,
        reasons: [],
        sentence: `Each of the ${v.parallelism} subtasks of ${name} holds the same ${bytesInWords(min)} (within ${spread}%): a broadcast state duplicated on every subtask, total = ${v.parallelism} × ${bytesInWords(min)} = ${bytesInWords(total)} (suspect D, a broadcast table on every TaskManager).`,
      };
    }
  }

  // A: one or a few subtasks hold most of the state.
  if (v.hotSubtasks.length > 0) {
    const hot = v.hotSubtasks;
    const hotBytes = hot.reduce((sum, k) => sum + (sizes[k] || 0), 0);
    const share = Math.round((hotBytes / total) * 100);
    const groups = hot.map((k) => v.subtasks[k].keyGroups).filter((g): g is { start: number; end: number } => g !== null);
    const evidence = [`state skew ${Math.round(v.stateSkewPercent ?? 0)}%`];
    if (groups.length > 0) evidence.push(`key groups ${groups.map((g) => (g.start === g.end ? `${g.start}` : `${g.start}–${g.end}`)).join(', ')}`);
    const sampled = input.vertices.find((iv) => iv.vertexId === v.vertexId)?.sampledKey;
    const key = sampled && hot.includes(sampled.subtask) ? `; the key sample puts key "${sampled.key}" there` : '';
    return {
      suspect: 'A',
      vertex: v,
      reasons: sampled ? [] : ['no key sample names the key'],
      sentence: `${capitalise(subtaskList(hot))} of ${name} ${hot.length === 1 ? 'holds' : 'hold'} ${share}% of its ${bytesInWords(total)} of state (${evidence.join(', ')}): one key or a few hold most of the state (suspect A, a whale key)${key}.`,
    };
  }

  const growing = v.subtasks.filter((s) => s.trend === 'growing').length;
  const everyGrows = v.subtasks.length > 0 ? growing >= GROWING_SHARE * v.subtasks.length : v.trend === 'growing';
  if (v.trend === 'growing' && everyGrows) {
    const rate = v.growthPerHour ?? 0;
    const spread = v.subtasks.length > 0 ? `${growing} of ${v.subtasks.length} subtasks growing` : 'the vertex total growing';
    const over = `over the last ${formatSpan(input.windowMs)}`;
    // C: far more bytes per key than a counter needs.
    if (v.bytesPerKey !== null && v.bytesPerKey > RAW_EVENTS_BYTES_PER_KEY) {
      const counted = v.keyCountSource === 'rocksdb' ? "RocksDB's estimate-num-keys" : 'the key count given';
      return {
        suspect: 'C',
        vertex: v,
        reasons: v.keyCountSource === 'operator' ? ['the key count is the one given, not measured'] : [],
        sentence: `${capitalise(name)} holds ${bytesInWords(v.bytesPerKey)} per key (${bytesInWords(total)} over ${v.keyCount!.toLocaleString('en-US')} keys, ${counted}) and grows at ${rateInWords(rate)} (${spread}): far more than a counter needs, state grows with events, not with keys — a list of raw events is kept where a counter would do (suspect C).`,
      };
    }
    const perKey = v.bytesPerKey !== null ? `, ${bytesInWords(v.bytesPerKey)} per key` : '';
    return {
      suspect: 'B',
      vertex: v,
      reasons: v.bytesPerKey === null ? ['no key count (RocksDB estimate-num-keys off, none given): raw events (C) cannot be ruled out'] : [],
      sentence: `Every subtask of ${name} grows steadily, without a plateau (${rateInWords(rate)} in all, ${spread} ${over}${perKey}): keys do not expire — no TTL, or a TTL on read that read-only keys keep alive (suspect B).`,
    };
  }
  return { suspect: 'bounded', vertex: v, sentence: '', reasons: [] };
}

/** "Nothing wrong", with the evidence: the largest vertex's plateau and even spread. */
function boundedFinding(stateful: StateVertexView[]): VertexFinding {
  const v = [...stateful].sort((a, b) => (b.totalBytes ?? 0) - (a.totalBytes ?? 0))[0];
  const name = shortVertexName(v.name);
  const moving: Record<StateTrend, string> = {
    flat: 'flat',
    plateauing: 'levelling off to a plateau',
    growing: 'growing on some subtasks only',
    shrinking: 'shrinking',
    unknown: 'of unknown trend',
  };
  const spread = v.stateSkewPercent !== null ? `, spread evenly (state skew ${Math.round(v.stateSkewPercent)}%)` : '';
  const rate = v.growthPerHour !== null ? ` (${rateInWords(v.growthPerHour)})` : '';
  const reasons = v.trend === 'growing' ? ['part of the subtasks grow: not every one, as keys that never expire would'] : [];
  return {
    suspect: 'bounded',
    vertex: v,
    reasons,
    sentence: `State looks bounded: ${name} holds ${bytesInWords(v.totalBytes ?? 0)}, ${moving[v.trend]} over the window${rate}${spread}.`,
  };
}

/** "At +260 MiB/h the largest subtask reaches X in N days." */
function projectionOf(v: StateVertexView, capacity: { bytes: number; source: string } | null): StateProjection | null {
  const largest = [...v.subtasks].filter((s) => s.stateBytes !== null).sort((a, b) => b.stateBytes! - a.stateBytes!)[0];
  const rate = largest?.growthPerHour ?? null;
  if (!largest || rate === null || rate <= 0 || largest.trend !== 'growing') return null;
  const current = largest.stateBytes!;
  const who = `the largest subtask (subtask ${largest.index}, ${bytesInWords(current)} now)`;
  if (!capacity) {
    const doubleIn = (current / rate) * HOUR_MS;
    return {
      vertexId: v.vertexId,
      subtask: largest.index,
      currentBytes: current,
      growthPerHour: rate,
      targetBytes: null,
      targetSource: null,
      reachInMs: null,
      sentence: `At ${rateInWords(rate)} ${who} doubles in ${spanInWords(doubleIn)}; no limit is known (set one, or Flink reports the TaskManager's managed memory).`,
    };
  }
  const reachInMs = Math.max(0, ((capacity.bytes - current) / rate) * HOUR_MS);
  const when = current >= capacity.bytes ? `is already past ${bytesInWords(capacity.bytes)} (${capacity.source})` : `reaches ${bytesInWords(capacity.bytes)} (${capacity.source}) in ${spanInWords(reachInMs)}`;
  return {
    vertexId: v.vertexId,
    subtask: largest.index,
    currentBytes: current,
    growthPerHour: rate,
    targetBytes: capacity.bytes,
    targetSource: capacity.source,
    reachInMs,
    sentence: `At ${rateInWords(rate)} ${who} ${when}.`,
  };
}

function rocksDbState(input: StateAnalysisInput): RocksDbState {
  const off = 'state size is known only at checkpoints (Flink has no per-operator state-size gauge; a checkpoint\'s full size is the proxy)';
  if (input.rocksdbStatus === 'unknown') return { status: 'unknown', vertices: [], sentence: `RocksDB's native metrics were not read: ${off}.` };
  if (input.rocksdbStatus === 'off') {
    return { status: 'off', vertices: [], sentence: `RocksDB's native metrics are off (no state.backend.rocksdb.metrics.* option, or another state backend): ${off}.` };
  }
  const vertices = input.vertices
    .filter((v) => v.rocksdb !== null)
    .map((v) => ({ vertexId: v.vertexId, ...v.rocksdb! }));
  const parts = vertices.map((r) => {
    const name = shortVertexName(input.vertices.find((v) => v.vertexId === r.vertexId)!.name);
    const figures = [
      r.estimateNumKeys !== null ? `${r.estimateNumKeys.toLocaleString('en-US')} keys` : null,
      r.estimateLiveDataSize !== null ? `${bytesInWords(r.estimateLiveDataSize)} live data` : null,
      r.totalSstFilesSize !== null ? `${bytesInWords(r.totalSstFilesSize)} in SST files` : null,
      r.blockCacheUsage !== null ? `${bytesInWords(r.blockCacheUsage)} of block cache` : null,
    ].filter((f) => f !== null);
    return `${name}: ${figures.length > 0 ? figures.join(', ') : 'none of the four read'}`;
  });
  return { status: 'on', vertices, sentence: `RocksDB's native metrics are on (${parts.join('; ')}).` };
}

function lastStretchIn(stretches: SizePoint[][], from: number): SizePoint[] {
  const last = stretches[stretches.length - 1] ?? [];
  return last.filter((p) => p.t >= from);
}

/** Times of one-step drops of more than half: a restore from an older checkpoint. */
function dropsOf(checkpoints: StateCheckpointInput[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < checkpoints.length; i++) {
    const before = checkpoints[i - 1].stateBytes!;
    if (before >= MIN_SUSPECT_BYTES && checkpoints[i].stateBytes! < before * (1 - RESTORE_DROP)) out.push(checkpoints[i].t);
  }
  return out;
}

/** Times at which the number of subtasks changed: rescales. */
function rescaleTimes(checkpoints: StateCheckpointInput[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < checkpoints.length; i++) if (checkpoints[i].subtasks!.length !== checkpoints[i - 1].subtasks!.length) out.push(checkpoints[i].t);
  return out;
}

function keyGroupsOf(maxParallelism: number, parallelism: number, k: number): { start: number; end: number } {
  const range = computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, k);
  return { start: range.startKeyGroup, end: range.endKeyGroup };
}

/** `+2.1 GiB/h`, `−120 KiB/h`. */
export function rateInWords(perHour: number): string {
  return `${perHour < 0 ? '−' : '+'}${bytesInWords(Math.abs(perHour))}/h`;
}

/** `45 min`, `5.2 h`, `3.2 days`. */
export function spanInWords(ms: number): string {
  if (ms < HOUR_MS) return formatSpan(ms);
  if (ms < 48 * HOUR_MS) return `${(ms / HOUR_MS).toFixed(1)} h`;
  return `${(ms / (24 * HOUR_MS)).toFixed(1)} days`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
