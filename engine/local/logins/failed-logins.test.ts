import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BroadcastProcessOperator } from '../api/broadcast.ts';
import { LocalEngine } from '../engine.ts';
import { buildJobGraph } from '../runtime/job-graph.ts';
import { loadScenario } from '../scenarios/scenario.ts';
import { tempDirs } from '../testing/engine-test-kit.ts';
import { ManualClock } from '../time/clock.ts';
import { BLOCKLIST_STATE, failedLoginsJob } from './failed-logins-job.ts';
import { loginEvent, userId } from './login-events.ts';

const dirs = tempDirs('failed-logins-');
afterAll(() => dirs.removeAll());
const T0 = 1_767_225_600_000;

describe('the failed-logins job', () => {
  it("has Flink's plan: blocklist-filter reads a FORWARD and a BROADCAST input, failed-logins a HASH one", () => {
    const graph = buildJobGraph(failedLoginsJob({ parallelism: 4, seed: 42, logins: loadScenario('state-broadcast').logins! }));
    const inputs = Object.fromEntries(graph.vertices.map((v) => [v.name, v.inputs.map((e) => e.shipStrategy)]));
    expect(inputs).toEqual({ 'Source: logins': [], 'Source: blocklist': [], 'blocklist-filter': ['FORWARD', 'BROADCAST'], 'failed-logins -> Sink: alerts': ['HASH'] });
  });

  it('generates the same events for the same seed, with fixed-width user ids and the whale at its share', () => {
    const traffic = loadScenario('state-whale').logins!.traffic;
    const events = Array.from({ length: 20_000 }, (_, n) => loginEvent(traffic, 7, n, T0));
    expect(events.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, n) => loginEvent(traffic, 7, n, T0)));
    expect(new Set(events.map((e) => e.user_id.length))).toEqual(new Set([11]));
    const whale = events.filter((e) => e.user_id === 'u9999999999');
    expect(whale.length / events.length).toBeGreaterThan(0.48);
    expect(whale.length / events.length).toBeLessThan(0.52);
    expect(whale.every((e) => !e.ok)).toBe(true);
    expect(userId(12)).toBe('u0000000012');
  });

  it('restores the broadcast table on every subtask, also at another parallelism', () => {
    const checkpointDir = dirs.make();
    const engine = new LocalEngine({ scenario: 'state-broadcast', clock: new ManualClock(T0), checkpointDir, checkpointIntervalMs: 10_000 });
    engine.advance(25_000);
    const first = [...engine.cluster.jobs.values()][0];
    const [retained] = readdirSync(path.join(checkpointDir, first.jobId)).filter((d) => d.startsWith('chk-'));
    // The first job keeps running (its checkpoints would be deleted when it is cancelled): the cluster has the slots.
    const restored = engine.runBuiltInJob({ job: 'failed-logins', savepointPath: path.join(checkpointDir, first.jobId, retained), parallelism: 2 });
    const filter = restored.vertices.find((v) => v.jobVertex.name === 'blocklist-filter')!;
    expect(filter.tasks).toHaveLength(2);
    for (const task of filter.tasks) {
      const operator = task.head.operator as BroadcastProcessOperator<unknown, unknown, unknown>;
      expect(operator.snapshotOperatorState()[BLOCKLIST_STATE.name].partitions).toHaveLength(20_000);
    }
  });
});
