import { describe, expect, it } from 'vitest';
import { foldedStacks, hotFrames, toFlameTree } from '../../engine/analysis/flame-graph.ts';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { fetchFlameGraph } from '../../engine/inspect/fetch-flame-graph.ts';
import { runCli } from '../../engine/cli/testing/run-cli.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';

/**
 * Flame graphs on a real Flink: e2e/flink/flink.sh turns `rest.flamegraph.enabled` on for 2.x and leaves it off on 1.x
 * (Flink's default), so every CI run sees both answers. With it on, the hot throttle subtask's graph (full: the
 * throttle parks its thread to pace each record) holds the job's own Throttle frames, and it is Flink's own graph: the same sample Flink
 * serves (it keeps one for `rest.flamegraph.refresh-interval`, 60 s) read straight after the console's.
 */
const cluster = readFlinkCluster();
const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 10_000 });
const enabled = !cluster.version.startsWith('1.');

interface FlinkFlameGraph {
  endTimestamp: number;
  data?: unknown;
}

async function hotThrottleSubtask(): Promise<{ vertexId: string; subtask: number }> {
  const job = await getFromFlink<{ vertices: Array<{ id: string; name: string }> }>(cluster, `/jobs/${cluster.jobId}`);
  const vertexId = job.vertices.find((v) => v.name === 'throttle')!.id;
  const details = await getFromFlink<{ subtasks: Array<{ subtask: number; metrics: { 'accumulated-busy-time': number } }> }>(cluster, `/jobs/${cluster.jobId}/vertices/${vertexId}`);
  const busiest = details.subtasks.reduce((a, b) => (b.metrics['accumulated-busy-time'] > a.metrics['accumulated-busy-time'] ? b : a));
  return { vertexId, subtask: busiest.subtask };
}

describe(`flame graphs on Flink ${cluster.version} (rest.flamegraph.enabled ${enabled ? 'on' : 'off'})`, () => {
  it(enabled ? "the hot throttle subtask's graph is Flink's own, with the job's Throttle frames" : 'says flame graphs are off and how to turn them on', async () => {
    const { vertexId, subtask } = await hotThrottleSubtask();
    const view = await fetchFlameGraph(client, 'flink', cluster.jobId, vertexId, { type: 'full', subtask, waitMs: 30_000 });
    const flink = await getFromFlink<FlinkFlameGraph>(cluster, `/jobs/${cluster.jobId}/vertices/${vertexId}/flamegraph?type=full&subtaskindex=${subtask}`);
    if (!enabled) {
      expect(flink.endTimestamp).toBe(-2);
      expect(view.status).toBe('disabled');
      expect(view.sentence).toContain('rest.flamegraph.enabled: true');
      return;
    }
    expect(view.status, view.sentence).toBe('ready');
    // The same sample as Flink's answer, and the same figures derived from it.
    expect(view.sampledAt).toBe(flink.endTimestamp);
    const tree = toFlameTree(flink.data);
    expect(view.samples).toBe(tree.root!.value);
    expect(view.hotFrames).toEqual(hotFrames(tree.root!));
    const onStack = JSON.stringify(view.root).match(/dev\.flinkops\.testjob\.GatewayMeterJob\$Throttle\.map:\d+/g) ?? [];
    expect(onStack.length, 'the job\'s throttle code is in the graph').toBeGreaterThan(0);
    // The throttle paces each record (its Pacer parks the thread): a saturated subtask's heaviest stack runs through it.
    const heaviest = foldedStacks(view.root!).map((line) => ({ stack: line.slice(0, line.lastIndexOf(' ')), samples: Number(line.slice(line.lastIndexOf(' ') + 1)) })).sort((a, b) => b.samples - a.samples)[0];
    expect(heaviest.stack).toMatch(/GatewayMeterJob\$Throttle\.map:\d+;.*(park|sleep)/i);
  }, 90_000);

  it(enabled ? 'flink-ops flamegraph prints the hot frames, and folded stacks other tools read' : 'flink-ops flamegraph says why in one line and exits 1', async () => {
    const { subtask } = await hotThrottleSubtask();
    const args = ['flamegraph', '--url', cluster.restUrl, '--job', cluster.jobId, '--vertex', 'throttle', '--subtask', String(subtask)];
    const text = await runCli(args);
    if (!enabled) {
      expect([text.code, text.stderr.trim().split('\n').length]).toEqual([1, 1]);
      expect(text.stderr).toContain('rest.flamegraph.enabled: true');
      return;
    }
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Flame graph (full) of throttle subtask ${subtask}`);
    expect(text.stdout).toMatch(/Heaviest stack[\s\S]*GatewayMeterJob\$Throttle\.map/);
    const folded = await runCli([...args, '--folded']);
    expect(folded.code).toBe(0);
    const lines = folded.stdout.trim().split('\n');
    for (const line of lines) expect(line).toMatch(/^\S+ \d+$/);
    expect(lines.some((l) => /GatewayMeterJob\$Throttle\.map:\d+;.*(park|sleep)/i.test(l))).toBe(true);
  }, 90_000);
});
