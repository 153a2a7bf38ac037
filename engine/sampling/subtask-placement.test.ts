import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { subtaskClockMs } from '../history/job-sample.ts';
import { subtaskColumnsOf, taskManagerIndex } from './sample-job.ts';
import { toSubtaskFigures } from './subtask-figures.ts';
import { columnsFromFigures, placementHolds, placementOf } from './subtask-placement.ts';

const TM = ['127.0.0.1:36205-768b5e', '127.0.0.1:41003-a1f2c3'];

/** A vertex's details and its figures per subtask, as Flink gives them at one moment. */
function vertexAt(counters: Array<{ records: number; busy: number; idle: number }>, attempt = 0) {
  const details = endpoints.vertexDetails.response.parse({
    id: 'v',
    name: 'throttle',
    parallelism: counters.length,
    maxParallelism: 128,
    now: 0,
    subtasks: counters.map((c, k) => ({
      subtask: k,
      status: 'RUNNING',
      attempt,
      endpoint: `localhost:4002${k}`,
      'start-time': 1,
      'end-time': -1,
      duration: 1,
      'taskmanager-id': TM[k % 2],
      metrics: {
        'read-records': c.records,
        'write-records': c.records,
        'read-bytes': c.records * 70,
        'write-bytes': c.records * 70,
        'accumulated-busy-time': c.busy,
        'accumulated-backpressured-time': 0,
        'accumulated-idle-time': c.idle,
      },
    })),
  });
  const figures = toSubtaskFigures(
    counters.length,
    endpoints.vertexMetrics.response.parse(
      counters.flatMap((c, k) => [
        { id: `${k}.numRecordsIn`, value: String(c.records) },
        { id: `${k}.numRecordsOut`, value: String(c.records) },
        { id: `${k}.numBytesIn`, value: String(c.records * 70) },
        { id: `${k}.numBytesOut`, value: String(c.records * 70) },
        { id: `${k}.accumulateBusyTimeMs`, value: `${c.busy}.0` },
        { id: `${k}.accumulateBackPressuredTimeMs`, value: '0' },
        { id: `${k}.accumulateIdleTimeMs`, value: String(c.idle) },
        { id: `${k}.currentInputWatermark`, value: '1796315951978' },
      ]),
    ),
    0,
  );
  const watermarks = counters.map((_, k) => ({ id: `${k}.currentInputWatermark`, value: '1796315951978' }));
  return { details, figures, watermarks };
}

const running = (parallelism: number, startTime = 1000) => ({ status: 'RUNNING', parallelism, startTime, tasks: { RUNNING: parallelism } });

describe('a reading from the subtasks\' figures', () => {
  it('gives the columns the vertex details and watermarks give, where the subtasks run and their attempts included', () => {
    const now = vertexAt([{ records: 500, busy: 9_000, idle: 1_000 }, { records: 80, busy: 2_000, idle: 8_000 }]);
    const byDetails = taskManagerIndex();
    const fromDetails = subtaskColumnsOf(2, now.details, now.watermarks, byDetails.indexOf);
    const placement = placementOf(fromDetails, byDetails.list, 1000);
    const byFigures = taskManagerIndex();
    const { columns, restarted } = columnsFromFigures(now.figures, placement, fromDetails, byFigures.indexOf);
    expect(restarted).toBe(false);
    expect(columns).toEqual(fromDetails);
    expect(byFigures.list).toEqual(byDetails.list);
  });

  it('sees a subtask deployed again (its clock and counters start over): the next attempt, and the placement no longer holds', () => {
    const before = vertexAt([{ records: 500, busy: 9_000, idle: 1_000 }, { records: 80, busy: 2_000, idle: 8_000 }]);
    const index = taskManagerIndex();
    const columns = subtaskColumnsOf(2, before.details, before.watermarks, index.indexOf);
    const placement = placementOf(columns, index.list, 1000);
    const after = vertexAt([{ records: 600, busy: 18_000, idle: 2_000 }, { records: 3, busy: 200, idle: 800 }]);
    const read = columnsFromFigures(after.figures, placement, columns, taskManagerIndex().indexOf);
    expect(read.restarted).toBe(true);
    expect(Array.from(read.columns.attempt)).toEqual([0, 1]);
    expect(subtaskClockMs(read.columns, 1)).toBe(1_000);
  });

  it('is not a restart when a clock reads a little less than before (an idle period accounted late)', () => {
    const before = vertexAt([{ records: 500, busy: 9_000, idle: 1_000 }]);
    const index = taskManagerIndex();
    const columns = subtaskColumnsOf(1, before.details, before.watermarks, index.indexOf);
    const after = vertexAt([{ records: 500, busy: 8_600, idle: 1_000 }]);
    expect(columnsFromFigures(after.figures, placementOf(columns, index.list, 1000), columns, index.indexOf).restarted).toBe(false);
  });
});

describe('a placement', () => {
  const index = taskManagerIndex();
  const v = vertexAt([{ records: 1, busy: 1, idle: 1 }, { records: 1, busy: 1, idle: 1 }]);
  const placement = placementOf(subtaskColumnsOf(2, v.details, v.watermarks, index.indexOf), index.list, 1000);

  it('holds while every subtask runs where it ran, at the same parallelism and start time', () => {
    expect(placementHolds(placement, running(2))).toBe(true);
    expect(placementHolds(placement, running(3))).toBe(false);
    expect(placementHolds(placement, running(2, 2000))).toBe(false);
    expect(placementHolds(placement, { ...running(2), tasks: { RUNNING: 1, DEPLOYING: 1 } })).toBe(false);
    expect(placementHolds(placement, { ...running(2), status: 'RESTARTING' })).toBe(false);
  });
});
