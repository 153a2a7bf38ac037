import { describe, expect, it } from 'vitest';
import { analyseState, type StateAnalysisInput, type StateCheckpointInput, type StateVertexInput } from './state-analysis.ts';
import { historySlopePerHour, slopePerHour, splitAt, trendOf } from './state-trend.ts';

const MIB = 1024 * 1024;
const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = 1_700_000_000_000;

/** Checkpoints every minute for `count` minutes; `size(k, i)` = subtask k's full size at checkpoint i. */
function series(count: number, parallelism: number, size: (k: number, i: number) => number | null, written?: (k: number, i: number) => number): StateCheckpointInput[] {
  return Array.from({ length: count }, (_, i) => {
    const subtasks = Array.from({ length: parallelism }, (_, k) => ({ stateBytes: size(k, i), checkpointedBytes: written ? written(k, i) : size(k, i) }));
    return { checkpointId: i + 1, t: T0 + i * MIN, stateBytes: subtasks.reduce((s, x) => s + (x.stateBytes ?? 0), 0), subtasks };
  });
}

function vertex(checkpoints: StateCheckpointInput[], overrides: Partial<StateVertexInput> = {}): StateVertexInput {
  return {
    vertexId: 'v1',
    name: 'failed-logins -> Sink: alerts',
    parallelism: checkpoints[checkpoints.length - 1]?.subtasks?.length ?? 4,
    maxParallelism: 128,
    keyed: true,
    broadcastInput: false,
    checkpoints,
    rocksdb: null,
    ...overrides,
  };
}

function input(vertices: StateVertexInput[], overrides: Partial<StateAnalysisInput> = {}): StateAnalysisInput {
  const last = Math.max(...vertices.flatMap((v) => v.checkpoints.map((c) => c.t)), T0);
  return { clusterId: 'c1', jobId: 'j1', jobName: 'failed-logins', to: last, windowMs: 30 * MIN, vertices, restores: [], rocksdbStatus: 'off', ...overrides };
}

describe('state trend', () => {
  it('fits a slope in bytes per hour and tells growing, plateauing and flat apart', () => {
    const linear = Array.from({ length: 10 }, (_, i) => ({ t: T0 + i * MIN, bytes: 10 * MIB + i * MIB }));
    expect(slopePerHour(linear)).toBeCloseTo(60 * MIB, 0);
    expect(trendOf(linear)).toBe('growing');
    const filling = Array.from({ length: 10 }, (_, i) => ({ t: T0 + i * MIN, bytes: (10 - 9 * Math.exp(-i)) * MIB }));
    expect(trendOf(filling)).toBe('plateauing');
    expect(trendOf(Array.from({ length: 10 }, (_, i) => ({ t: T0 + i * MIN, bytes: 10 * MIB + (i % 2) * 1000 })))).toBe('flat');
    expect(trendOf(linear.slice(0, 2))).toBe('unknown');
  });

  it('weighs growth over the history by stretch, so a restore that shrank the state does not read as shrinking', () => {
    const points = [...Array.from({ length: 5 }, (_, i) => ({ t: T0 + i * MIN, bytes: 20 * MIB + i * MIB })), ...Array.from({ length: 5 }, (_, i) => ({ t: T0 + (5 + i) * MIN, bytes: 5 * MIB + i * MIB }))];
    const stretches = splitAt(points, [T0 + 5 * MIN]);
    expect(stretches.map((s) => s.length)).toEqual([5, 5]);
    expect(historySlopePerHour(stretches)).toBeCloseTo(60 * MIB, 0);
    expect(slopePerHour(points)! < 0).toBe(true); // what a plain fit would have said
  });
});

