import { describe, expect, it } from 'vitest';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import type { JobGraph, MetricAggregate, VertexView } from '../contracts/jobs.ts';
import { backpressureLevelOf } from './backpressure-level.ts';
import { diagnoseSamples } from './diagnose-job.ts';
import { firstLook, withFlinkNow } from './flink-now.ts';
import { buildWindow, uniform } from './testing/window-builder.ts';
import { stateCode } from '../history/job-sample.ts';
import { withRates } from '../sampling/sample-rates.ts';
import { sampleAt } from '../sampling/testing/refreshing-jobmanager.ts';

const agg = (max: number, avg: number, min = 0): MetricAggregate => ({ min, max, avg, sum: avg * 4 });

function vertex(id: string, busy: MetricAggregate, backPressuredMax: number, dataSkewPercent: number | null = null): VertexView {
  return {
    id,
    name: id,
    parallelism: 4,
    maxParallelism: 128,
    status: 'RUNNING',
    tasks: {},
    recordsInPerSecond: 100,
    recordsOutPerSecond: 100,
    busyTimeMsPerSecond: busy,
    backPressuredTimeMsPerSecond: agg(backPressuredMax, backPressuredMax / 2),
    idleTimeMsPerSecond: agg(1000, 500),
    busySkew: busy.avg > 0 ? busy.max / busy.avg : null,
    dataSkewPercent,
    backpressureLevel: backpressureLevelOf(backPressuredMax),
  };
}

/** The real test job's picture: the source HIGH behind a saturated, skewed `throttle`. */
function hotJob(): JobGraph {
  return {
    clusterId: 'c',
    jobId: 'j'.repeat(32),
    name: 'gatewaymeter-test',
    state: 'RUNNING',
    startTime: 1,
    durationMs: 1,
    maxParallelism: 128,
    endTime: null,
    fetchedAt: 1_700_000_000_000,
    requestCount: 4,
    vertices: [vertex('source', agg(320, 300), 744), vertex('throttle', agg(1000, 42), 0, 39), vertex('tenant-cost', agg(12, 8), 0)],
    edges: [
      { source: 'source', target: 'throttle', shipStrategy: 'HASH' },
      { source: 'throttle', target: 'tenant-cost', shipStrategy: 'HASH' },
    ],
  };
}

const calmJob = (): JobGraph => ({ ...hotJob(), vertices: hotJob().vertices.map((v) => vertex(v.id, agg(40, 30), 0)) });

/** A window that shows nothing wrong, on enough evidence. */
function calmDiagnosis(seconds: number): JobDiagnosis {
  const samples = buildWindow({ vertices: [{ id: 'source', name: 'source', subtasks: uniform(4, { busy: 40, recordsOut: 50 }) }], samples: seconds / 10 + 1 });
  return diagnoseSamples(samples, 60_000);
}

describe('firstLook: the reading order over Flink\'s current figures', () => {
  it('names the busy vertex downstream of the HIGH one, with max/mean and Flink\'s Data Skew, as a likely hot key', () => {
    const finding = firstLook(hotJob())!;
    expect(finding).toMatchObject({ kind: 'skew', severity: 'critical', vertexId: 'throttle' });
    expect(finding.sentence).toBe(
      'Flink now: throttle is saturated (busiest subtask 1,000 ms/s, average 42 ms/s, max/mean 24×, Data Skew 39%): likely a hot key (its least busy subtask far below the busiest). source (HIGH) is back-pressured behind it.',
    );
  });

  it('tells a hot subtask at parallelism 2 (max/mean cannot reach 2× there) from subtasks busy alike', () => {
    const two = (min: number) => ({ ...hotJob(), vertices: [vertex('source', agg(320, 300), 744), { ...vertex('throttle', agg(1000, (1000 + min) / 2, min), 0), parallelism: 2 }] });
    expect(firstLook(two(346))).toMatchObject({ kind: 'skew', vertexId: 'throttle' });
    expect(firstLook(two(930))).toMatchObject({ kind: 'under-provisioned', vertexId: 'throttle' });
    expect(firstLook(two(930))!.sentence).toMatch(/its subtasks are busy alike: likely under-provisioned\. source \(HIGH\) is back-pressured behind it\.$/);
  });

  it('takes no figure of a vertex deployed too recently for its per-second gauges to have measured anything', () => {
    // Flink's idle and back-pressured gauges read 0 until their first 5 s view update (busy = 1,000 ms/s), and the
    // JobManager serves what it fetched up to 10 s before: a vertex deployed 12 s ago may still show that.
    const fresh = (job: JobGraph, id: string, ageMs: number): JobGraph => ({ ...job, vertices: job.vertices.map((v) => (v.id === id ? { ...v, startTime: job.fetchedAt - ageMs } : v)) });
    const startingSource = { ...calmJob(), vertices: calmJob().vertices.map((v) => (v.id === 'source' ? vertex('source', agg(1000, 1000, 1000), 0) : v)) };
    expect(firstLook(fresh(startingSource, 'source', 12_000))).toBeNull();
    expect(firstLook(fresh(startingSource, 'source', 16_000))).toMatchObject({ kind: 'under-provisioned', vertexId: 'source' });
    expect(firstLook(fresh(hotJob(), 'throttle', 3_000))).toMatchObject({ kind: 'unclear-backpressure', vertexId: 'source' });
    const d = withFlinkNow(calmDiagnosis(10), fresh(startingSource, 'source', 12_000));
    expect(d.finding.severity).toBe('unknown');
    expect(d.finding.sentence).toMatch(/^Flink now: no vertex with figures is back-pressured or busy \(source started 12 s ago: its figures do not measure anything yet\)\. /);
  });

  it('is silent when Flink shows nothing to act on, and for a job that is not running', () => {
    expect(firstLook(calmJob())).toBeNull();
    expect(firstLook({ ...hotJob(), state: 'RESTARTING' })).toBeNull();
  });
});

