import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { stateName, type RateColumn } from '../history/job-sample.ts';
import { jobLayoutOf } from './job-layout.ts';
import { readWindow } from './prometheus-history.ts';
import { QueryRangeAnswer, type RangeSeries } from './prometheus-schemas.ts';
import { COUNTER_METRIC, PER_SECOND_METRIC, SAMPLE_METRICS, seriesName } from './reporter-series.ts';
import { recordedDir, recordedSeries, startReplayPrometheus, type ReplayPrometheus } from './testing/replay-prometheus.ts';
import { toJobSamples } from './to-job-samples.ts';

/**
 * Real answers of Prometheus 2.42 scraping the PrometheusReporter of a real Flink every 5 s
 * (e2e/prometheus/recorded/, see e2e/prometheus/README.md): the samples derived from the counters' matrices agree with
 * the per-second figures Flink itself exported for the same subtasks, and a failover reads as the console's own
 * history reads one.
 */
function recorded(recording: string) {
  const dir = recordedDir(recording);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { window: { start: number; end: number; stepS: number } };
  const matrixOf = (metric: string): RangeSeries[] => {
    const answer = QueryRangeAnswer.parse(JSON.parse(readFileSync(path.join(dir, 'query_range', `${seriesName(metric)}.json`), 'utf8')));
    if (answer.status !== 'success') throw new Error(`${metric}: an error answer`);
    return answer.data.result;
  };
  const details = endpoints.jobDetails.response.parse(JSON.parse(readFileSync(path.join(dir, 'flink-job.json'), 'utf8')));
  const layout = jobLayoutOf('recorded', details);
  const settledFrom = Math.max(...details.vertices.map((v) => v['start-time'] ?? 0)) + SIXTY_SECONDS;
  const grid = { from: manifest.window.start * 1000, to: manifest.window.end * 1000, stepMs: manifest.window.stepS * 1000 };
  return { layout, grid, matrixOf, settledFrom, converted: toJobSamples(layout, SAMPLE_METRICS.flatMap(matrixOf), grid) };
}
const SIXTY_SECONDS = 60_000;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

const GAUGE_OF: Array<[RateColumn, string, 'time' | 'count']> = [
  ['busyTimeMsPerSecond', PER_SECOND_METRIC.busyTimeMsPerSecond!, 'time'],
  ['backPressuredTimeMsPerSecond', PER_SECOND_METRIC.backPressuredTimeMsPerSecond!, 'time'],
  ['idleTimeMsPerSecond', PER_SECOND_METRIC.idleTimeMsPerSecond!, 'time'],
  ['recordsInPerSecond', 'numRecordsInPerSecond', 'count'],
  ['recordsOutPerSecond', 'numRecordsOutPerSecond', 'count'],
];

for (const recording of ['2.3.0', '1.20.5']) {
  describe(`samples from a real Prometheus of a real Flink ${recording}`, () => {
    const { layout, grid, matrixOf, settledFrom, converted } = recorded(recording);

    it('the reporter exports every series the console reads, under the names and labels it joins on', () => {
      for (const metric of SAMPLE_METRICS.filter((m) => m !== 'currentInputWatermark')) {
        const series = matrixOf(metric);
        expect(series.length, metric).toBe(6);
        for (const s of series) expect(Object.keys(s.metric)).toEqual(expect.arrayContaining(['job_id', 'task_id', 'subtask_index', 'task_attempt_num', 'tm_id']));
      }
      expect(converted).toMatchObject({ ignoredSeries: {}, duplicatedSeries: 0, offGridPoints: 0 });
      expect(converted.samples).toHaveLength((grid.to - grid.from) / grid.stepMs + 1);
      for (const sample of converted.samples.filter((s) => s.jobState === 'RUNNING')) {
        for (const v of sample.vertices) expect(v.subtasks?.taskManager.every((i) => sample.taskManagers[i]?.id.startsWith('127_0_0_1:'))).toBe(true);
      }
    });

    for (const [column, gauge, kind] of GAUGE_OF) {
      it(`per-subtask ${column} over the window matches Flink's own ${gauge} within a few %`, () => {
        const theirs = matrixOf(gauge);
        layout.vertices.forEach((vertex, v) => {
          for (let k = 0; k < vertex.parallelism; k++) {
            const series = theirs.find((s) => s.metric.task_id === vertex.id && s.metric.subtask_index === String(k))!;
            // Flink's meters and time gauges average the last 60 s: at each step a minute after the vertex started,
            // its figure beside the mean of our rates over the 12 steps of that minute.
            const steps = SIXTY_SECONDS / grid.stepMs;
            const pairs = converted.samples.flatMap((s, i) => {
              if (s.t < settledFrom || i + 1 < steps) return [];
              const minute = converted.samples.slice(i + 1 - steps, i + 1).map((m) => m.vertices[v].subtasks!.rates[column][k]);
              const flink = series.values.find((p) => p.t === s.t)?.value;
              return minute.every(Number.isFinite) && flink !== undefined && Number.isFinite(flink) ? [[mean(minute), flink]] : [];
            });
            expect(pairs.length, `${vertex.name} #${k}`).toBeGreaterThanOrEqual(10);
            const ours = mean(pairs.map((p) => p[0]));
            const flink = mean(pairs.map((p) => p[1]));
            // Times: within 2.5% of a second's 1,000 ms; counts: within 4% (and 2 records/s of a figure near 0): Flink
            // updates its meters every 5 s, so its minute may end up to a step before ours on a rate still settling.
            const tolerance = kind === 'time' ? 25 : Math.max(2, 0.04 * flink);
            expect(Math.abs(ours - flink), `${vertex.name} #${k}: ours ${ours.toFixed(1)}, Flink's ${flink.toFixed(1)}`).toBeLessThanOrEqual(tolerance);
          }
        });
      });
    }

    it('the busiest subtask is the one Flink names: throttle #0 at 1,000 ms/s, its sibling far below', () => {
      const last = converted.samples.at(-1)!;
      const throttle = layout.vertices.findIndex((v) => v.name === 'throttle');
      expect(last.vertices[throttle].subtasks!.rates.busyTimeMsPerSecond[0]).toBeGreaterThan(990);
      expect(last.vertices[throttle].subtasks!.rates.busyTimeMsPerSecond[1]).toBeLessThan(400);
      const recordsIn = matrixOf(COUNTER_METRIC.recordsIn).find((s) => s.metric.task_id === layout.vertices[throttle].id && s.metric.subtask_index === '0')!;
      expect(last.vertices[throttle].subtasks!.counters.recordsIn[0]).toBe(recordsIn.values.at(-1)!.value);
    });
  });
}

