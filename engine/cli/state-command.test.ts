import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import type { StateReport } from './state-command.ts';
import { runCli } from './testing/run-cli.ts';

/** `flink-ops state` against the local engine's failed-logins job: a job with checkpoints, and one without. */
const dirs = tempDirs('flink-ops-cli-state-');
let broadcast: LocalEngineHandle;
let unchecked: LocalEngineHandle;

beforeAll(async () => {
  // The engine's clock ends at about the wall clock's now: the CLI's window ends at now.
  broadcast = await startLocalEngine({ scenario: 'state-broadcast', port: 0, time: 'manual', clock: new ManualClock(Date.now() - 90_000), checkpointDir: dirs.make() });
  broadcast.engine.advance(90_000);
  unchecked = await startLocalEngine({ scenario: 'state-no-ttl', port: 0, time: 'manual', clock: new ManualClock(Date.now() - 20_000) });
  unchecked.engine.advance(20_000);
}, 60_000);

afterAll(async () => {
  await broadcast?.close();
  await unchecked?.close();
  dirs.removeAll();
});

describe('flink-ops state', () => {
  it('on state-broadcast: suspect D, blocklist-filter read as a broadcast input, from the checkpoints the cluster keeps', async () => {
    const jobId = [...broadcast.engine.cluster.jobs.keys()][0];
    const json = await runCli(['state', '--url', broadcast.url, '--job', jobId, '--json', '--data-dir', dirs.make()]);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as StateReport;
    expect(report).toMatchObject({ source: 'cluster', job: { id: jobId, name: 'failed-logins', state: 'RUNNING' } });
    expect(report.state.suspect).toBe('D');
    const vertex = report.state.vertices.find((v) => v.vertexId === report.state.vertexId)!;
    expect(vertex).toMatchObject({ name: 'blocklist-filter', broadcastInput: true, keyed: false, parallelism: 4 });
    expect(report.state.sentence).toMatch(/^Each of the 4 subtasks of blocklist-filter holds the same 1\.\d+ MiB/);

    const text = await runCli(['state', '--url', broadcast.url, '--job', 'failed-logins', '--data-dir', dirs.make()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\nA broadcast table on every subtask: Each of the 4 subtasks of blocklist-filter/);
    expect(text.stdout).toMatch(/\nblocklist-filter \(parallelism 4, max 128, not keyed, broadcast input\)/);
  }, 120_000);

  // Each scenario of the chapter as its suspect, through the CLI as an operator runs it (the virtual times of
  // engine/local/scenarios/state-scenarios.test.ts, which checks their figures).
  it.each([
    { scenario: 'state-whale', ms: 180_000, args: [], suspect: 'A', vertex: /^failed-logins -> Sink: alerts$/ },
    { scenario: 'state-no-ttl', ms: 150_000, args: [], suspect: 'B', vertex: /^failed-logins -> Sink: alerts$/ },
    { scenario: 'state-raw-list', ms: 150_000, args: ['--keys', '2000'], suspect: 'C', vertex: /^failed-logins -> Sink: alerts$/ },
    { scenario: 'state-ttl', ms: 240_000, args: [], suspect: 'bounded', vertex: undefined },
  ])('on $scenario: suspect $suspect', async ({ scenario, ms, args, suspect, vertex }) => {
    const handle = await startLocalEngine({ scenario, port: 0, time: 'manual', clock: new ManualClock(Date.now() - ms), checkpointDir: dirs.make(), checkpointIntervalMs: 10_000 });
    try {
      handle.engine.advance(ms);
      const result = await runCli(['state', '--url', handle.url, '--job', 'failed-logins', '--json', '--data-dir', dirs.make(), ...args]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const { state } = JSON.parse(result.stdout) as StateReport;
      expect(state.suspect, state.sentence).toBe(suspect);
      if (vertex) expect(state.vertices.find((v) => v.vertexId === state.vertexId)?.name).toMatch(vertex);
      if (suspect === 'B') {
        // No --capacity: the projection's limit is a TaskManager's managed memory per slot, as the engine reports it.
        const { taskmanagers } = (await (await fetch(`${handle.url}/taskmanagers`)).json()) as { taskmanagers: Array<{ slotsNumber: number; memoryConfiguration: { managedMemory: number } }> };
        const perSlot = Math.min(...taskmanagers.map((tm) => Math.floor(tm.memoryConfiguration.managedMemory / tm.slotsNumber)));
        expect(state.projection).toMatchObject({ targetBytes: perSlot, targetSource: expect.stringMatching(/^a TaskManager's managed memory per slot: /) });
        expect(state.projection!.reachInMs).toBeGreaterThan(0);
      }
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('on a job without checkpointing: one sentence, not Flink\'s 404, and a non-zero exit', async () => {
    const jobId = [...unchecked.engine.cluster.jobs.keys()][0];
    const result = await runCli(['state', '--url', unchecked.url, '--job', jobId, '--data-dir', dirs.make()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`flink-ops: Job ${jobId} has no checkpointing enabled: its state is known only at checkpoints.\n`);
  }, 120_000);
});
