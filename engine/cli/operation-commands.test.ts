import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../contracts/operations.ts';
import { localPathOf } from '../local/checkpoint/checkpoint-storage.ts';
import { killAll, runFlinkOps, startEngineProcess, type ConsoleChild } from '../operations/testing/console-processes.ts';

/**
 * `flink-ops savepoint|stop|cancel|rescale|resubmit|journal` against a local engine in its own process: results on
 * stdout, failures as one line on stderr with the documented exit code, confirmations for what discards state, and
 * one journal shared by every invocation.
 */

let root: string;
let url: string;
let engine: ConsoleChild;
let dataDir: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-cli-ops-'));
  dataDir = path.join(root, 'data');
  ({ url, process: engine } = await startEngineProcess(['--scenario', 'exactly-once', '--rate', '200', '--checkpoint-dir', path.join(root, 'checkpoints'), '--allow-dir', root]));
}, 60_000);

afterAll(async () => {
  await engine?.kill();
  killAll();
  rmSync(root, { recursive: true, force: true });
});

/** `--data-dir` goes right after the command: anything after `--` is the program's. */
const ops = (command: string, ...args: string[]) => runFlinkOps([command, '--data-dir', dataDir, ...args]);

async function runningJob(): Promise<string> {
  const { jobs } = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: Array<{ jid: string; state: string }> };
  return jobs.find((j) => j.state === 'RUNNING')!.jid;
}

async function journal(): Promise<JournalEntry[]> {
  const { stdout } = await ops('journal', '--json');
  return (JSON.parse(stdout) as { entries: JournalEntry[] }).entries;
}

