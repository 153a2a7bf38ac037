import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { jobLayoutOf } from './job-layout.ts';
import type { RateColumn } from '../history/job-sample.ts';
import { QueryRangeAnswer, type RangeSeries } from './prometheus-schemas.ts';
import { COUNTER_METRIC, PER_SECOND_METRIC, SAMPLE_METRICS, seriesName } from './reporter-series.ts';
import { toJobSamples, type JobLayout } from './to-job-samples.ts';

/**
 * Real answers of Prometheus 2.42 scraping the PrometheusReporter of a real Flink 2.3.0 every 5 s
 * (e2e/prometheus/recorded/2.3.0, see e2e/prometheus/README.md): the samples derived from the counters' matrices
 * agree with the per-second figures Flink itself exported for the same subtasks over the same window.
 */
const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/prometheus/recorded/2.3.0');
const manifest = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as { jobId: string; window: { start: number; end: number; stepS: number } };

function matrixOf(metric: string): RangeSeries[] {
  const answer = QueryRangeAnswer.parse(JSON.parse(readFileSync(path.join(DIR, 'query_range', `${seriesName(metric)}.json`), 'utf8')));
  if (answer.status !== 'success') throw new Error(`${metric}: an error answer`);
  return answer.data.result;
}

const details = endpoints.jobDetails.response.parse(JSON.parse(readFileSync(path.join(DIR, 'flink-job.json'), 'utf8')));
const layout: JobLayout = jobLayoutOf('recorded', details);
const grid = { from: manifest.window.start * 1000, to: manifest.window.end * 1000, stepMs: manifest.window.stepS * 1000 };
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('samples from a real Prometheus of a real Flink 2.3.0', () => {
  const converted = toJobSamples(layout, SAMPLE_METRICS.flatMap(matrixOf), grid);

  it('the reporter exports every series the console reads, under the names and labels it joins on', () => {
    for (const metric of SAMPLE_METRICS.filter((m) => m !== 'currentInputWatermark')) {
      const series = matrixOf(metric);
      expect(series.length, metric).toBe(6);
      for (const s of series) expect(Object.keys(s.metric)).toEqual(expect.arrayContaining(['job_id', 'task_id', 'subtask_index', 'task_attempt_num', 'tm_id']));
    }
    expect(converted.ignoredSeries).toEqual({});
    expect(converted.duplicatedSeries).toBe(0);
    expect(converted.offGridPoints).toBe(0);
    expect(converted.samples).toHaveLength(61);
    // Every subtask live at every step, on the TaskManager the reporter names.
    for (const sample of converted.samples) {
      expect(sample.jobState).toBe('RUNNING');
      for (const v of sample.vertices) expect(v.subtasks?.taskManager.every((i) => sample.taskManagers[i]?.id.startsWith('127_0_0_1:'))).toBe(true);
    }
  });

  const gaugeOf: Array<[RateColumn, string, 'time' | 'count']> = [
    ['busyTimeMsPerSecond', PER_SECOND_METRIC.busyTimeMsPerSecond!, 'time'],
    ['backPressuredTimeMsPerSecond', PER_SECOND_METRIC.backPressuredTimeMsPerSecond!, 'time'],
    ['idleTimeMsPerSecond', PER_SECOND_METRIC.idleTimeMsPerSecond!, 'time'],
    ['recordsInPerSecond', 'numRecordsInPerSecond', 'count'],
    ['recordsOutPerSecond', 'numRecordsOutPerSecond', 'count'],
  ];
  for (const [column, gauge, kind] of gaugeOf) {
    it(`per-subtask ${column} over the window matches Flink's own ${gauge} within a few %`, () => {
      const theirs = matrixOf(gauge);
      layout.vertices.forEach((vertex, v) => {
        for (let k = 0; k < vertex.parallelism; k++) {
          const ours = converted.samples.map((s) => s.vertices[v].subtasks!.rates[column][k]).filter(Number.isFinite);
          expect(ours.length, `${vertex.name} #${k}: a rate at every step but the first`).toBe(converted.samples.length - 1);
          const flink = mean(theirs.find((s) => s.metric.task_id === vertex.id && s.metric.subtask_index === String(k))!.values.map((p) => p.value));
          // Times: within 2.5% of a second's 1,000 ms; counts: within 3% (and 2 records/s of a figure near 0).
          const tolerance = kind === 'time' ? 25 : Math.max(2, 0.03 * flink);
          expect(Math.abs(mean(ours) - flink), `${vertex.name} #${k}: ours ${mean(ours).toFixed(1)}, Flink's ${flink.toFixed(1)}`).toBeLessThanOrEqual(tolerance);
        }
      });
    });
  }

  it('the job\'s edges from its plan, and TaskManagers named by the REST API\'s ids (a standalone TaskManager: host:port-suffix)', () => {
    expect(layout.edges.map((e) => [e.source, e.target])).toEqual([
      [layout.vertices[0].id, layout.vertices[1].id],
      [layout.vertices[1].id, layout.vertices[2].id],
    ]);
    const restTm = { id: '127.0.0.1:36173-09a991', endpoint: '127.0.0.1:36173' };
    const named = toJobSamples({ ...layout, taskManagers: [restTm] }, SAMPLE_METRICS.flatMap(matrixOf), grid).samples.at(-1)!;
    expect(named.taskManagers).toContainEqual(restTm);
    expect(named.edges).toBe(layout.edges);
  });

  it('the busiest subtask is the one Flink names: throttle #0 at 1,000 ms/s, its sibling at about 320', () => {
    const last = converted.samples.at(-1)!;
    const throttle = layout.vertices.findIndex((v) => v.name === 'throttle');
    expect(last.vertices[throttle].subtasks!.rates.busyTimeMsPerSecond[0]).toBeGreaterThan(990);
    expect(last.vertices[throttle].subtasks!.rates.busyTimeMsPerSecond[1]).toBeLessThan(400);
    expect(last.vertices[throttle].subtasks!.counters.recordsIn[0]).toBe(Number(matrixOf(COUNTER_METRIC.recordsIn).find((s) => s.metric.task_id === layout.vertices[throttle].id && s.metric.subtask_index === '0')!.values.at(-1)!.value));
  });
});
