import { describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator, assignToKeyGroup } from './key-groups/key-group-range-assignment.ts';
import { estimateCapacity, loadFigures, planKeyedVertex, type ObservedVertexLoad } from './rescale-plan.ts';

/** tenant-cost of the hot-tenant scenario: 32 subtasks, acme (key group 50) alone on subtask 12, capped at 250 records/s. */
function hotTenantCost(): ObservedVertexLoad {
  const records = new Array(32).fill(12);
  const busy = new Array(32).fill(12);
  records[12] = 250;
  busy[12] = 1000;
  return { vertexId: 'v'.repeat(32), vertexName: 'tenant-cost', maxParallelism: 128, recordsInPerSecond: records, busyTimeMsPerSecond: busy };
}

describe('the rescale plan of a keyed vertex', () => {
  it('says that a hot key above one subtask\'s capacity stays alone and saturated at any parallelism', () => {
    expect(assignToKeyGroup('acme', 128)).toBe(50);
    const plan = planKeyedVertex(hotTenantCost(), 48, [{ key: 'acme', recordsPerSecond: 400 }]);
    const acme = plan.hotKeys[0];
    expect(acme).toMatchObject({ key: 'acme', keyGroup: 50, subtaskBefore: 12, subtaskAfter: assignKeyToParallelOperator('acme', 128, 48), aloneAfter: true, overCapacity: true });
    expect(plan.capacity).toEqual({ recordsPerSecond: 250, subtask: 12, busyTimeMsPerSecond: 1000 });
    expect(plan.findings[0]).toBe(
      `At parallelism 48, acme still lands alone on subtask ${acme.subtaskAfter} at 400 records/s, above the ~250 records/s one subtask sustains: rescaling will not fix this; consider two-stage aggregation (salting).`,
    );
    expect(plan.findings).toContain(
      '128 key groups over 48 subtasks: 32 subtasks get 3 key groups and 16 get 2, so under evenly spread keys the first carry 1.5× the load of the others.',
    );
    expect(plan.findings.some((f) => f.startsWith('The known hot keys of subtask 12 (400 records/s) exceed what it processed (250 records/s)'))).toBe(true);
    const hot = plan.predicted[acme.subtaskAfter];
    expect(hot.recordsPerSecond).toBeCloseTo(400 + 0, 6); // subtask 12's residual was 0: all of it is acme
    expect(hot.overCapacity).toBe(true);
    expect(hot.busyTimeMsPerSecond).toBeCloseTo(1600, 6);
    expect(plan.after.max).toBeCloseTo(400, 6);
  });

  it('keeps the total load: residual spread evenly over key groups, hot keys placed exactly', () => {
    const observed: ObservedVertexLoad = {
      vertexId: 'x'.repeat(32),
      vertexName: 'count',
      maxParallelism: 128,
      recordsInPerSecond: [100, 300, 200, 400],
      busyTimeMsPerSecond: [100, 300, 200, 400],
    };
    const keyGroupOfA = assignToKeyGroup('a', 128);
    const ownerOfA = Math.floor((keyGroupOfA * 4) / 128);
    const plan = planKeyedVertex(observed, 3, [{ key: 'a', recordsPerSecond: 50 }]);
    const total = plan.predicted.reduce((s, p) => s + p.recordsPerSecond, 0);
    expect(total).toBeCloseTo(1000, 6);
    // By hand: every key group of subtask s carries (rate_s - hot_s) / 32, plus 50 on a's key group.
    const perGroup = (g: number) => {
      const s = Math.floor((g * 4) / 128);
      return (([100, 300, 200, 400][s] - (s === ownerOfA ? 50 : 0)) / 32) + (g === keyGroupOfA ? 50 : 0);
    };
    const ranges = [[0, 42], [43, 85], [86, 127]];
    ranges.forEach(([start, end], s) => {
      let expected = 0;
      for (let g = start; g <= end; g++) expected += perGroup(g);
      expect(plan.predicted[s]).toMatchObject({ startKeyGroup: start, endKeyGroup: end });
      expect(plan.predicted[s].recordsPerSecond).toBeCloseTo(expected, 9);
    });
    expect(plan.hotKeys[0].subtaskAfter).toBe(assignKeyToParallelOperator('a', 128, 3));
    expect(plan.capacity).toEqual({ recordsPerSecond: 1000, subtask: 3, busyTimeMsPerSecond: 400 });
    expect(plan.before).toEqual(loadFigures([100, 300, 200, 400]));
  });

  it('doubling an even vertex halves each subtask\'s load and names no finding but the moves', () => {
    const observed: ObservedVertexLoad = { vertexId: 'e'.repeat(32), vertexName: 'even', maxParallelism: 128, recordsInPerSecond: [80, 80], busyTimeMsPerSecond: [40, 40] };
    const plan = planKeyedVertex(observed, 4, []);
    expect(plan.predicted.map((p) => p.recordsPerSecond)).toEqual([40, 40, 40, 40]);
    expect(plan.after).toEqual({ max: 40, mean: 40, maxOverMean: 1 });
    expect(plan.findings).toEqual([]);
  });

  it('counts a subtask without figures as 0 and says so', () => {
    const plan = planKeyedVertex({ vertexId: 'n'.repeat(32), vertexName: 'n', maxParallelism: 128, recordsInPerSecond: [10, Number.NaN], busyTimeMsPerSecond: [Number.NaN, Number.NaN] }, 2, []);
    expect(plan.findings[0]).toBe('No load figure for subtask 1: counted as 0.');
    expect(plan.observed[1]).toEqual({ subtask: 1, recordsPerSecond: null, busyTimeMsPerSecond: null });
    expect(plan.capacity).toBeNull();
    expect(plan.predicted.every((p) => p.busyTimeMsPerSecond === null && !p.overCapacity)).toBe(true);
  });

  it('applies a hot key given for another vertex to that vertex only', () => {
    const plan = planKeyedVertex(hotTenantCost(), 32, [{ key: 'acme', recordsPerSecond: 400, vertexId: 'other' }]);
    expect(plan.hotKeys).toEqual([]);
  });
});

describe('capacity per subtask', () => {
  it('comes from the busiest subtask and ignores idle ones', () => {
    expect(estimateCapacity([10, 500, 90], [5, 1000, 300])).toEqual({ recordsPerSecond: 500, subtask: 1, busyTimeMsPerSecond: 1000 });
    expect(estimateCapacity([10, 20], [50, 60])).toBeNull();
  });
});
