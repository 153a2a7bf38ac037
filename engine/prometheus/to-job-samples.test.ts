import { describe, expect, it } from 'vitest';
import { stateName, type JobSample } from '../history/job-sample.ts';
import { QueryRangeAnswer, type RangeSeries } from './prometheus-schemas.ts';
import { steadyMatrix, type SteadySubtask } from './testing/reporter-matrix.ts';
import { toJobSamples, type JobLayout, type StepGrid } from './to-job-samples.ts';

const JOB = '0123456789abcdef0123456789abcdef';
const SOURCE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const MAP = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const T0 = 1_700_000_000_000;

const layout: JobLayout = {
  clusterId: 'c1',
  jobId: JOB,
  jobName: 'steady',
  jobStartTime: T0 - 60_000,
  vertices: [
    { id: SOURCE, name: 'Source', parallelism: 1, maxParallelism: 128, status: 'RUNNING' },
    { id: MAP, name: 'Map', parallelism: 2, maxParallelism: 128, status: 'RUNNING' },
  ],
  edges: [{ source: SOURCE, target: MAP, shipStrategy: 'HASH' }],
};
const grid: StepGrid = { from: T0, to: T0 + 120_000, stepMs: 10_000 };

const steady = (over: Partial<SteadySubtask> & Pick<SteadySubtask, 'vertexId' | 'subtask'>): SteadySubtask => ({
  jobId: JOB,
  startAt: T0 - 60_000,
  recordsPerSecond: 1000,
  busy: 300,
  backPressured: 100,
  ...over,
});
const job = [steady({ vertexId: SOURCE, subtask: 0, busy: 200 }), steady({ vertexId: MAP, subtask: 0, busy: 900, recordsPerSecond: 3000 }), steady({ vertexId: MAP, subtask: 1 })];

const rate = (sample: JobSample, vertex: number, k: number, column: 'recordsInPerSecond' | 'busyTimeMsPerSecond' | 'backPressuredTimeMsPerSecond' | 'idleTimeMsPerSecond') =>
  sample.vertices[vertex].subtasks!.rates[column][k];

