import { describe, expect, it } from 'vitest';
import { diagnoseSamples } from './diagnose-job.ts';
import { evenKeyGroupParallelism, formatSpan, shortName } from './root-cause.ts';
import { buildWindow, uniform, type SubtaskSpec } from './testing/window-builder.ts';

/** source (2) → keyed (p) → sink (2): the shape of most jobs. */
function pipeline(options: { source?: SubtaskSpec; keyed: SubtaskSpec[]; sink?: SubtaskSpec; samples?: number }) {
  return buildWindow({
    samples: options.samples,
    vertices: [
      { id: 'src', name: 'Source: orders -> parse', subtasks: uniform(2, options.source ?? { busy: 50, recordsOut: 100 }) },
      { id: 'agg', name: 'aggregate', subtasks: options.keyed },
      { id: 'out', name: 'Sink: warehouse', subtasks: uniform(2, options.sink ?? { busy: 20, recordsIn: 50 }) },
    ],
    edges: [
      ['src', 'agg', 'HASH'],
      ['agg', 'out', 'REBALANCE'],
    ],
  });
}

describe('the root cause', () => {
  it('walks from the back-pressured source to the busy keyed vertex and says skew, naming the hot subtask and its TaskManager', () => {
    const keyed = uniform(8, { busy: 30, recordsIn: 30 });
    keyed[5] = { busy: 1000, recordsIn: 250, taskManager: 1 };
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 950, recordsOut: 100 }, keyed }), 60_000);
    expect(d.finding).toMatchObject({ kind: 'skew', severity: 'critical', vertexId: 'agg', metric: 'busyTimeMsPerSecond' });
    expect(d.finding.subtasks).toEqual([{ subtask: 5, taskManagerId: 'tm-1', endpoint: '127.0.0.1:6122' }]);
    expect(d.finding.sentence).toBe(
      "aggregate subtask 5 is saturated (busy 1,000 ms/s, 6.6× the vertex's average) while its 7 siblings are nearly idle (busy at most 30 ms/s): data skew on the key. Source: orders is back-pressured because of it.",
    );
    expect(d.finding.details.join(' ')).toMatch(/Subtask 5 owns key groups 80–95 of 128/);
    expect(d.finding.victims).toEqual([expect.objectContaining({ vertexId: 'src', level: 'high', highSubtasks: [0, 1], direct: true })]);
    expect(d.confidence.level).toBe('high');
  });

  it('names every saturated subtask when a few are hot', () => {
    const keyed = uniform(12, { busy: 40, recordsIn: 40 });
    keyed[2] = { busy: 990, recordsIn: 300 };
    keyed[9] = { busy: 1000, recordsIn: 310 };
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 800 }, keyed }), 60_000);
    expect(d.finding.kind).toBe('skew');
    expect(d.finding.subtasks.map((s) => s.subtask)).toEqual([9, 2]);
    expect(d.finding.sentence).toMatch(/^aggregate subtasks 9 and 2 are saturated \(busy up to 1,000 ms\/s/);
  });

  it('says under-provisioned when all subtasks are busy, with the parallelism that brings the busiest under 70%', () => {
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 700 }, keyed: uniform(4, { busy: 840, recordsIn: 300 }) }), 60_000);
    expect(d.finding.kind).toBe('under-provisioned');
    expect(d.finding.sentence).toBe('aggregate is under-provisioned: busy on all 4 subtasks (average 840 ms/s, busiest 840 ms/s). Source: orders is back-pressured because of it.');
    // 4 × 840 / 700 = 4.8 → 5; 8 spreads the 128 key groups evenly.
    expect(d.finding.suggestedParallelism).toEqual({ current: 4, suggested: 5, atLeast: false, evenKeyGroups: 8 });
    expect(d.finding.details[0]).toMatch(/^Parallelism 5 would bring the busiest subtask under 70% busy; 8 spreads its 128 key groups evenly\./);
  });

  it('says "at least" when the vertex is saturated: backpressure hides how much more it is asked to do', () => {
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 900 }, keyed: uniform(2, { busy: 1000, recordsIn: 300 }) }), 60_000);
    expect(d.finding.kind).toBe('under-provisioned');
    expect(d.finding.suggestedParallelism).toMatchObject({ current: 2, suggested: 3, atLeast: true });
    expect(d.finding.details[0]).toMatch(/^Parallelism of at least 3/);
  });

  it('tells a skewed pair at parallelism 2 (the real Flink test job: 1,000 vs 339 ms/s) from an even one', () => {
    const skewed = diagnoseSamples(pipeline({ source: { busy: 400, bp: 560 }, keyed: [{ busy: 1000, recordsIn: 400 }, { busy: 339, recordsIn: 170 }] }), 60_000);
    expect(skewed.finding.kind).toBe('skew');
    expect(skewed.finding.subtasks.map((s) => s.subtask)).toEqual([0]);
    expect(skewed.vertices[1].metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!.hot.map((h) => h.subtask)).toEqual([0]);
    const even = diagnoseSamples(pipeline({ source: { busy: 400, bp: 560 }, keyed: [{ busy: 1000, recordsIn: 400 }, { busy: 900, recordsIn: 360 }] }), 60_000);
    expect(even.finding.kind).toBe('under-provisioned');
  });

  it('blames the external system when the busy vertex is a sink', () => {
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 600 }, keyed: uniform(4, { busy: 100, bp: 700, recordsIn: 100 }), sink: { busy: 960, recordsIn: 100 } }), 60_000);
    expect(d.finding.kind).toBe('external-system-slow');
    expect(d.finding.vertexId).toBe('out');
    expect(d.finding.sentence).toBe('Sink: warehouse, a sink, is busy on all 2 subtasks (average 960 ms/s, busiest 960 ms/s): the external system it writes to is slow. aggregate is back-pressured because of it.');
    expect(d.finding.victims.map((v) => [v.vertexId, v.direct])).toEqual([
      ['agg', true],
      ['src', false],
    ]);
  });

  it('says when back-pressure has no visible cause downstream, and why that may be (a vertex without busy time)', () => {
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 900 }, keyed: uniform(4, { noBusyTime: true, recordsIn: 100 }) }), 60_000);
    expect(d.finding.kind).toBe('unclear-backpressure');
    expect(d.finding.sentence).toBe('Source: orders is back-pressured (up to 900 ms/s), but nothing downstream of it is busy: the cause does not show in the metrics.');
    expect(d.finding.details[0]).toMatch(/aggregate downstream reports no busy time/);
    expect(d.confidence.level).toBe('low');
    expect(d.notKnown.join(' ')).toMatch(/aggregate: busy and back-pressured time are not reported/);
  });

  it('warns about a hot subtask before it back-pressures anything', () => {
    const keyed = uniform(8, { busy: 30, recordsIn: 30 });
    keyed[1] = { busy: 820, recordsIn: 250 };
    const d = diagnoseSamples(pipeline({ keyed }), 60_000);
    expect(d.finding).toMatchObject({ kind: 'skew', severity: 'warning' });
    expect(d.finding.sentence).toMatch(/^No backpressure yet, but aggregate subtask 1 is busy \(820 ms\/s, 6\.4× the vertex's average\) while its 7 siblings are nearly idle \(busy at most 30 ms\/s\): data skew on the key\.$/);
  });

  it('finds an idle source split that stalls the watermark while records flow, and names the silent source subtask', () => {
    const samples = buildWindow({
      vertices: [
        { id: 'src', name: 'Source: kafka', subtasks: [{ busy: 50, recordsOut: 200, watermark: 'none' }, { busy: 0, recordsOut: 0, watermark: 'none' }] },
        { id: 'win', name: 'window', subtasks: uniform(2, { busy: 100, recordsIn: 100, watermark: 'stalled' }) },
      ],
      edges: [['src', 'win', 'HASH']],
    });
    const d = diagnoseSamples(samples, 60_000);
    expect(d.finding.kind).toBe('idle-source-split');
    expect(d.finding.sentence).toBe('The watermark of window has not moved for 60 s while 200 records/s flow in: Source: kafka subtask 1 emits nothing: an idle split holds the watermark back.');
    expect(d.finding).toMatchObject({ vertexId: 'src', metric: 'recordsOutPerSecond', subtasks: [expect.objectContaining({ subtask: 1 })] });
  });

  it('says nothing is wrong, and "no skew", when nothing is busy or back-pressured; fewer keys than subtasks is said calmly', () => {
    const keyed = [...uniform(4, { busy: 60, recordsIn: 60 }), ...uniform(12, { busy: 0, recordsIn: 0 })];
    const d = diagnoseSamples(pipeline({ keyed }), 60_000);
    expect(d.finding).toMatchObject({ kind: 'nothing-wrong', severity: 'ok', subtasks: [] });
    expect(d.finding.sentence).toBe('Nothing is back-pressured or busy and no subtask is hot over the last 60 s: no skew.');
    expect(d.finding.details).toEqual(['aggregate: 12 of 16 subtasks receive no records — fewer active keys than subtasks, not skew.']);
    expect(d.vertices[1].pattern).toBe('few-keys');
  });

  it('handles parallelism 1, an all-idle and an all-busy job', () => {
    const one = diagnoseSamples(pipeline({ source: { busy: 0, bp: 900 }, keyed: [{ busy: 980, recordsIn: 10 }] }), 60_000);
    expect(one.finding.kind).toBe('under-provisioned');
    expect(one.finding.sentence).toBe('aggregate is under-provisioned: busy 980 ms/s on its only subtask. Source: orders is back-pressured because of it.');
    expect(one.finding.suggestedParallelism).toMatchObject({ current: 1, suggested: 2, atLeast: true });
    expect(one.vertices[1].metrics.find((m) => m.metric === 'busyTimeMsPerSecond')).toMatchObject({ dataSkewPercent: 0, maxOverMean: 1, hot: [] });
    const idle = diagnoseSamples(pipeline({ source: { recordsOut: 0 }, keyed: uniform(4, {}), sink: {} }), 60_000);
    expect(idle.finding.kind).toBe('nothing-wrong');
    expect(idle.vertices.map((v) => v.pattern)).toEqual(['idle', 'idle', 'idle']);
    const busy = diagnoseSamples(pipeline({ source: { busy: 990, recordsOut: 10 }, keyed: uniform(4, { busy: 990, recordsIn: 5 }), sink: { busy: 990, recordsIn: 5 } }), 60_000);
    expect(['under-provisioned', 'external-system-slow']).toContain(busy.finding.kind);
  });

  it('keeps missing figures out instead of reading them as idle, and says what was not known', () => {
    const keyed = uniform(4, { busy: 30, recordsIn: 30 });
    keyed[0] = { busy: 1000, recordsIn: 300 };
    keyed[3] = { missing: true };
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 900 }, keyed }), 60_000);
    expect(d.finding.kind).toBe('skew');
    expect(d.finding.sentence).toMatch(/while its 3 siblings are nearly idle/);
    const busy = d.vertices[1].metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!;
    expect(busy).toMatchObject({ counted: 3, missing: 1 });
    expect(d.notKnown).toContain('aggregate: busy time is missing for 1 of 4 subtasks.');
  });

  it('measures a vertex that restarted mid-window from its restart on, and lowers the confidence', () => {
    const keyed = uniform(4, { busy: 30, recordsIn: 30, restartAt: 3 });
    keyed[2] = { busy: 1000, recordsIn: 300, restartAt: 3 };
    const d = diagnoseSamples(pipeline({ source: { busy: 0, bp: 900 }, keyed }), 60_000);
    expect(d.finding.kind).toBe('skew');
    expect(d.finding.subtasks.map((s) => s.subtask)).toEqual([2]);
    expect(d.vertices[1].restartedSubtasks).toEqual([0, 1, 2, 3]);
    expect(d.confidence).toMatchObject({ level: 'medium', reasons: ['4 subtasks of aggregate restarted inside the window: their figures cover the time since'] });
  });

  it('asks for more samples before it says anything', () => {
    const samples = pipeline({ keyed: uniform(2, { busy: 10 }) });
    expect(diagnoseSamples([], 60_000).finding).toMatchObject({ kind: 'not-enough-data', severity: 'unknown' });
    expect(diagnoseSamples(samples.slice(0, 1), 60_000).finding.kind).toBe('not-enough-data');
    expect(diagnoseSamples(samples.slice(0, 2), 60_000).confidence.level).toBe('low');
  });
});

describe('helpers', () => {
  it('name a vertex by its chain head, spans in words, and the even key-group parallelism', () => {
    expect(shortName('tenant-cost -> Sink: usd-sink')).toBe('tenant-cost');
    expect(shortName('Source: gateway-events -> parse')).toBe('Source: gateway-events');
    expect(formatSpan(60_000)).toBe('60 s');
    expect(formatSpan(300_000)).toBe('5 min');
    expect(formatSpan(5_400_000)).toBe('90 min');
    expect(formatSpan(9_000_000)).toBe('2 h 30 min');
    expect(evenKeyGroupParallelism(5, 128)).toBe(8);
    expect(evenKeyGroupParallelism(33, 128)).toBe(64);
    expect(evenKeyGroupParallelism(129, 128)).toBeNull();
  });
});
