import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '../api/datastream.ts';
import { OutputTag } from '../api/operator.ts';
import { CollectSink, SequenceSource } from '../api/sources.ts';
import { forBoundedOutOfOrderness } from '../api/watermarks.ts';
import { TumblingEventTimeWindows } from '../api/windows.ts';
import { assignKeyToParallelOperator } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { ValueState } from '../state/keyed-state.ts';
import { ManualClock } from '../time/clock.ts';
import { LocalCluster } from './cluster.ts';
import { buildJobGraph } from './job-graph.ts';

const T0 = 1_700_000_000_000;

function cluster(options: Partial<ConstructorParameters<typeof LocalCluster>[0]> = {}) {
  return new LocalCluster({ clock: new ManualClock(T0), ...options });
}

interface Reading {
  key: string;
  n: number;
}

/** source → parse (chained) → keyBy(key) → running count per key (ValueState) → sink (chained). */
/** 8 keys, 4 on each subtask at parallelism 2 (max parallelism 128), so load is even. */
function balancedKeys(): string[] {
  const bySubtask: string[][] = [[], []];
  for (let i = 0; bySubtask[0].length < 4 || bySubtask[1].length < 4; i++) {
    const key = `key-${i}`;
    const s = assignKeyToParallelOperator(key, 128, 2);
    if (bySubtask[s].length < 4) bySubtask[s].push(key);
  }
  return [0, 1, 2, 3].flatMap((i) => [bySubtask[0][i], bySubtask[1][i]]);
}

function countingJob(options: { rate: number; count?: number; parallelism?: number; keys?: string[] }) {
  const keys = options.keys ?? balancedKeys();
  const env = new StreamExecutionEnvironment({ parallelism: options.parallelism ?? 2, maxParallelism: 128 });
  const sink = new CollectSink<{ key: string; count: number; subtask: number }>();
  env
    .fromSource(
      new SequenceSource<string>({
        ratePerSubtask: options.rate,
        countPerSubtask: options.count,
        record: (i, s) => JSON.stringify({ key: keys[(i + s) % keys.length], n: i }),
      }),
      forBoundedOutOfOrderness(0),
      'numbers',
    )
    .uid('numbers')
    .map((line: string) => JSON.parse(line) as Reading, undefined, 'parse')
    .uid('parse')
    .keyBy((r) => r.key)
    .process<{ key: string; count: number; subtask: number }>(
      {
        open(ctx) {
          this.count = ctx.getState<number>({ name: 'count' });
          this.subtask = ctx.subtaskIndex;
        },
        processElement(r, _ctx, out) {
          const c = (this.count.value() ?? 0) + 1;
          this.count.update(c);
          out.collect({ key: r.key, count: c, subtask: this.subtask });
        },
      } as {
        count: ValueState<number>;
        subtask: number;
        open(ctx: import('../api/functions.ts').RuntimeContext): void;
        processElement(r: Reading, ctx: unknown, out: { collect(v: { key: string; count: number; subtask: number }): void }): void;
      },
      undefined,
      'count',
    )
    .uid('count')
    .sinkTo(sink, 'collect')
    .uid('collect');
  return { graph: env.getStreamGraph('counting'), sink };
}

describe('job graph: operator chaining', () => {
  it('chains forward edges of equal parallelism; keyBy ends a chain', () => {
    const { graph } = countingJob({ rate: 10 });
    const jg = buildJobGraph(graph);
    expect(jg.vertices.map((v) => v.name)).toEqual(['Source: numbers -> parse', 'count -> Sink: collect']);
    expect(jg.edges.map((e) => e.shipStrategy)).toEqual(['HASH']);
    expect(jg.vertices[0].description).toBe('Source: numbers\n+- parse\n');
  });

  it('a parallelism change ends a chain with a rebalance', () => {
    const env = new StreamExecutionEnvironment({ parallelism: 2 });
    env
      .fromSource(new SequenceSource({ ratePerSubtask: 1, record: (i) => i }), forBoundedOutOfOrderness(0), 's')
      .map((x: number) => x + 1)
      .setParallelism(3)
      .sinkTo(new CollectSink<number>(), 'out');
    const jg = buildJobGraph(env.getStreamGraph('j'));
    // The sink takes the job's default parallelism (2), as in Flink: a second rebalance.
    expect(jg.vertices.map((v) => [v.name, v.parallelism])).toEqual([
      ['Source: s', 2],
      ['Map', 3],
      ['Sink: out', 2],
    ]);
    expect(jg.edges.map((e) => e.shipStrategy)).toEqual(['REBALANCE', 'REBALANCE']);
  });

  it('uses the default max parallelism rule and rejects a parallelism above the max', () => {
    const env = new StreamExecutionEnvironment({ parallelism: 100 });
    env.fromSource(new SequenceSource({ ratePerSubtask: 1, record: (i) => i }), forBoundedOutOfOrderness(0), 's');
    expect(buildJobGraph(env.getStreamGraph('j')).vertices[0].maxParallelism).toBe(256);
    env.setMaxParallelism(64);
    expect(() => buildJobGraph(env.getStreamGraph('j'))).toThrow(/higher than its maximum parallelism \(64\)/);
  });
});