describe('a failover recorded by a real Prometheus (a TaskManager killed, every subtask redeployed)', () => {
  const { layout, grid, converted } = recorded('2.3.0-failover');
  const throttle = layout.vertices.findIndex((v) => v.name === 'throttle');
  const at = (t: number) => converted.samples.find((s) => s.t === t)!;
  const lastOld = converted.samples.filter((s) => s.vertices[throttle].subtasks!.attempt[0] === 0 && s.jobState === 'RUNNING').at(-1)!.t;
  const firstNew = converted.samples.find((s) => s.vertices[throttle].subtasks!.attempt[0] === 1)!.t;

  it('attempt 0 until the failover, a gap while nothing runs, attempt 1 after, on another TaskManager', () => {
    expect(firstNew - lastOld).toBe(25_000);
    for (let t = lastOld + grid.stepMs; t < firstNew; t += grid.stepMs) {
      expect(at(t).jobState).toBe('UNKNOWN');
      expect(at(t).vertices.every((v) => v.subtasks!.state.every((code) => stateName(code) === 'UNKNOWN'))).toBe(true);
      expect(Number.isNaN(at(t).vertices[throttle].subtasks!.counters.recordsIn[0])).toBe(true);
    }
    const before = at(lastOld);
    const after = at(firstNew);
    expect(before.taskManagers[before.vertices[throttle].subtasks!.taskManager[0]].id).not.toBe(after.taskManagers[after.vertices[throttle].subtasks!.taskManager[0]].id);
  });

  it('the new attempt counts from zero, never summed with the old one, and has rates from its second step', () => {
    const oldCount = at(lastOld).vertices[throttle].subtasks!.counters.recordsIn[0];
    const newCount = at(firstNew).vertices[throttle].subtasks!.counters.recordsIn[0];
    expect(oldCount).toBeGreaterThan(100_000);
    expect(newCount).toBeLessThan(1_000);
    expect(Number.isNaN(at(firstNew).vertices[throttle].subtasks!.rates.recordsInPerSecond[0])).toBe(true);
    expect(at(firstNew + grid.stepMs).vertices[throttle].subtasks!.rates.recordsInPerSecond[0]).toBeGreaterThan(300);
    expect(at(firstNew + grid.stepMs).vertices[throttle].subtasks!.rates.busyTimeMsPerSecond[0]).toBeGreaterThan(990);
  });

  const servers: ReplayPrometheus[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  it('read through a store, the failover is said as a gap of every subtask', async () => {
    const server = await startReplayPrometheus({ series: recordedSeries('2.3.0-failover') });
    servers.push(server);
    const read = await readWindow(new FlinkRestClient({ baseUrl: server.url }), layout, grid.from, grid.to, grid.stepMs);
    expect(read.samples).toEqual(converted.samples);
    const from = lastOld + grid.stepMs;
    const to = firstNew - grid.stepMs;
    expect(read.gaps).toEqual([{ from, to, subtasksMissing: 6 }]);
    expect(read.missing).toEqual([`From ${new Date(from).toISOString()} to ${new Date(to).toISOString()}, up to 6 subtasks had no figures in Prometheus: shown as gaps.`]);
  });
});
