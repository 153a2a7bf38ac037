import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prometheusEndpoints } from './prometheus-endpoints.ts';
import { BuildInfoAnswer, QueryAnswer, QueryRangeAnswer, SeriesAnswer, TargetsAnswer } from './prometheus-schemas.ts';
import { LABEL, SAMPLE_METRICS, seriesName } from './reporter-series.ts';
import { RECORDED_DIR } from './testing/replay-prometheus.ts';

/** The schemas against every answer a real Prometheus 2.42 gave (e2e/prometheus/recorded/2.3.0). */
const recorded = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED_DIR, file), 'utf8'));
const success = <D>(answer: { status: string; data?: D }): D => {
  expect(answer.status).toBe('success');
  return answer.data as D;
};

describe('Prometheus answers, as recorded from a real one', () => {
  it('every range query parses, values as numbers at ms times', () => {
    for (const file of readdirSync(path.join(RECORDED_DIR, 'query_range'))) {
      const data = success(QueryRangeAnswer.parse(recorded(`query_range/${file}`)));
      expect(data.result.length, file).toBeGreaterThan(0);
      for (const s of data.result) for (const p of s.values) expect(Number.isInteger(p.t) && typeof p.value === 'number', file).toBe(true);
    }
  });

  it('every instant query of raw samples parses as a matrix, at the scrape times (not on a step)', () => {
    for (const file of readdirSync(path.join(RECORDED_DIR, 'raw'))) {
      const data = success(QueryAnswer.parse(recorded(`raw/${file}`)));
      expect(data.resultType, file).toBe('matrix');
    }
    const data = success(QueryAnswer.parse(recorded('raw/flink_taskmanager_job_task_numRecordsIn.json')));
    if (data.resultType !== 'matrix') throw new Error('not a matrix');
    expect(data.result[0].values[0].t % 1000).not.toBe(0);
  });

  it('series, build information and targets parse, with what the check reads', () => {
    const series = success(SeriesAnswer.parse(recorded('series.json')));
    // Every metric the console reads is among the job's task series, with the labels it joins on.
    for (const metric of SAMPLE_METRICS) {
      const found = series.filter((s) => s.__name__ === seriesName(metric));
      expect(found.length, metric).toBeGreaterThan(0);
      for (const s of found) expect(Object.keys(s)).toEqual(expect.arrayContaining(Object.values(LABEL)));
    }
    expect(success(BuildInfoAnswer.parse(recorded('buildinfo.json'))).version).toBe('2.42.0+ds');
    expect(success(TargetsAnswer.parse(recorded('targets.json'))).activeTargets.map((t) => t.scrapeInterval)).toEqual(['5s', '5s', '5s']);
  });

  it('an error envelope parses as an error, whatever else it carries', () => {
    expect(QueryRangeAnswer.parse({ status: 'error', errorType: 'bad_data', error: 'parse error', data: 'x' })).toMatchObject({ status: 'error', error: 'parse error' });
  });

  it('each endpoint names the Prometheus API\'s answer it reads, never a Flink spec schema', () => {
    for (const spec of Object.values(prometheusEndpoints)) {
      expect(spec.specSchema).toMatch(/^Prometheus HTTP API: /);
      expect(spec.path).toMatch(/^\/api\/v1\//);
    }
  });
});
