import { describe, expect, it } from 'vitest';
import { subtaskTimeline } from './subtask-timeline.ts';

/** The states Flink 2.3.0 sent for a `throttle` subtask (e2e cluster), shifted to small numbers. */
const deployed = { CREATED: 100, SCHEDULED: 350, DEPLOYING: 401, INITIALIZING: 1323, RUNNING: 1823, FINISHED: 0, FAILED: 0, CANCELED: 0, CANCELING: 0, RECONCILING: 0 };

describe('subtaskTimeline', () => {
  it('orders the phases by time, each ending where the next begins, the last one open', () => {
    const view = subtaskTimeline([{ index: 0, endpoint: 'localhost:1', timestamps: deployed }], 5000);
    expect(view.subtasks[0].phases).toEqual([
      { state: 'CREATED', start: 100, end: 350 },
      { state: 'SCHEDULED', start: 350, end: 401 },
      { state: 'DEPLOYING', start: 401, end: 1323 },
      { state: 'INITIALIZING', start: 1323, end: 1823 },
      { state: 'RUNNING', start: 1823, end: null },
    ]);
    expect(view.from).toBe(100);
    expect(view.to).toBe(5000);
  });

  it('names the subtask that reached RUNNING last', () => {
    const view = subtaskTimeline(
      [
        { index: 0, endpoint: null, timestamps: deployed },
        { index: 1, endpoint: null, timestamps: { ...deployed, INITIALIZING: 1400, RUNNING: 4100 } },
      ],
      5000,
    );
    expect(view.lastRunning).toEqual({ index: 1, at: 4100 });
  });

  it('has no last running subtask while one still initializes', () => {
    const view = subtaskTimeline(
      [
        { index: 0, endpoint: null, timestamps: deployed },
        { index: 1, endpoint: null, timestamps: { ...deployed, RUNNING: 0 } },
      ],
      5000,
    );
    expect(view.lastRunning).toBeNull();
    expect(view.subtasks[1].phases.at(-1)).toEqual({ state: 'INITIALIZING', start: 1323, end: null });
  });

  it('closes a terminal state at its own instant, and orders states of the same millisecond as Flink does', () => {
    const view = subtaskTimeline([{ index: 0, endpoint: null, timestamps: { CREATED: 10, SCHEDULED: 10, RUNNING: 20, CANCELING: 30, CANCELED: 31 } }], 99);
    expect(view.subtasks[0].phases.map((p) => p.state)).toEqual(['CREATED', 'SCHEDULED', 'RUNNING', 'CANCELING', 'CANCELED']);
    expect(view.subtasks[0].phases.at(-1)).toEqual({ state: 'CANCELED', start: 31, end: 31 });
    expect(view.lastRunning).toBeNull();
  });
});
