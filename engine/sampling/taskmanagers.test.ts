import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { TASKMANAGER_METRICS, toTaskManagerViews } from './taskmanagers.ts';

const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.2.1');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8'));

describe('toTaskManagerViews, from a real Flink 2.2.1', () => {
  const info = endpoints.taskManagers.response.parse(read('taskmanagers.json'));
  const ids = info.taskmanagers.map((tm) => tm.id).sort();
  const metrics = new Map(ids.map((id, i) => [id, endpoints.taskManagerMetrics.response.parse(read(`taskmanagers/${i}-metrics.json`))]));
  const views = toTaskManagerViews(info, metrics);

  it('slots, the RPC address, and the endpoint as subtasks show it (host:data port)', () => {
    expect(views.map((v) => v.id)).toEqual(ids);
    const busy = views.find((v) => v.slotsFree === 0)!;
    expect(busy).toMatchObject({ id: '127.0.0.1:38465-fa4202', address: '127.0.0.1:38465', endpoint: '127.0.0.1:39975', slotsTotal: 2 });
    // The recorded vertex detail ran its subtasks there: same data port.
    const subtask = (read('vertex-detail.json') as { subtasks: Array<{ endpoint: string; 'taskmanager-id': string }> }).subtasks[0];
    expect(subtask['taskmanager-id']).toBe(busy.id);
    expect(subtask.endpoint.split(':')[1]).toBe(busy.endpoint!.split(':')[1]);
  });

  it('heap, managed memory, CPU load and network buffers, by the names Flink uses', () => {
    const busy = views.find((v) => v.slotsFree === 0)!;
    expect(busy.metrics).toEqual({
      heapUsed: 38669824,
      heapMax: 478150656,
      managedMemoryUsed: 0,
      managedMemoryTotal: 174483049,
      cpuLoad: 0.004816928061473177,
      networkBuffersUsed: 41,
      networkBuffersTotal: 2662,
    });
  });

  it('a TaskManager without metrics (not fetched, or gone) and metrics that are missing or negative', () => {
    const without = toTaskManagerViews(info, new Map([[ids[0], null]]));
    expect(without.every((v) => v.metrics === null)).toBe(true);
    const partial = toTaskManagerViews(info, new Map([[ids[0], [{ id: TASKMANAGER_METRICS.cpuLoad, value: '-1.0' }, { id: TASKMANAGER_METRICS.heapUsed, value: '12' }]]]));
    expect(partial.find((v) => v.id === ids[0])!.metrics).toMatchObject({ heapUsed: 12, cpuLoad: null, heapMax: null });
  });
});

describe.each(['1.20.3', '2.3.0'])('TaskManager metrics recorded from Flink %s: the same names', (version) => {
  const dir = path.resolve(RECORDED, '..', version);
  const readRecorded = (file: string): unknown => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const info = endpoints.taskManagers.response.parse(readRecorded('taskmanagers.json'));
  const ids = info.taskmanagers.map((tm) => tm.id).sort();
  const views = toTaskManagerViews(info, new Map(ids.map((id, i) => [id, endpoints.taskManagerMetrics.response.parse(readRecorded(`taskmanagers/${i}-metrics.json`))])));

  it('every figure is there', () => {
    for (const view of views) for (const value of Object.values(view.metrics!)) expect(value).not.toBeNull();
    expect(views.find((v) => v.slotsFree === 0)!.metrics!.networkBuffersUsed).toBeGreaterThan(0);
  });
});
