import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import type { OperationClock } from '../operations/driver-context.ts';
import { fetchFlameGraph } from './fetch-flame-graph.ts';

/**
 * Flink's flame graph endpoint as a cluster answers it, sentinels and waiting included (fault injection: the happy
 * path against a real Flink is e2e/flink/flamegraph.flink.test.ts), and hostile trees.
 */
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const JOB = 'a'.repeat(32);
const VERTEX = 'b'.repeat(32);
const SAMPLED_AT = 1_796_197_602_900;
const TREE = { name: 'root', value: 10, children: [{ name: 'com.example.Throttle.processElement:42', value: 10, children: [] }] };

/** Time that passes only when the fetch sleeps: the waiting loop runs without waiting. */
function manualClock(): OperationClock & { slept: number } {
  let now = 0;
  return {
    slept: 0,
    now: () => now,
    async sleep(ms) {
      now += ms;
      this.slept += ms;
    },
  };
}

async function cluster(answers: unknown[]): Promise<{ client: FlinkRestClient; asked: string[] }> {
  const asked: string[] = [];
  const server = await startHostileServer((req, res: ServerResponse) => {
    asked.push(req.url!);
    json(res, 200, answers[Math.min(asked.length - 1, answers.length - 1)]);
  });
  servers.push(server);
  return { client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 2000 }), asked };
}

describe('fetchFlameGraph', () => {
  it('asks with Flink\'s own query values, and again each second while Flink samples', async () => {
    const { client, asked } = await cluster([{ endTimestamp: -3 }, { endTimestamp: -3 }, { endTimestamp: SAMPLED_AT, data: TREE }]);
    const clock = manualClock();
    const view = await fetchFlameGraph(client, 'c', JOB, VERTEX, { type: 'on-cpu', subtask: 12, clock });
    expect(asked).toEqual(Array(3).fill(`/jobs/${JOB}/vertices/${VERTEX}/flamegraph?type=on_cpu&subtaskindex=12`));
    expect(clock.slept).toBe(2_000);
    expect(view).toMatchObject({ status: 'ready', subtask: 12, type: 'on-cpu', sampledAt: SAMPLED_AT, samples: 10, requestCount: 3 });
    expect(view.sentence).toBe('10 on-CPU samples of subtask 12; most own time in com.example.Throttle.processElement:42 (100%).');
  });

  it('stops asking at its deadline and says Flink is still sampling', async () => {
    const { client, asked } = await cluster([{ endTimestamp: -3 }]);
    const view = await fetchFlameGraph(client, 'c', JOB, VERTEX, { type: 'full', subtask: null, clock: manualClock(), waitMs: 5_000 });
    expect(view.status).toBe('waiting');
    expect(asked.length).toBe(6); // at 0, 1, … 5 s
    expect(view.sentence).toMatch(/^Flink is still sampling the vertex's subtasks/);
  });

  it('says how to turn flame graphs on where they are off, and that a finished vertex has none', async () => {
    const off = await fetchFlameGraph((await cluster([{ endTimestamp: -2 }])).client, 'c', JOB, VERTEX, { type: 'full', subtask: null, clock: manualClock() });
    expect(off.status).toBe('disabled');
    expect(off.sentence).toContain('rest.flamegraph.enabled: true');
    const done = await fetchFlameGraph((await cluster([{ endTimestamp: -1 }])).client, 'c', JOB, VERTEX, { type: 'full', subtask: 3, clock: manualClock() });
    expect(done.sentence).toBe('No flame graph: subtask 3 no longer runs.');
  });

  it('refuses an answer that is not a flame graph, naming the endpoint', async () => {
    const { client } = await cluster([{ endTimestamp: 'soon' }]);
    await expect(fetchFlameGraph(client, 'c', JOB, VERTEX, { type: 'full', subtask: null, clock: manualClock() })).rejects.toThrow(/flamegraph/);
  });

  it('keeps hostile frame names as text and a hostile tree within bounds', async () => {
    const wide = { name: 'root', value: 1, children: Array.from({ length: 60_000 }, (_, i) => ({ name: `<img src=x onerror=alert(${i})>\u001b[2J`, value: 1, children: [] })) };
    const { client } = await cluster([{ endTimestamp: SAMPLED_AT, data: wide }]);
    const view = await fetchFlameGraph(client, 'c', JOB, VERTEX, { type: 'full', subtask: null, clock: manualClock() });
    expect(view.truncated).toBe(true);
    expect(view.root!.children.length).toBeLessThan(50_000);
    expect(view.hotFrames[0].name).toMatch(/^<img src=x onerror=alert\(\d+\)>\ufffd\[2J$/);
  });
});