describe('runtime: records, keyed state, slots', () => {
  it('processes every record once, each key on the subtask Flink would pick, and finishes a bounded job', () => {
    const c = cluster();
    const { graph, sink } = countingJob({ rate: 1000, count: 500 });
    const job = c.submitJob(graph);
    expect(c.slotsAvailable).toBe(6);
    expect(c.advanceUntil(() => job.status === 'FINISHED', 60_000)).toBe(true);
    expect(sink.values).toHaveLength(1000);
    const finalCounts = new Map<string, number>();
    for (const { value } of sink.values) {
      finalCounts.set(value.key, Math.max(finalCounts.get(value.key) ?? 0, value.count));
      expect(value.subtask).toBe(assignKeyToParallelOperator(value.key, 128, 2));
    }
    expect([...finalCounts.values()].reduce((a, b) => a + b, 0)).toBe(1000);
    expect(c.slotsAvailable).toBe(8);
    expect(job.tasks.every((t) => t.state === 'FINISHED')).toBe(true);
  });

  it('refuses a job that needs more slots than the cluster has, allocating nothing', () => {
    const c = cluster({ taskManagers: 1, slotsPerTaskManager: 2 });
    expect(() => c.submitJob(countingJob({ rate: 1, parallelism: 3 }).graph)).toThrow(/needs 3 .* has 2 free of 2/);
    expect(c.slotsAvailable).toBe(2);
    expect(c.jobs.size).toBe(0);
  });

  it('cancel stops every task and frees the slots', () => {
    const c = cluster();
    const job = c.submitJob(countingJob({ rate: 100 }).graph);
    c.advance(1000);
    job.cancel();
    expect(job.status).toBe('CANCELED');
    expect(job.tasks.every((t) => t.state === 'CANCELED')).toBe(true);
    expect(c.slotsAvailable).toBe(8);
  });

  it('fails the job with an exception history entry when an operator throws', () => {
    const c = cluster();
    const env = new StreamExecutionEnvironment({ parallelism: 1 });
    env
      .fromSource(new SequenceSource({ ratePerSubtask: 10, record: (i) => i }), forBoundedOutOfOrderness(0), 's')
      .map((x: number) => {
        if (x === 3) throw new Error('boom at 3');
        return x;
      }, undefined, 'explode')
      .sinkTo(new CollectSink<number>(), 'out');
    const job = c.submitJob(env.getStreamGraph('failing'));
    c.advance(2000);
    expect(job.status).toBe('FAILED');
    expect(job.exceptions[0].stacktrace).toContain('boom at 3');
    expect(job.exceptions[0].taskName).toContain('Source: s -> explode');
  });
});

describe('runtime: time accounting and backpressure', () => {
  it('an idle pipeline reports ~1000 ms/s idle, and busy + idle + back-pressured = 1000', () => {
    const c = cluster();
    const job = c.submitJob(countingJob({ rate: 50 }).graph);
    c.advance(70_000);
    for (const t of job.tasks) {
      const idle = t.io.idleTime.getValue();
      const bp = t.io.backPressuredTimeMsPerSecond();
      expect(idle + bp + t.io.busyTimeMsPerSecond()).toBe(1000);
      expect(idle).toBeGreaterThanOrEqual(990);
    }
  });

  it('a slow keyed operator is busy ~1000 ms/s and back-pressures its sender up to the source', () => {
    const c = cluster();
    // 2 source subtasks × 400 records/s; the counting operator can take 150 records/s per subtask.
    const { graph } = countingJob({ rate: 400 });
    const job = c.submitJob(graph, { capacity: { count: { maxRecordsPerSecond: 150 } } });
    c.advance(120_000);
    const [source, counter] = job.vertices;
    for (const t of counter.tasks) {
      expect(t.io.busyTimeMsPerSecond()).toBeGreaterThanOrEqual(990);
      // Throughput is capped at the capacity: 150/s per subtask.
      expect(t.io.numRecordsInPerSecond.getRate()).toBeGreaterThan(140);
      expect(t.io.numRecordsInPerSecond.getRate()).toBeLessThan(160);
    }
    for (const t of source.tasks) {
      expect(t.io.backPressuredTimeMsPerSecond()).toBeGreaterThan(900);
      expect(t.io.numRecordsOutPerSecond.getRate()).toBeLessThan(160);
    }
  });

  it('a cost per record shows as proportional busy time', () => {
    const c = cluster();
    const { graph } = countingJob({ rate: 100 });
    const job = c.submitJob(graph, { capacity: { count: { costPerRecordMs: 2 } } });
    c.advance(65_000);
    for (const t of job.vertices[1].tasks) {
      // 100 records/s per subtask on average (key spread permitting) × 2 ms.
      expect(t.io.busyTimeMsPerSecond()).toBeGreaterThan(100);
      expect(t.io.busyTimeMsPerSecond()).toBeLessThan(300);
    }
    const total = job.vertices[1].tasks.reduce((s, t) => s + t.io.busyTimeMsPerSecond(), 0);
    expect(total).toBeGreaterThan(370);
    expect(total).toBeLessThan(430);
  });
});

