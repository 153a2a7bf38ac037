import { describe, expect, it } from 'vitest';
import { validateAgainstSpec } from '../rest-spec/validate-against-spec.ts';
import { CheckpointStatsTracker, type CheckpointKind, type SubtaskCheckpointReport } from './checkpoint-stats-tracker.ts';
import {
  jobCheckpointMetrics,
  parseCheckpointingConfig,
  renderCheckpointConfig,
  renderCheckpointDetails,
  renderCheckpointingStatistics,
  renderTaskCheckpointDetails,
  CheckpointConfigError,
  type CheckpointingStatisticsWire,
} from './checkpoint-stats-rest.ts';
import { legacyPercentile, StatsSummary } from './stats-summary.ts';
import { keyPaths, realBody, recordedBody, wire } from './testdata/shape.ts';

// The vertices of the real job the bodies in testdata/real-2.2.1 come from (2 subtasks each).
const SOURCE = '0c80f7e50ab54b30f6a2580946f9e942';
const THROTTLE = '8ad0a339064fd18ef5b9c94282a00e10';
const SINK = 'c4900c5bcf6df3ed992a54fa1368bfb0';
const PLAN = [SOURCE, THROTTLE, SINK].map((vertexId) => ({ vertexId, parallelism: 2 }));

function report(subtaskIndex: number, ackTimestamp: number, over: Partial<SubtaskCheckpointReport> = {}): SubtaskCheckpointReport {
  return {
    subtaskIndex,
    ackTimestamp,
    checkpointedSize: 0,
    stateSize: 0,
    syncDurationMs: 0,
    asyncDurationMs: 0,
    processedData: 0,
    persistedData: 0,
    alignmentDurationMs: 0,
    startDelayMs: 0,
    ...over,
  };
}

/** Expects the same JSON, field order included. */
function expectSameWire(actual: unknown, expected: unknown): void {
  expect(wire(actual)).toEqual(expected);
  expect(keyPaths(wire(actual))).toEqual(keyPaths(expected));
}

function expectSpecValid(template: string, body: unknown): void {
  expect(validateAgainstSpec('GET', template, 200, wire(body))).toEqual([]);
}

