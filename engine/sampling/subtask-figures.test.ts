import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { aggregateMetrics, type MetricValues } from '../local/rest/metric-store.ts';
import { VERTEX_METRICS } from './job-graph.ts';
import { aggregatesOf, figureIds, figuresFitOneRequest, MAX_REQUEST_LINE, SUBTASK_FIGURES, toSubtaskFigures } from './subtask-figures.ts';

const JOB = 'e77077c11856e9774e15d6a13c7d831a';
const VERTEX = '8ad0a339064fd18ef5b9c94282a00e10';
const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.3.0/vertices');

const figuresOf = (parallelism: number, values: Record<string, number | string>) =>
  toSubtaskFigures(parallelism, endpoints.vertexMetrics.response.parse(Object.entries(values).map(([id, value]) => ({ id, value: String(value) }))), 0);

describe('a vertex\'s figures per subtask', () => {
  it('are asked for every subtask in one request line Flink takes (4,096 bytes at most), behind a proxy\'s path too', () => {
    expect(figureIds(2).split(',')).toEqual([...SUBTASK_FIGURES.map((n) => `0.${n}`), ...SUBTASK_FIGURES.map((n) => `1.${n}`)]);
    const widest = (base: string) => {
      let p = 1;
      while (figuresFitOneRequest(base, JOB, VERTEX, p + 1)) p += 1;
      return p;
    };
    // The request line of the widest vertex that fits stays under Flink's limit, the next one would not.
    const p = widest('http://127.0.0.1:8081');
    const line = `GET /jobs/${JOB}/vertices/${VERTEX}/metrics?get=${figureIds(p)} HTTP/1.1`;
    expect(line.length).toBeLessThanOrEqual(MAX_REQUEST_LINE);
    expect(`GET /jobs/${JOB}/vertices/${VERTEX}/metrics?get=${figureIds(p + 1)} HTTP/1.1`.length).toBeGreaterThan(MAX_REQUEST_LINE);
    expect(p).toBeGreaterThanOrEqual(12);
    // A proxy's path counts against the line too.
    expect(widest(`https://gateway.example.com/${'flink/'.repeat(60)}`)).toBeLessThan(p);
    expect(figuresFitOneRequest('http://127.0.0.1:8081', JOB, VERTEX, 0)).toBe(false);
  });

  it('are read by index and name; other ids, subtasks out of range and values that are not numbers are not taken as figures', () => {
    const figures = figuresOf(2, {
      '0.busyTimeMsPerSecond': '1000.0',
      '1.busyTimeMsPerSecond': 250,
      '0.currentInputWatermark': '-9223372036854775808',
      '2.busyTimeMsPerSecond': 5,
      'x.busyTimeMsPerSecond': 5,
      '0.someOperator.numRecordsIn': 7,
      '1.numRecordsIn': 'many',
    });
    expect(Array.from(figures.values.busyTimeMsPerSecond)).toEqual([1000, 250]);
    expect(figures.values.currentInputWatermark[0]).toBe(-9223372036854775808);
    expect(Number.isNaN(figures.values.numRecordsIn[0])).toBe(true);
    expect([...figures.notNumbers]).toEqual(['numRecordsIn']);
  });

  it('are refused as Flink\'s aggregates are: busy time above 1,000 ms/s, a negative count', () => {
    expect(() => figuresOf(1, { '0.busyTimeMsPerSecond': 1200 })).toThrow(/above 1000 ms per second/);
    expect(() => figuresOf(1, { '0.numRecordsIn': -3 })).toThrow(/negative/);
    // Idle and back-pressured time may read a little over a second (accounted late): kept as sent, for the aggregates.
    expect(figuresOf(1, { '0.idleTimeMsPerSecond': 1030 }).values.idleTimeMsPerSecond[0]).toBe(1030);
    expect(() => figuresOf(1, { '0.idleTimeMsPerSecond': 1051 })).toThrow(/above 1050 ms per second/);
  });
});

describe('aggregatesOf', () => {
  it('gives what the local engine\'s copy of Flink\'s aggregating handler gives, for any values', () => {
    const subtask = fc.record({
      busyTimeMsPerSecond: fc.option(fc.double({ min: 0, max: 1000, noNaN: true }), { nil: undefined }),
      numRecordsIn: fc.option(fc.integer({ min: 0, max: 1e12 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(subtask, { minLength: 1, maxLength: 40 }), (subtasks) => {
        const stores: MetricValues[] = subtasks.map((s) => new Map(Object.entries(s).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])));
        const values: Record<string, string> = {};
        subtasks.forEach((s, k) => Object.entries(s).forEach(([name, v]) => v !== undefined && (values[`${k}.${name}`] = String(v))));
        const figures = figuresOf(subtasks.length, values);
        const mine = aggregatesOf(figures, ['busyTimeMsPerSecond', 'numRecordsIn'], true);
        const engine = aggregateMetrics(stores, ['busyTimeMsPerSecond', 'numRecordsIn'], ['min', 'max', 'avg', 'sum', 'skew']);
        expect(mine).toEqual(engine);
      }),
      { seed: 23, numRuns: 300 },
    );
  });

  it('sums and averages a second read late as Flink does, then holds it to 1,000 ms as Flink\'s own answer is read', () => {
    const mine = aggregatesOf(figuresOf(2, { '0.idleTimeMsPerSecond': 1030, '1.idleTimeMsPerSecond': 500 }), ['idleTimeMsPerSecond'], false);
    const flink = endpoints.subtaskMetricsAggregated.response.parse([{ id: 'idleTimeMsPerSecond', min: 500, max: 1030, avg: 765, sum: 1530 }]);
    expect(mine).toEqual(flink);
    expect(mine[0]).toMatchObject({ max: 1000, avg: 765, sum: 1530 });
  });

  it('empties the answer when no subtask has a metric asked for, as Flink does', () => {
    expect(aggregatesOf(figuresOf(2, { '0.busyTimeMsPerSecond': 10 }), ['busyTimeMsPerSecond', 'numRecordsIn'], true)).toEqual([]);
  });

  const recorded = existsSync(RECORDED) ? readdirSync(RECORDED).filter((d) => existsSync(path.join(RECORDED, d, 'subtask-figures.json'))) : [];
  it('has the recorded figures of Flink 2.3.0 to compare with', () => expect(recorded.length).toBeGreaterThan(0));
  it.each(recorded)('equals Flink 2.3.0\'s own aggregates of the same moment (%s)', (vertex) => {
    const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, vertex, file), 'utf8'));
    const flink = endpoints.subtaskMetricsAggregated.response.parse(read('subtask-figures-aggregated.json'));
    const metrics = endpoints.vertexMetrics.response.parse(read('subtask-figures.json'));
    const parallelism = 1 + Math.max(...metrics.map((m) => Number(m.id.split('.')[0])));
    const mine = aggregatesOf(toSubtaskFigures(parallelism, metrics, 0), VERTEX_METRICS, true);
    const byId = new Map(flink.map((m) => [m.id, m]));
    expect(mine.map((m) => m.id).sort()).toEqual([...byId.keys()].sort());
    for (const m of mine) {
      const f = byId.get(m.id)!;
      for (const agg of ['min', 'max', 'avg', 'sum', 'skew'] as const) expect(m[agg], `${vertex} ${m.id} ${agg}`).toBeCloseTo(f[agg]!, 9);
    }
  });
});