describe('runtime: watermarks and event-time windows', () => {
  function windowJob(options: { lateEvery?: number; lateness?: number; withSideOutput?: boolean }) {
    const env = new StreamExecutionEnvironment({ parallelism: 2, maxParallelism: 128 });
    const sums = new CollectSink<{ key: string; start: number; end: number; sum: number; count: number }>();
    const lateSink = new CollectSink<number>();
    const lateTag = new OutputTag<{ key: string; v: number }>('late');
    const windowed = env
      .fromSource(
        new SequenceSource<{ key: string; v: number }>({
          ratePerSubtask: 100,
          countPerSubtask: 2000,
          record: (i, s) => ({ key: `k${(i + s) % 3}`, v: 1 }),
          // Every lateEvery-th record is 30 s late in event time.
          timestamp: (i, at) => (options.lateEvery && i > 0 && i % options.lateEvery === 0 ? at - 30_000 : at),
        }),
        forBoundedOutOfOrderness(1000),
        'readings',
      )
      .keyBy((r) => r.key)
      .window(TumblingEventTimeWindows.of(5_000))
      .allowedLateness(options.lateness ?? 0);
    if (options.withSideOutput) windowed.sideOutputLateData(lateTag);
    const result = windowed.aggregate(
      {
        createAccumulator: () => ({ sum: 0, count: 0 }),
        add: (r: { v: number }, acc: { sum: number; count: number }) => {
          acc.sum += r.v;
          acc.count++;
          return acc;
        },
        getResult: (acc: { sum: number; count: number }) => acc,
        merge: (a: { sum: number; count: number }, b: { sum: number; count: number }) => ({ sum: a.sum + b.sum, count: a.count + b.count }),
      },
      {
        process: (key: string, w, r, out) => out.collect({ key, start: w.start, end: w.end, sum: r.sum, count: r.count }),
      },
    );
    result.uid('sum');
    result.sinkTo(sums, 'sums');
    result.getSideOutput(lateTag).map((r) => r.v).sinkTo(lateSink, 'late');
    return { graph: env.getStreamGraph('windows'), sums, lateSink };
  }

  it('fires each tumbling window once, when the watermark passes its end, with timestamp end − 1', () => {
    const c = cluster();
    const { graph, sums } = windowJob({});
    const job = c.submitJob(graph);
    expect(c.advanceUntil(() => job.status === 'FINISHED', 60_000)).toBe(true);
    const total = sums.values.reduce((s, x) => s + x.value.sum, 0);
    expect(total).toBe(4000);
    const seen = new Set(sums.values.map((x) => `${x.value.key}@${x.value.start}`));
    expect(seen.size).toBe(sums.values.length);
    for (const x of sums.values) {
      expect(x.timestamp).toBe(x.value.end - 1);
      expect(x.value.start % 5000).toBe(0);
    }
  });

  it('drops late records and counts them, or sends them to the side output', () => {
    const c = cluster();
    const dropped = windowJob({ lateEvery: 100 });
    const j1 = c.submitJob(dropped.graph);
    c.advanceUntil(() => j1.status === 'FINISHED', 60_000);
    const lateDropped = j1.vertices[1].tasks.reduce((s, t) => s + (t.handles[0].metrics.counters.get('numLateRecordsDropped')?.count ?? 0), 0);
    const counted = dropped.sums.values.reduce((s, x) => s + x.value.sum, 0);
    expect(lateDropped).toBeGreaterThan(0);
    expect(counted + lateDropped).toBe(4000);

    const c2 = cluster();
    const side = windowJob({ lateEvery: 100, withSideOutput: true });
    const j2 = c2.submitJob(side.graph);
    c2.advanceUntil(() => j2.status === 'FINISHED', 60_000);
    expect(side.lateSink.values.length).toBe(lateDropped);
  });

  it('with allowed lateness, a late record re-fires its window with the updated result', () => {
    const c = cluster();
    const { graph, sums } = windowJob({ lateEvery: 100, lateness: 60_000 });
    const job = c.submitJob(graph);
    c.advanceUntil(() => job.status === 'FINISHED', 60_000);
    const last = new Map<string, number>();
    for (const x of sums.values) last.set(`${x.value.key}@${x.value.start}`, x.value.sum);
    expect([...last.values()].reduce((a, b) => a + b, 0)).toBe(4000);
    expect(sums.values.length).toBeGreaterThan(last.size);
  });

  it('reports the input watermark per subtask, Long.MIN_VALUE before the first one', () => {
    const c = cluster();
    const { graph } = windowJob({});
    const job = c.submitJob(graph);
    expect(job.vertices[1].tasks[0].io.currentInputWatermark).toBe(Number.NEGATIVE_INFINITY);
    c.advance(3_000);
    const wm = job.vertices[1].tasks[0].io.currentInputWatermark;
    // Bounded out-of-orderness of 1 s: the watermark trails processing time by about 1 s (+ buffer timeout).
    expect(wm).toBeGreaterThan(T0 + 3_000 - 1_500);
    expect(wm).toBeLessThan(T0 + 3_000 - 1_000);
  });
});