describe('StatsSummary: Flink arithmetic', () => {
  it('percentiles follow commons-math LEGACY estimation (values from real Flink summaries)', () => {
    expect(legacyPercentile([18744, 20157, 20669], 0.5)).toBe(20157);
    expect(legacyPercentile([18744, 20157, 20669], 0.9)).toBe(20669);
    expect(legacyPercentile([16542, 16965], 0.5)).toBe(16753.5);
    expect(legacyPercentile([16542, 16965], 0.9)).toBe(16965);
    expect(legacyPercentile([1390, 17362, 19018, 19637, 19784, 21682], 0.5)).toBe(19327.5);
    expect(legacyPercentile([7], 0.999)).toBe(7);
    expect(legacyPercentile([], 0.5)).toBeNaN();
    // Below position 1 → the smallest value.
    expect(legacyPercentile([10, 20, 30], 0.1)).toBe(10);
    expect(legacyPercentile([10, 20, 30, 40], 0.5)).toBe(25);
  });

  it('min/max/avg cover every value, avg truncates like Java long division, negatives are ignored', () => {
    const s = new StatsSummary(10);
    for (const v of [1390, 17362, 19018, 19637, 19784, 21682, -1]) s.add(v);
    expect(s.toWire()).toEqual({ min: 1390, max: 21682, avg: 16478, p50: 19327.5, p90: 21682, p95: 21682, p99: 21682, p999: 21682 });
    expect(s.count).toBe(6);
  });

  it('the histogram is a sliding window of the latest values; min/max/avg are not', () => {
    const s = new StatsSummary(3);
    for (const v of [1000, 1, 2, 3]) s.add(v);
    expect(s.max).toBe(1000);
    expect(s.quantile(0.999)).toBe(3);
  });

  it('without a histogram, or empty, the percentiles are "NaN" on the wire', () => {
    const noHistogram = new StatsSummary();
    noHistogram.add(5);
    expect(noHistogram.toWire()).toEqual({ min: 5, max: 5, avg: 5, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' });
    expect(new StatsSummary(10).toWire().p50).toBe('NaN');
  });
});

/** Rebuilds the tracker state of the real job behind `checkpoints-with-savepoints.json`. */
function trackerLikeRealJob(): CheckpointStatsTracker {
  const t = new CheckpointStatsTracker();
  const real = realBody<CheckpointingStatisticsWire>('checkpoints-with-savepoints.json');
  for (const h of [...real.history].reverse()) {
    t.reportPending(h.id, h.trigger_timestamp, h.checkpoint_type as CheckpointKind, PLAN, h.savepointFormat ?? undefined);
    // Acknowledged subtasks in plan order; the last one carries the sizes and the latest ack timestamp.
    const acks = h.num_acknowledged_subtasks;
    for (let i = 0; i < acks; i++) {
      const vertex = PLAN[Math.floor(i / 2)].vertexId;
      const last = i === acks - 1;
      t.reportSubtask(
        h.id,
        vertex,
        report(i % 2, last ? h.latest_ack_timestamp : h.trigger_timestamp, last ? { checkpointedSize: h.checkpointed_size, stateSize: h.state_size, processedData: h.processed_data } : {}),
      );
    }
    if (h.className === 'completed') t.reportCompleted(h.id, h.external_path);
  }
  t.markDiscarded(1);
  return t;
}

describe('GET /jobs/:jobid/checkpoints', () => {
  it('reproduces a real Flink 2.2.1 body exactly: counts, summary over checkpoints and savepoints, latest, history', () => {
    const result = renderCheckpointingStatistics(trackerLikeRealJob());
    expect(result.status).toBe(200);
    if (result.status !== 200) return;
    expectSameWire(result.body, realBody('checkpoints-with-savepoints.json'));
    expectSpecValid('/jobs/:jobid/checkpoints', result.body);
  });

  it('after a failover: the failed checkpoint, "NaN" percentiles without completed checkpoints (real body)', () => {
    const t = new CheckpointStatsTracker();
    t.reportPending(1, 1795970288936, 'CHECKPOINT', PLAN);
    t.reportSubtask(1, SOURCE, report(0, 1795970291200, { checkpointedSize: 265, stateSize: 265 }));
    t.reportSubtask(1, SOURCE, report(1, 1795970291250, { checkpointedSize: 265, stateSize: 265 }));
    t.reportSubtask(1, THROTTLE, report(0, 1795970291300));
    t.reportFailed(1, 1795970307754, 'Checkpoint Coordinator is suspending.');
    t.reportPending(2, 1795970316979, 'CHECKPOINT', PLAN);
    t.reportSubtask(2, SOURCE, report(0, 1795970318800, { checkpointedSize: 265, stateSize: 265 }));
    t.reportSubtask(2, SOURCE, report(1, 1795970318820, { checkpointedSize: 265, stateSize: 265 }));
    t.reportSubtask(2, THROTTLE, report(1, 1795970318831));
    const result = renderCheckpointingStatistics(t);
    if (result.status !== 200) throw new Error('expected 200');
    expectSameWire(result.body, realBody('checkpoints-after-failover.json'));
    expectSpecValid('/jobs/:jobid/checkpoints', result.body);
  });

  it('keeps the last web.checkpoints.history entries, finds the latest ones by ID after they left the history', () => {
    const t = new CheckpointStatsTracker({ historySize: 2 });
    for (let id = 1; id <= 4; id++) {
      t.reportPending(id, id * 1000, id === 1 ? 'SAVEPOINT' : 'CHECKPOINT', PLAN);
      for (const v of PLAN) for (let i = 0; i < 2; i++) t.reportSubtask(id, v.vertexId, report(i, id * 1000 + 10));
      if (id === 3) t.reportFailed(id, id * 1000 + 50, 'Checkpoint expired before completing.');
      else t.reportCompleted(id, `file:/tmp/chk-${id}`);
    }
    expect(t.history().map((c) => c.checkpointId)).toEqual([4, 3]);
    expect(t.latestSavepoint()?.checkpointId).toBe(1);
    expect(renderCheckpointDetails(t, 1).status).toBe(200);
    expect(renderCheckpointDetails(t, 2)).toEqual({ status: 404, message: 'Could not find checkpointing statistics for checkpoint 2.' });
    expect(t.counts).toEqual({ restored: 0, total: 4, inProgress: 0, completed: 3, failed: 1 });
  });

  it('a subtask reports once; unknown vertices and indexes are ignored', () => {
    const t = new CheckpointStatsTracker();
    t.reportPending(1, 0, 'CHECKPOINT', PLAN);
    expect(t.reportSubtask(1, SOURCE, report(0, 5))).toBe(true);
    expect(t.reportSubtask(1, SOURCE, report(0, 6))).toBe(false);
    expect(t.reportSubtask(1, SOURCE, report(2, 6))).toBe(false);
    expect(t.reportSubtask(1, 'ffffffffffffffffffffffffffffffff', report(0, 6))).toBe(false);
    expect(t.reportSubtask(9, SOURCE, report(1, 6))).toBe(false);
    expect(() => t.reportCompleted(9, 'x')).toThrow(/not in progress/);
    expect(() => t.reportPending(1, 0, 'CHECKPOINT', PLAN)).toThrow(/already reported/);
  });

  it('restores: counts.restored and latest.restored', () => {
    const t = new CheckpointStatsTracker();
    t.reportRestored({ checkpointId: 4, restoreTimestamp: 1795970352252, isSavepoint: true, externalPath: 'file:/sp/savepoint-9cc7ea-852a420cefd0' });
    const r = renderCheckpointingStatistics(t);
    if (r.status !== 200) throw new Error('expected 200');
    expect(r.body.counts.restored).toBe(1);
    expect(r.body.latest.restored).toEqual({ id: 4, restore_timestamp: 1795970352252, is_savepoint: true, external_path: 'file:/sp/savepoint-9cc7ea-852a420cefd0' });
    expectSpecValid('/jobs/:jobid/checkpoints', r.body);
  });

  it('404 when checkpointing is disabled, with Flink\'s message', () => {
    expect(renderCheckpointingStatistics(undefined)).toEqual({ status: 404, message: 'Checkpointing has not been enabled.' });
  });
});

/** Checkpoint 2 of the real job (completed) and 3 (in progress), as their details were captured. */
function trackerWithDetails(): CheckpointStatsTracker {
  const t = new CheckpointStatsTracker();
  t.reportPending(2, 1795969949449, 'CHECKPOINT', PLAN);
  t.reportSubtask(2, SOURCE, report(0, 1795969949513, { checkpointedSize: 265, stateSize: 265, syncDurationMs: 2, asyncDurationMs: 1, startDelayMs: 37 }));
  t.reportSubtask(2, SOURCE, report(1, 1795969949518, { checkpointedSize: 265, stateSize: 265, syncDurationMs: 3, asyncDurationMs: 2, startDelayMs: 51 }));
  t.reportSubtask(2, THROTTLE, report(0, 1795969971100));
  t.reportSubtask(2, THROTTLE, report(1, 1795969971110));
  t.reportSubtask(2, SINK, report(0, 1795969971121, { checkpointedSize: 2964, stateSize: 2964, processedData: 244026 }));
  t.reportSubtask(2, SINK, report(1, 1795969971131, { checkpointedSize: 2964, stateSize: 2964, processedData: 244026 }));
  t.reportCompleted(2, 'file:/work/main/.cache/flink/2.2.1/checkpoints/ee33243ed702a032130139b8b1dcacb7/chk-2');
  t.reportPending(3, 1795969971156, 'CHECKPOINT', PLAN);
  t.reportSubtask(3, SOURCE, report(0, 1795969971230, { checkpointedSize: 265, stateSize: 265 }));
  t.reportSubtask(3, SOURCE, report(1, 1795969971242, { checkpointedSize: 265, stateSize: 265 }));
  t.reportSubtask(3, THROTTLE, report(0, 1795969971320, { processedData: 1561 }));
  return t;
}

describe('GET /jobs/:jobid/checkpoints/details/:checkpointid', () => {
  it('a completed checkpoint with its tasks, as real Flink writes it', () => {
    const r = renderCheckpointDetails(trackerWithDetails(), 2);
    if (r.status !== 200) throw new Error('expected 200');
    expectSameWire(r.body, realBody('details-completed.json'));
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid', r.body);
  });

  it('an in-progress checkpoint: unacknowledged tasks have -1 timestamps and durations', () => {
    const r = renderCheckpointDetails(trackerWithDetails(), 3);
    if (r.status !== 200) throw new Error('expected 200');
    expectSameWire(r.body, realBody('details-in-progress.json'));
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid', r.body);
  });

  it('failed checkpoints carry failure_timestamp and failure_message; tasks say FAILED', () => {
    const t = trackerWithDetails();
    t.reportFailed(3, 1795969990000, 'Checkpoint expired before completing.');
    const r = renderCheckpointDetails(t, 3);
    if (r.status !== 200) throw new Error('expected 200');
    expect(r.body).toMatchObject({ className: 'failed', status: 'FAILED', failure_timestamp: 1795969990000, end_to_end_duration: 1795969990000 - 1795969971156 });
    expect(Object.values(r.body.tasks).every((task) => task.status === 'FAILED')).toBe(true);
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid', r.body);
  });
});

describe('GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', () => {
  it('acknowledged subtasks and the task summary (NaN percentiles, end-to-end from ack timestamps), as real Flink', () => {
    const r = renderTaskCheckpointDetails(trackerWithDetails(), 2, SOURCE);
    if (r.status !== 200) throw new Error('expected 200');
    expectSameWire(r.body, realBody('subtasks-completed.json'));
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', r.body);
  });

  it('pending subtasks of an in-progress checkpoint', () => {
    const r = renderTaskCheckpointDetails(trackerWithDetails(), 3, SINK);
    if (r.status !== 200) throw new Error('expected 200');
    expectSameWire(r.body, realBody('subtasks-in-progress.json'));
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', r.body);
  });

  it('aborted and unaligned subtasks are flagged', () => {
    const t = new CheckpointStatsTracker();
    t.reportPending(1, 100, 'UNALIGNED_CHECKPOINT', PLAN);
    t.reportSubtask(1, SINK, report(0, 150, { unalignedCheckpoint: true, persistedData: 4096, completed: false }));
    const r = renderTaskCheckpointDetails(t, 1, SINK);
    if (r.status !== 200) throw new Error('expected 200');
    expect(r.body.subtasks[0]).toMatchObject({ className: 'completed', unaligned_checkpoint: true, aborted: true, alignment: { persisted: 4096 } });
    expectSpecValid('/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', r.body);
  });

  it('404s with Flink\'s messages', () => {
    expect(renderTaskCheckpointDetails(trackerWithDetails(), 42, SINK)).toEqual({ status: 404, message: 'Could not find checkpointing statistics for checkpoint 42.' });
    expect(renderTaskCheckpointDetails(trackerWithDetails(), 2, 'ffffffffffffffffffffffffffffffff')).toEqual({
      status: 404,
      message: 'There is no checkpoint statistics for task ffffffffffffffffffffffffffffffff.',
    });
  });
});

describe('GET /jobs/:jobid/checkpoints/config', () => {
  const flinkShConfig = {
    'execution.checkpointing.interval': '10 s',
    'execution.checkpointing.dir': 'file:///tmp/ck',
    'execution.checkpointing.savepoint-dir': 'file:///tmp/sp',
    'state.checkpoints.dir': 'file:///tmp/ck',
    'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION',
    'execution.checkpointing.num-retained': '3',
  };

  it('the recorded 2.3.0, 2.2.1 and 1.20.3 bodies, from the configuration of e2e/flink/flink.sh', () => {
    const config = parseCheckpointingConfig(flinkShConfig);
    expect(config).toMatchObject({ intervalMs: 10_000, numRetained: 3, directory: 'file:///tmp/ck', savepointDirectory: 'file:///tmp/sp' });
    const r = renderCheckpointConfig('ee33243ed702a032130139b8b1dcacb7', config);
    if (r.status !== 200) throw new Error('expected 200');
    expectSameWire(r.body, recordedBody('2.3.0', 'checkpoints-config.json'));
    expectSameWire(r.body, recordedBody('2.2.1', 'checkpoints-config.json'));
    expectSameWire(r.body, recordedBody('1.20.3', 'checkpoints-config.json'));
    expectSpecValid('/jobs/:jobid/checkpoints/config', r.body);
  });

  it('disabled without an interval; bad values name the key', () => {
    expect(parseCheckpointingConfig({})).toBeUndefined();
    expect(renderCheckpointConfig('ee33243ed702a032130139b8b1dcacb7', undefined)).toEqual({
      status: 404,
      message: 'Checkpointing is not enabled for this job (ee33243ed702a032130139b8b1dcacb7).',
    });
    expect(() => parseCheckpointingConfig({ 'execution.checkpointing.interval': 'often' })).toThrow(CheckpointConfigError);
    expect(() => parseCheckpointingConfig({ 'execution.checkpointing.interval': '1 s', 'execution.checkpointing.num-retained': '0' })).toThrow(
      /execution.checkpointing.num-retained/,
    );
    expect(parseCheckpointingConfig({ 'execution.checkpointing.interval': '1 min', 'state.checkpoints.num-retained': '2' })?.numRetained).toBe(2);
  });
});

describe('job checkpoint metrics', () => {
  it('reports the latest completed checkpoint, -1 / n/a before any', () => {
    expect(jobCheckpointMetrics(new CheckpointStatsTracker()).get('lastCheckpointExternalPath')).toBe('n/a');
    const m = jobCheckpointMetrics(trackerLikeRealJob());
    expect(m.get('lastCompletedCheckpointId')).toBe('6');
    expect(m.get('lastCheckpointSize')).toBe('6458');
    expect(m.get('lastCheckpointDuration')).toBe('19637');
    expect(m.get('totalNumberOfCheckpoints')).toBe('7');
  });
});