describe('analyseState', () => {
  it('calls a state that grew to a plateau on every subtask bounded, with the evidence', () => {
    const state = analyseState(input([vertex(series(30, 4, (k, i) => (8 - 7 * Math.exp(-i / 2)) * MIB + k * 1000))]));
    expect(state.suspect).toBe('bounded');
    expect(state.sentence).toMatch(/^State looks bounded: failed-logins holds 32 MiB, (flat|levelling off to a plateau) over the window .*spread evenly \(state skew 0%\)\.$/);
    expect(state.projection).toBeNull();
    expect(state.vertices[0].subtasks[3].keyGroups).toEqual({ start: 96, end: 127 });
  });

  it('names B for an even, linear growth, with the projection of the largest subtask to the limit set', () => {
    // Each subtask +12 MiB/h (0.2 MiB a minute), the largest from 100 MiB.
    const state = analyseState(input([vertex(series(30, 4, (k, i) => (100 - k) * MIB + i * 0.2 * MIB))], { capacity: { bytes: 1024 * MIB, source: 'the limit set' } }));
    expect(state.suspect).toBe('B');
    expect(state.sentence).toContain('Every subtask of failed-logins grows steadily, without a plateau (+48 MiB/h in all, 4 of 4 subtasks growing over the last 30 min');
    expect(state.sentence).toContain('(suspect B).');
    expect(state.projection).toMatchObject({ subtask: 0, targetBytes: 1024 * MIB });
    expect(state.projection!.growthPerHour / (12 * MIB)).toBeCloseTo(1, 5);
    // (1024 − 105.8) MiB at 12 MiB/h
    expect(state.projection!.reachInMs! / HOUR).toBeCloseTo((1024 - 105.8) / 12, 1);
    expect(state.projection!.sentence).toBe('At +12 MiB/h the largest subtask (subtask 0, 106 MiB now) reaches 1 GiB (the limit set) in 3.2 days.');
    expect(state.sentence.endsWith(state.projection!.sentence)).toBe(true);
    expect(state.confidence.reasons).toContain('no key count (RocksDB estimate-num-keys off, none given): raw events (C) cannot be ruled out');
  });

  it('names A for one hot subtask, with Flink\'s skew figure, its key groups and the sampled key', () => {
    const state = analyseState(input([vertex(series(20, 8, (k) => (k === 5 ? 200 * MIB : 4 * MIB)), { sampledKey: { key: 'user-42', subtask: 5 } })]));
    expect(state.suspect).toBe('A');
    expect(state.vertexId).toBe('v1');
    expect(state.sentence).toBe(
      'Subtask 5 of failed-logins holds 88% of its 228 MiB of state (state skew 100%, key groups 80–95): one key or a few hold most of the state (suspect A, a whale key); the key sample puts key "user-42" there.',
    );
    expect(state.vertices[0].hotSubtasks).toEqual([5]);
  });

  it('names D for the same state on every subtask of a vertex with a broadcast input: total = parallelism × size', () => {
    const state = analyseState(input([vertex(series(20, 6, () => 30 * MIB), { broadcastInput: true, name: 'enrich' })]));
    expect(state.suspect).toBe('D');
    expect(state.sentence).toBe(
      'Each of the 6 subtasks of enrich holds the same 30 MiB (within 0.0%): a broadcast state duplicated on every subtask, total = 6 × 30 MiB = 180 MiB (suspect D, a broadcast table on every TaskManager).',
    );
  });

  it('an even keyed state without a broadcast input is not D', () => {
    expect(analyseState(input([vertex(series(20, 6, () => 30 * MIB))])).suspect).toBe('bounded');
  });

  it('names C when RocksDB counts far fewer keys than the bytes would need for a counter', () => {
    const rocksdb = { estimateLiveDataSize: 160 * MIB, totalSstFilesSize: 168 * MIB, estimateNumKeys: 4000, blockCacheUsage: 32 * MIB };
    const state = analyseState(input([vertex(series(30, 4, (k, i) => 10 * MIB + i * MIB), { rocksdb })], { rocksdbStatus: 'on' }));
    expect(state.suspect).toBe('C');
    expect(state.sentence).toMatch(/^Failed-logins holds 39\.9 KiB per key \(.* over 4,000 keys, RocksDB's estimate-num-keys\) and grows at \+240 MiB\/h .* \(suspect C\)\. At \+60 MiB\/h/);
    expect(state.rocksdb.status).toBe('on');
    expect(state.rocksdb.sentence).toContain('failed-logins: 4,000 keys, 160 MiB live data, 168 MiB in SST files, 32 MiB of block cache');
    expect(state.vertices[0]).toMatchObject({ keyCount: 4000, keyCountSource: 'rocksdb' });
  });

  it('names B, not C, when the keys the operator counted are few bytes each', () => {
    const state = analyseState(input([vertex(series(30, 4, (k, i) => 10 * MIB + i * MIB))], { keyCount: 1_000_000 }));
    expect(state.suspect).toBe('B');
    expect(state.vertices[0].keyCountSource).toBe('operator');
    expect(state.sentence).toContain('per key)');
  });

  it('reads the full size, not what an incremental checkpoint wrote', () => {
    const state = analyseState(input([vertex(series(30, 4, (k, i) => 10 * MIB + i * MIB, () => 64 * 1024))]));
    expect(state.suspect).toBe('B');
    expect(state.vertices[0].subtasks[0]).toMatchObject({ stateBytes: 39 * MIB, checkpointedBytes: 64 * 1024 });
    expect(state.vertices[0].growthPerHour! / (240 * MIB)).toBeCloseTo(1, 5);
  });

  it('a restore that shrinks the state restarts the growth, and keeps the history\'s rate', () => {
    const before = series(15, 4, (k, i) => 50 * MIB + i * MIB);
    const after = series(15, 4, (k, i) => 5 * MIB + i * MIB).map((c) => ({ ...c, checkpointId: c.checkpointId + 100, t: c.t + 15 * MIN }));
    const restoredAt = T0 + 15 * MIN - 1000;
    const state = analyseState(input([vertex([...before, ...after])], { restores: [restoredAt] }));
    expect(state.suspect).toBe('B');
    expect(state.vertices[0].trend).toBe('growing');
    expect(state.vertices[0].growthPerHour! / (240 * MIB)).toBeCloseTo(1, 5);
    expect(state.vertices[0].subtasks[0].historyGrowthPerHour! / (60 * MIB)).toBeCloseTo(1, 5);
    expect(state.confidence.level).toBe('medium');
    expect(state.confidence.reasons[0]).toContain('restored inside the window');
    // Without the recorded restore, the drop alone is recognised as one.
    expect(analyseState(input([vertex([...before, ...after])])).vertices[0].trend).toBe('growing');
  });

  it('a rescale moves key groups: per-subtask figures count from it, at the new parallelism', () => {
    const before = series(15, 2, (k, i) => 20 * MIB + i * 2 * MIB);
    const after = series(15, 4, (k, i) => 25 * MIB + i * MIB).map((c) => ({ ...c, checkpointId: c.checkpointId + 15, t: c.t + 15 * MIN }));
    const state = analyseState(input([vertex([...before, ...after], { parallelism: 4 })]));
    const v = state.vertices[0];
    expect(v.subtasks).toHaveLength(4);
    expect(v.subtasks[1].keyGroups).toEqual({ start: 32, end: 63 });
    expect(v.subtasks[1].growthPerHour! / (60 * MIB)).toBeCloseTo(1, 5);
    expect(state.confidence.reasons.some((r) => r.includes('rescaled inside the window'))).toBe(true);
  });

  it('says which sizes are missing, and works with the rest', () => {
    const state = analyseState(input([vertex(series(10, 4, (k, i) => (k === 2 && i === 9 ? null : 10 * MIB))), vertex([{ checkpointId: 1, t: T0, stateBytes: null, subtasks: null }], { vertexId: 'v2', name: 'old' })]));
    expect(state.notKnown).toContain('failed-logins -> Sink: alerts: 1 of 4 subtasks reported no state size in checkpoint 10.');
    expect(state.notKnown).toContain('old: its checkpoints report no state size (an older Flink, or the sizes were not stored).');
    expect(state.notKnown.some((s) => s.startsWith("RocksDB's native metrics are off") && s.includes('known only at checkpoints'))).toBe(true);
    expect(state.vertices[0].subtasks[2].stateBytes).toBe(10 * MIB); // its newest known size
  });

  it('says it cannot tell with fewer than 3 checkpoints, or none', () => {
    expect(analyseState(input([vertex(series(2, 4, () => 10 * MIB))])).sentence).toBe(
      "Not enough checkpoints yet: 2 completed with sizes in the last 30 min (3 are needed to see how failed-logins's 40 MiB of state moves).",
    );
    expect(analyseState(input([vertex([])])).suspect).toBe('unknown');
  });
});