describe('flink-ops operations', () => {
  it('savepoint prints the path; --no-wait prints the trigger id, and the next invocation records the outcome', async () => {
    const saved = await ops('savepoint', '--url', url, '--job', 'gatewaymeter');
    expect(saved.code, saved.stderr).toBe(0);
    const location = saved.stdout.trim();
    expect(location).toMatch(/^file:.*savepoints\/savepoint-[0-9a-f]{6}-[0-9a-f]{12}$/);
    expect(existsSync(path.join(localPathOf(location), '_metadata'))).toBe(true);

    const noWait = await ops('savepoint', '--url', url, '--job', await runningJob(), '--no-wait', '--format', 'native');
    expect(noWait.code, noWait.stderr).toBe(0);
    const triggerId = noWait.stdout.trim();
    expect(triggerId).toMatch(/^[0-9a-f]{32}$/);
    const entries = await journal();
    expect(entries.find((e) => e.id === triggerId)).toMatchObject({ kind: 'savepoint', state: 'succeeded', origin: 'cli', params: { format: 'native' } });
    expect(entries.find((e) => e.resultPath === location)).toMatchObject({ state: 'succeeded', clusterUrl: url });
  }, 120_000);

  it('cancel and stop --drain need --yes when stdin is not a terminal; nothing is sent without it', async () => {
    const before = (await journal()).length;
    const cancel = await ops('cancel', '--url', url, '--job', await runningJob());
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toMatch(/^flink-ops: Cancel job [0-9a-f]{32}: it stops without a savepoint, and its state since the last completed checkpoint is lost\. Pass --yes to confirm \(stdin is not a terminal\)\.\n$/);
    const drain = await ops('stop', '--url', url, '--job', await runningJob(), '--drain');
    expect(drain.code).toBe(2);
    expect(drain.stderr).toMatch(/every event-time window fires now.*Pass --yes to confirm/);
    expect(await journal()).toHaveLength(before);
  }, 120_000);

  it('a savepoint into a folder the JobManager cannot write fails: one line on stderr, exit 1, in the journal', async () => {
    const file = path.join(root, 'a-file');
    writeFileSync(file, '');
    const failed = await ops('savepoint', '--url', url, '--job', await runningJob(), '--target-dir', path.join(file, 'sp'));
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').at(-1)).toMatch(/^flink-ops: The JobManager could not write the savepoint to the target directory/);
    expect(failed.stdout).toBe('');
    expect((await journal())[0]).toMatchObject({ state: 'failed', params: { targetDirectory: path.join(file, 'sp') } });
  }, 120_000);

  it('rescale --plan-only prints the plan with its assumption and changes nothing; above the max parallelism is refused', async () => {
    const jobId = await runningJob();
    const plan = await ops('rescale', '--url', url, '--job', jobId, '--parallelism', '6', '--plan-only', '--hot-key', 'umbrella=40');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^Rescale plan for gatewaymeter \([0-9a-f]{32}\): route adaptive\./);
    expect(plan.stdout).toMatch(/parallelism 4 → 6 \(max parallelism 128\)/);
    expect(plan.stdout).toMatch(/At parallelism 6, umbrella \(key group \d+\) moves from subtask \d to subtask \d/);
    expect(plan.stdout).toContain('128 key groups over 6 subtasks: 2 subtasks get 22 key groups and 4 get 21');
    expect(plan.stdout).toContain('Assumption: Flink does not measure load per key group.');
    const refused = await ops('rescale', '--url', url, '--job', jobId, '--parallelism', '200');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(/^flink-ops: Parallelism 200 is above the max parallelism of .* \(128\)/);
  }, 120_000);

  it('stop, then resubmit from its savepoint through the jar, then rescale and cancel the new job', async () => {
    const jobId = await runningJob();
    const stop = await ops('stop', '--url', url, '--job', jobId);
    expect(stop.code, stop.stderr).toBe(0);
    const savepoint = stop.stdout.trim();
    const resubmitArgs = ['--url', url, '--jar', 'local-engine_gatewaymeter.jar', '--from', savepoint, '--parallelism', '2', '--job', jobId, '--', '--scenario', 'exactly-once', '--rate', '200'];
    const journaled = (await journal()).length;
    // Flink's plan beside the stopped run, sending nothing.
    const planned = await ops('resubmit', '--plan-only', ...resubmitArgs);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/^Flink's plan of the program at job parallelism 2, beside the stopped run:\nVERTEX +STOPPED RUN +MAX PARALLELISM +PLAN\nSource: gateway-events -> parse +4 +128 +2\n/);
    expect(planned.stdout).toContain('Differs from the stopped run: Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2; tenant-cost -> Sink: usd-sink: 4 → 2.');
    // A changed shape is never sent unconfirmed.
    const unconfirmed = await ops('resubmit', ...resubmitArgs);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr.trim().split('\n').at(-1)).toBe(
      'flink-ops: Resubmit with a changed shape: Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2; tenant-cost -> Sink: usd-sink: 4 → 2. Pass --yes to confirm (stdin is not a terminal).',
    );
    const badArgs = await ops('resubmit', '--url', url, '--jar', 'local-engine_gatewaymeter.jar', '--from', savepoint, '--job', jobId, '--', '--speed', 'fast');
    expect(badArgs.code).not.toBe(0);
    expect(badArgs.stderr.trim().split('\n')).toHaveLength(1);
    expect(badArgs.stderr).toMatch(/^flink-ops: Not sent: Flink could not plan local-engine_gatewaymeter\.jar with these arguments \(.*Unknown program argument "--speed"/);
    expect(await journal()).toHaveLength(journaled);
    const resubmit = await ops('resubmit', '--yes', ...resubmitArgs);
    expect(resubmit.code, resubmit.stderr).toBe(0);
    expect(resubmit.stderr).toContain('Differs from the stopped run: Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2; tenant-cost -> Sink: usd-sink: 4 → 2.\nresubmit of job');
    expect(resubmit.stderr.trim().split('\n').at(-1)).toBe('Differs from the stopped run: Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2; tenant-cost -> Sink: usd-sink: 4 → 2.');
    const newJobId = resubmit.stdout.trim();
    expect(newJobId).toMatch(/^[0-9a-f]{32}$/);
    const details = (await (await fetch(`${url}/jobs/${newJobId}`)).json()) as { state: string; vertices: Array<{ parallelism: number }> };
    expect(details.state).toBe('RUNNING');
    expect(details.vertices.map((v) => v.parallelism)).toContain(2);
    const restored = (await (await fetch(`${url}/jobs/${newJobId}/checkpoints`)).json()) as { latest: { restored: { external_path: string } } };
    expect(restored.latest.restored.external_path).toBe(savepoint);

    const rescale = await ops('rescale', '--url', url, '--job', newJobId, '--parallelism', '3');
    expect(rescale.code, rescale.stderr).toBe(0);
    expect(rescale.stdout.trim()).toBe(newJobId);

    const cancel = await ops('cancel', '--url', url, '--job', newJobId, '--yes');
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout.trim()).toBe(`${newJobId} CANCELED`);
    const kinds = (await journal()).filter((e) => e.jobId === newJobId || e.newJobId === newJobId).map((e) => [e.kind, e.state]);
    expect(kinds).toEqual([['cancel', 'succeeded'], ['rescale', 'succeeded'], ['resubmit', 'succeeded']]);
    const csv = await ops('journal', '--csv', '--job', newJobId);
    expect(csv.stdout.split('\n')[0]).toBe('created,finished,cluster,cluster_url,job_id,job_name,kind,state,trigger_id,parameters,savepoint_path,new_job_id,failure,failure_detail,origin,part_of,trigger_requests,poll_requests,shape_changes');
    expect(csv.stdout).toContain('Source: gateway-events -> parse: 4 → 2; assemble: 4 → 2; tenant-cost -> Sink: usd-sink: 4 → 2');
  }, 180_000);
});