describe('withFlinkNow: no verdict without evidence, and never green while Flink says HIGH', () => {
  it('gives a window without enough evidence Flink\'s first look, and says what it rests on', () => {
    const young = calmDiagnosis(10);
    expect(young.finding).toMatchObject({ kind: 'not-enough-data', severity: 'unknown' });
    const d = withFlinkNow(young, hotJob());
    expect(d.basis).toEqual({ source: 'flink-now', fetchedAt: hotJob().fetchedAt, reason: 'no-evidence' });
    expect(d.finding).toMatchObject({ kind: 'skew', severity: 'critical', vertexId: 'throttle' });
  });

  it('keeps a window without a verdict unknown, never green, when Flink shows nothing either', () => {
    const d = withFlinkNow(calmDiagnosis(10), calmJob());
    expect(d.finding.severity).toBe('unknown');
    expect(d.finding.sentence).toMatch(/^Flink now: no vertex is back-pressured or busy\. No verdict yet over the last 60 s: the subtasks' figures cover 10 s so far, and saying nothing is wrong takes 30 s\.$/);
  });

  it('replaces a green verdict while Flink reports a vertex HIGH that the window does not show yet', () => {
    const calm = calmDiagnosis(60);
    expect(calm.finding).toMatchObject({ kind: 'nothing-wrong', severity: 'ok' });
    const d = withFlinkNow(calm, hotJob());
    expect(d.finding.severity).toBe('critical');
    expect(d.basis).toMatchObject({ source: 'flink-now', reason: 'flink-high' });
    expect(d.finding.details.at(-1)).toMatch(/^The window's figures show nothing wrong yet/);
  });

  it('gives no green verdict on a first reading 10 min older than the watch, 2 s after it began', () => {
    const subtasks = [{ busy: 40, backPressured: 0, idle: 960, recordsPerSecond: 50 }];
    const startedAt = 1_000_000;
    const watchAt = startedAt + 900_000;
    // Nobody polled the JobManager for 10 min: its last fetch is that old; the console's request triggers a new one.
    const jm = { startedAt, subtasks, refreshes: [watchAt - 600_000, watchAt + 1_000] };
    const first = withRates(undefined, sampleAt(jm, watchAt));
    const second = withRates(first, sampleAt(jm, watchAt + 2_000));
    const d = diagnoseSamples([first, second], 60_000);
    expect(d.finding.kind).not.toBe('nothing-wrong');
    expect(d.finding.severity).toBe('unknown');
  });

  it('gives a job that ended the verdict its figures support, not a "so far" that never comes', () => {
    const samples = buildWindow({ vertices: [{ id: 'source', name: 'source', subtasks: uniform(4, { busy: 40, recordsOut: 50 }) }], samples: 8 });
    const ended = samples.map((sample, i) => (i < samples.length - 1 ? sample : { ...sample, jobState: 'FINISHED', vertices: sample.vertices.map((v) => ({ ...v, status: 'FINISHED', subtasks: v.subtasks && { ...v.subtasks, state: v.subtasks.state.map(() => stateCode('FINISHED')) } })) }));
    expect(diagnoseSamples(ended, 60_000).finding.kind).toBe('nothing-wrong');
  });

  it('keeps a green verdict on enough evidence when Flink reports nothing HIGH', () => {
    const calm = calmDiagnosis(60);
    expect(withFlinkNow(calm, calmJob())).toMatchObject({ finding: { kind: 'nothing-wrong' }, basis: { source: 'window' } });
  });

  it('claims nothing of Flink\'s current figures for a job that is not running, or for vertices without figures', () => {
    const young = calmDiagnosis(10);
    expect(withFlinkNow(young, { ...hotJob(), state: 'RESTARTING' })).toEqual({ ...young, basis: { source: 'window' } });
    const partly = calmJob();
    partly.vertices[1] = { ...partly.vertices[1], busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, metricsUnavailable: 'timed out' };
    expect(withFlinkNow(young, partly).finding.sentence).toMatch(/^Flink now: no vertex with figures is back-pressured or busy \(throttle has none yet\)\. No verdict yet/);
    const none = { ...calmJob(), vertices: calmJob().vertices.map((v) => ({ ...v, busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null })) };
    expect(withFlinkNow(young, none).finding.sentence).toMatch(/^Flink has no current figures for this job yet\. No verdict yet/);
  });

  it('keeps a window finding that calls for attention as it is', () => {
    const hot = { ...calmDiagnosis(60), finding: { ...calmDiagnosis(60).finding, kind: 'skew' as const, severity: 'critical' as const } };
    expect(withFlinkNow(hot, calmJob())).toMatchObject({ finding: { kind: 'skew' }, basis: { source: 'window' } });
  });
});
