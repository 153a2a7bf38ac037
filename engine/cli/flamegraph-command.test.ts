import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlameGraphView } from '../contracts/flame-graph.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { formatFlameGraph, resolveVertex } from './flamegraph-command.ts';
import { runCli } from './testing/run-cli.ts';

/** `flink-ops flamegraph` against the local engine (which, like a Flink without `rest.flamegraph.enabled`, has none). */
let handle: LocalEngineHandle;
let jobId: string;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), scenario: 'hot-tenant' });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
}, 60_000);
afterAll(() => handle?.close());

describe('flink-ops flamegraph', () => {
  it('says in one line how to turn flame graphs on, and exits 1; --json has the status', async () => {
    const run = await runCli(['flamegraph', '--url', handle.url, '--job', jobId, '--vertex', 'tenant-cost', '--subtask', '12', '--type', 'on-cpu']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('rest.flamegraph.enabled: true');
    const json = await runCli(['flamegraph', '--url', handle.url, '--job', 'gatewaymeter', '--vertex', 'tenant-cost', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ jobId, status: 'disabled', type: 'full', subtask: null, root: null });
  });

  it('refuses a bad type, subtask or vertex in one line', async () => {
    const badType = await runCli(['flamegraph', '--url', handle.url, '--job', jobId, '--vertex', 'tenant-cost', '--type', 'cpu']);
    expect([badType.code, badType.stderr.trim()]).toEqual([2, 'flink-ops: --type must be one of full, on-cpu, off-cpu, not "cpu".']);
    const badSubtask = await runCli(['flamegraph', '--url', handle.url, '--job', jobId, '--vertex', 'tenant-cost', '--subtask', '32']);
    expect(badSubtask.code).toBe(2);
    expect(badSubtask.stderr).toMatch(/has subtasks 0 to 31, not 32\./);
    const badVertex = await runCli(['flamegraph', '--url', handle.url, '--job', jobId, '--vertex', 'nope']);
    expect(badVertex.code).toBe(2);
    expect(badVertex.stderr).toMatch(/The job has no vertex "nope": give its id\. Its vertices: .*tenant-cost/);
  });
});

describe('resolveVertex', () => {
  const vertices = [
    { id: 'a'.repeat(32), name: 'Source: gateway-events -> parse' },
    { id: 'b'.repeat(32), name: 'tenant-cost -> Sink: usd-sink' },
  ];
  it('finds a vertex by id, name or one chained operator', () => {
    expect(resolveVertex(vertices, 'b'.repeat(32)).name).toBe('tenant-cost -> Sink: usd-sink');
    expect(resolveVertex(vertices, 'parse').id).toBe('a'.repeat(32));
    expect(resolveVertex(vertices, 'Sink: usd-sink').id).toBe('b'.repeat(32));
  });
});

describe('formatFlameGraph', () => {
  it('prints the hot frames and the heaviest stack, every cluster-sent name made printable', () => {
    const root = { name: 'root', value: 4, children: [{ name: 'run\u001b]0;owned\u0007', value: 4, children: [{ name: 'hot', value: 3, children: [] }, { name: 'cold', value: 1, children: [] }] }] };
    const view: FlameGraphView = {
      clusterId: 'c', jobId: 'j', vertexId: 'v', subtask: 1, type: 'full', status: 'ready', sentence: '4 thread samples of subtask 1; most own time in hot (75%).',
      sampledAt: 1, root, samples: 4, truncated: false, fetchedAt: 0, requestCount: 1,
      hotFrames: [{ name: 'hot', selfSamples: 3, selfShare: 0.75, totalSamples: 3 }, { name: 'cold', selfSamples: 1, selfShare: 0.25, totalSamples: 1 }],
    };
    const text = formatFlameGraph(view, 'throttle');
    expect(text.includes('\u001b') || text.includes('\u0007')).toBe(false);
    expect(text).toContain('Flame graph (full) of throttle subtask 1');
    expect(text).toMatch(/75\.0% +3 +3 +hot/);
    expect(text).toMatch(/Most own time\nSHARE.*\n75\.0%.*\n25\.0%.*\n\nHeaviest stack[^\n]*\nrun {2}4\n {2}hot {2}3$/);
  });
});