describe('Prometheus range matrices → JobSamples', () => {
  it('gives one sample per step, from Prometheus, costing the cluster nothing, with rates over the subtask\'s own clock', () => {
    // Scraped every 15 s, read every 10 s: steps see the same scrape twice, or a scrape 5 s old. The clock still holds.
    const { samples, ignoredSeries, duplicatedSeries } = toJobSamples(layout, steadyMatrix(job, grid, 15_000), grid);
    expect(samples.map((s) => s.t)).toEqual(Array.from({ length: 13 }, (_, i) => T0 + i * 10_000));
    expect(ignoredSeries).toEqual({});
    expect(duplicatedSeries).toBe(0);
    for (const s of samples) expect(s).toMatchObject({ source: 'prometheus', requests: 0, bytes: 0, jobState: 'RUNNING', jobName: 'steady', edges: layout.edges });
    const last = samples.at(-1)!;
    expect(rate(last, 1, 0, 'recordsInPerSecond')).toBeCloseTo(3000, 0);
    expect(rate(last, 1, 0, 'busyTimeMsPerSecond')).toBeCloseTo(900, 0);
    expect(rate(last, 1, 1, 'recordsInPerSecond')).toBeCloseTo(1000, 0);
    expect(rate(last, 1, 1, 'busyTimeMsPerSecond')).toBeCloseTo(300, 0);
    expect(rate(last, 1, 1, 'backPressuredTimeMsPerSecond')).toBeCloseTo(100, 0);
    expect(rate(last, 1, 1, 'idleTimeMsPerSecond')).toBeCloseTo(600, 0);
    expect(rate(last, 0, 0, 'busyTimeMsPerSecond')).toBeCloseTo(200, 0);
    // The first step has no earlier reading: no rate, not a zero.
    expect(Number.isNaN(rate(samples[0], 1, 0, 'recordsInPerSecond'))).toBe(true);
    expect(stateName(last.vertices[1].subtasks!.state[0])).toBe('RUNNING');
    expect(last.taskManagers).toEqual([{ id: '127_0_0_1:40000_abc123', endpoint: null }]);
    expect(last.vertices[1].subtasks!.taskManager[1]).toBe(0);
  });

  it('stitches a failover: the new attempt is a new series counting from zero, never summed with the old one', () => {
    const failover = T0 + 55_000;
    const matrix = steadyMatrix(
      [steady({ vertexId: SOURCE, subtask: 0 }), steady({ vertexId: MAP, subtask: 0, endAt: failover }), steady({ vertexId: MAP, subtask: 0, attempt: 1, startAt: failover + 8_000, recordsPerSecond: 500 }), steady({ vertexId: MAP, subtask: 1 })],
      grid,
      5_000,
    );
    const { samples } = toJobSamples(layout, matrix, grid);
    const at = (t: number) => samples.find((s) => s.t === t)!.vertices[1].subtasks!;
    expect(at(T0 + 50_000).attempt[0]).toBe(0);
    expect(at(T0 + 50_000).rates.recordsInPerSecond[0]).toBeCloseTo(1000, 0);
    // Between the old attempt's end and the new one's deployment: a gap, not a zero and not the old figures.
    expect(stateName(at(T0 + 60_000).state[0])).toBe('UNKNOWN');
    expect(Number.isNaN(at(T0 + 60_000).counters.recordsIn[0])).toBe(true);
    // The new attempt: its own counters (about 500/s × 5 s, not 115,000 + that), no rate on its first step.
    expect(at(T0 + 70_000).attempt[0]).toBe(1);
    expect(at(T0 + 70_000).counters.recordsIn[0]).toBeLessThan(10_000);
    expect(Number.isNaN(at(T0 + 70_000).rates.recordsInPerSecond[0])).toBe(true);
    expect(at(T0 + 80_000).rates.recordsInPerSecond[0]).toBeCloseTo(500, 0);
    // The other subtask is untouched by it.
    expect(at(T0 + 70_000).rates.recordsInPerSecond[1]).toBeCloseTo(1000, 0);
  });

  it('at a step where the old attempt still shows beside the new one, the subtask is the new attempt', () => {
    const matrix = steadyMatrix([steady({ vertexId: MAP, subtask: 0, endAt: T0 + 85_000 }), steady({ vertexId: MAP, subtask: 0, attempt: 3, startAt: T0 + 63_000, recordsPerSecond: 500 })], grid, 5_000);
    const { samples } = toJobSamples(layout, matrix, grid);
    const at = (t: number) => samples.find((s) => s.t === t)!.vertices[1].subtasks!;
    expect(at(T0 + 60_000).attempt[0]).toBe(0);
    expect([at(T0 + 70_000).attempt[0], at(T0 + 80_000).attempt[0]]).toEqual([3, 3]);
    expect(at(T0 + 80_000).rates.recordsInPerSecond[0]).toBeCloseTo(500, 0);
  });

  it('shows a step without a point as a gap, and a vertex without any series as unavailable, never as zeros', () => {
    const matrix = steadyMatrix(job.filter((s) => s.vertexId === MAP), grid, 10_000).map((s) =>
      s.metric.subtask_index === '1' ? { ...s, values: s.values.filter((p) => p.t !== T0 + 40_000) } : s,
    );
    const { samples } = toJobSamples(layout, matrix, grid);
    const gap = samples.find((s) => s.t === T0 + 40_000)!;
    expect(Number.isNaN(gap.vertices[1].subtasks!.counters.recordsIn[1])).toBe(true);
    expect(Number.isNaN(gap.vertices[1].subtasks!.rates.busyTimeMsPerSecond[1])).toBe(true);
    expect(stateName(gap.vertices[1].subtasks!.state[1])).toBe('UNKNOWN');
    expect(gap.vertices[1].subtasks!.rates.busyTimeMsPerSecond[0]).toBeCloseTo(900, 0);
    expect(gap.vertices[0]).toMatchObject({ subtasks: null, unavailable: 'Prometheus holds no series of this vertex in the window.' });
  });

  it('a step where no series is live is a sample of a job in an unknown state, all gaps', () => {
    const { samples } = toJobSamples(layout, steadyMatrix(job.map((s) => ({ ...s, endAt: T0 + 30_000 })), grid, 10_000), grid);
    expect(samples.at(-1)!.jobState).toBe('UNKNOWN');
    expect(samples.at(-1)!.vertices.every((v) => v.subtasks!.state.every((code) => stateName(code) === 'UNKNOWN'))).toBe(true);
  });

  it('takes Flink\'s per-second gauges as the rates only where the accumulated times are missing', () => {
    const withoutClock = job.map((s) => ({ ...s, without: ['accumulated' as const] }));
    const { samples } = toJobSamples(layout, steadyMatrix(withoutClock, grid, 10_000), grid);
    const last = samples.at(-1)!;
    expect(Number.isNaN(last.vertices[1].subtasks!.counters.accumulatedBusyMs[0])).toBe(true);
    expect(rate(last, 1, 0, 'busyTimeMsPerSecond')).toBe(900);
    expect(rate(last, 1, 0, 'idleTimeMsPerSecond')).toBe(0);
    // With both, the gauges are not used: the accumulated times give the rate over the step.
    const both = toJobSamples(layout, steadyMatrix(job, grid, 10_000).map((s) => (s.metric.__name__.endsWith('busyTimeMsPerSecond') ? { ...s, values: s.values.map((p) => ({ ...p, value: 1 })) } : s)), grid);
    expect(rate(both.samples.at(-1)!, 1, 0, 'busyTimeMsPerSecond')).toBeCloseTo(900, 0);
  });

  it('continues rates across chunks: two halves with the first\'s last sample equal the whole', () => {
    const whole = toJobSamples(layout, steadyMatrix(job, grid, 15_000), grid).samples;
    const first: StepGrid = { ...grid, to: T0 + 60_000 };
    const second: StepGrid = { ...grid, from: T0 + 70_000 };
    const a = toJobSamples(layout, steadyMatrix(job, first, 15_000), first).samples;
    const b = toJobSamples(layout, steadyMatrix(job, second, 15_000), second, a.at(-1)).samples;
    expect([...a, ...b]).toEqual(whole);
  });

  it('joins on ids only: series of another job, of an unknown vertex, beyond the parallelism or without an attempt are ignored and counted', () => {
    const other = steadyMatrix([steady({ vertexId: MAP, subtask: 0, jobId: 'f'.repeat(32), recordsPerSecond: 1e9 })], grid, 10_000);
    const unknownVertex = steadyMatrix([steady({ vertexId: 'c'.repeat(32), subtask: 0 })], grid, 10_000);
    const beyond = steadyMatrix([steady({ vertexId: MAP, subtask: 128 })], grid, 10_000);
    const noAttempt = steadyMatrix([steady({ vertexId: MAP, subtask: 1, recordsPerSecond: 1e9 })], grid, 10_000).map((s) => ({ ...s, metric: { ...s.metric, task_attempt_num: '1e3' } }));
    // A task named like the job's vertex (names are sanitised and not unique): not joined on.
    const sameName = steadyMatrix([steady({ vertexId: 'd'.repeat(32), subtask: 0 })], grid, 10_000).map((s) => ({ ...s, metric: { ...s.metric, task_name: 'Map' } }));
    const { samples, ignoredSeries } = toJobSamples(layout, [...steadyMatrix(job, grid, 10_000), ...other, ...unknownVertex, ...beyond, ...noAttempt, ...sameName], grid);
    expect(ignoredSeries).toEqual({
      'of another job': other.length,
      'of a vertex the job does not have': unknownVertex.length + sameName.length,
      "with a subtask index outside its vertex's max parallelism": beyond.length,
      'without an attempt number': noAttempt.length,
    });
    expect(rate(samples.at(-1)!, 1, 0, 'recordsInPerSecond')).toBeCloseTo(3000, 0);
    expect(rate(samples.at(-1)!, 1, 1, 'recordsInPerSecond')).toBeCloseTo(1000, 0);
  });

  it('a scale-down in the window: the steps before it have the subtasks beyond today\'s parallelism, with their figures', () => {
    const rescaleAt = T0 + 60_000;
    const before = [0, 1, 2].map((k) => steady({ vertexId: MAP, subtask: k, endAt: rescaleAt }));
    const after = [0, 1].map((k) => steady({ vertexId: MAP, subtask: k, attempt: 1, startAt: rescaleAt + 1_000, recordsPerSecond: 1500 }));
    const { samples, ignoredSeries } = toJobSamples(layout, steadyMatrix([...before, ...after], grid, 5_000), grid);
    expect(ignoredSeries).toEqual({});
    expect(samples.map((s) => s.vertices[1].parallelism)).toEqual([3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2]);
    expect(samples[5].vertices[1].subtasks!.rates.recordsInPerSecond[2]).toBeCloseTo(1000, 0);
    expect(samples.at(-1)!.vertices[1].subtasks!.rates.recordsInPerSecond[1]).toBeCloseTo(1500, 0);
    // The layout's vertex is not changed by it.
    expect(layout.vertices[1].parallelism).toBe(2);
  });

  it('reads duplicated series as one, points out of order as in order, and points off the grid not at all', () => {
    const matrix = steadyMatrix(job, grid, 10_000);
    const holey = matrix.map((s) => ({ ...s, metric: { ...s.metric, instance: 'replica-2' }, values: s.values.map((p, i) => (i % 3 === 0 ? { ...p, value: Number.NaN } : p)) }));
    const shuffled = matrix.map((s) => ({ ...s, values: [...s.values].reverse() }));
    const offGrid = matrix.slice(0, 1).map((s) => ({ ...s, values: [{ t: T0 + 5_000, value: 1e12 }] }));
    const expected = toJobSamples(layout, matrix, grid).samples;
    const read = toJobSamples(layout, [...holey, ...shuffled, ...offGrid], grid);
    expect(read.samples).toEqual(expected);
    expect(read.duplicatedSeries).toBe(matrix.length + 1);
    expect(read.offGridPoints).toBe(1);
  });

  it('reads NaN and ±Inf as gaps, and a negative counter or Flink\'s "no watermark yet" as no figure', () => {
    const labels = { job_id: JOB, task_id: MAP, subtask_index: '0', task_attempt_num: '0', tm_id: 'tm' };
    const answer = QueryRangeAnswer.parse({
      status: 'success',
      data: {
        resultType: 'matrix',
        result: [
          { metric: { ...labels, __name__: 'flink_taskmanager_job_task_numRecordsIn' }, values: [[T0 / 1000, 'NaN'], [T0 / 1000 + 10, '+Inf'], [T0 / 1000 + 20, '-Inf'], [T0 / 1000 + 30, '-5'], [T0 / 1000 + 40, '1e3']] },
          { metric: { ...labels, __name__: 'flink_taskmanager_job_task_currentInputWatermark' }, values: [[T0 / 1000, '-9223372036854775808'], [T0 / 1000 + 10, '1700000000000']] },
        ],
      },
    });
    if (answer.status !== 'success') throw new Error('parsed as an error');
    const series: RangeSeries[] = answer.data.result;
    const { samples } = toJobSamples(layout, series, { from: T0, to: T0 + 40_000, stepMs: 10_000 });
    const recordsIn = samples.map((s) => s.vertices[1].subtasks!.counters.recordsIn[0]);
    expect(recordsIn.slice(0, 4).every(Number.isNaN)).toBe(true);
    expect(recordsIn[4]).toBe(1000);
    expect(Number.isNaN(samples[0].vertices[1].subtasks!.watermark[0])).toBe(true);
    expect(samples[1].vertices[1].subtasks!.watermark[0]).toBe(1_700_000_000_000);
    // A point, even NaN, is a live series: the subtask was deployed.
    expect(stateName(samples[0].vertices[1].subtasks!.state[0])).toBe('RUNNING');
  });

  it('names a TaskManager by the REST API\'s id where its sanitised form matches, and never keeps a label value raw', () => {
    const restTm = { id: '127.0.0.1:40000-abc123', endpoint: '127.0.0.1:40000' };
    const hostileTm = '"tm"\n\u001b]0;pwned\u0007\u001b[31mred\u202e' + 'x'.repeat(500);
    const matrix = [...steadyMatrix([steady({ vertexId: MAP, subtask: 0, tmId: '127_0_0_1:40000_abc123' })], grid, 10_000), ...steadyMatrix([steady({ vertexId: MAP, subtask: 1, tmId: hostileTm })], grid, 10_000)];
    const { samples } = toJobSamples({ ...layout, taskManagers: [restTm] }, matrix, grid);
    const last = samples.at(-1)!;
    expect(last.taskManagers[last.vertices[1].subtasks!.taskManager[0]]).toEqual(restTm);
    const shown = last.taskManagers[last.vertices[1].subtasks!.taskManager[1]];
    expect(shown.endpoint).toBeNull();
    // eslint-disable-next-line no-control-regex
    expect(shown.id).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(shown.id.length).toBeLessThanOrEqual(120);
    expect(shown.id.startsWith('"tm" ')).toBe(true);
  });
});
