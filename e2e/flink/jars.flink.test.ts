import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JarInfo } from '../../engine/contracts/jars.ts';
import type { ResubmitPlan } from '../../engine/contracts/job-shape.ts';
import type { JournalEntry } from '../../engine/contracts/operations.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { localPathOf as localPath } from '../../engine/local/checkpoint/checkpoint-storage.ts';
import { OperationsJournal } from '../../engine/operations/journal.ts';
import { killAll, runFlinkOps, spawnFlinkOps, type ConsoleChild } from '../../engine/operations/testing/console-processes.ts';
import { ROOT } from '../support/paths.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';
import { cancelQuietly, JOB_CLASS, LIGHT_ARGS, runTestJob, waitRunning, waitState } from './testJobs.ts';

/**
 * Jars and savepoint disposal against a real Flink, through `flink-ops` as an operator runs it: the test job's jar
 * uploaded, listed as Flink lists it, planned from a savepoint (the plan is Flink's `/jars/:id/plan`), run from that
 * savepoint (Flink restores it), deleted; a savepoint disposed (its folder gone from disk), and a disposal whose CLI
 * is killed with SIGKILL settled by the next invocation: one outcome, the folder gone exactly when it succeeded.
 */
const cluster = readFlinkCluster();
const work = mkdtempSync(path.join(tmpdir(), 'flink-ops-jars-'));
const dataDir = path.join(work, 'data');
const started: string[] = [];

afterAll(async () => {
  // The slots free again before the next suite starts jobs of its own.
  for (const jobId of started) await cancelQuietly(cluster, jobId);
  for (const jobId of started) await waitState(cluster, jobId, 'CANCELED').catch(() => undefined);
  killAll();
  rmSync(work, { recursive: true, force: true });
});

const connection = ['--url', cluster.restUrl];

async function cli(args: string[]): Promise<string> {
  const run = await runFlinkOps(args);
  if (run.code !== 0) throw new Error(`flink-ops ${args[0]} ${args[1] ?? ''} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** The test job's jar as flink.sh built it (compiled only if its sources changed), under a name of this test's own. */
function testJar(): string {
  const built = spawnSync('bash', [path.join(ROOT, 'e2e/flink/flink.sh'), 'build', '--version', cluster.version], { encoding: 'utf8' });
  const jar = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status !== 0 || !existsSync(jar)) throw new Error(`flink.sh build failed: ${built.stderr.trim().split('\n').pop()}`);
  const copy = path.join(work, 'gatewaymeter-jars-test.jar');
  copyFileSync(jar, copy);
  return copy;
}

async function savepointOf(jobId: string): Promise<string> {
  const location = (await cli(['savepoint', ...connection, '--job', jobId, '--data-dir', dataDir, '--target-dir', `file://${path.join(work, 'savepoints')}`])).trim();
  expect(existsSync(path.join(localPath(location), '_metadata')), `${location} on disk`).toBe(true);
  return location;
}

async function disposals(): Promise<JournalEntry[]> {
  const entries = (JSON.parse(await cli(['journal', '--data-dir', dataDir, '--json', '--limit', '100000'])) as { entries: JournalEntry[] }).entries;
  return entries.filter((e) => e.kind === 'dispose-savepoint');
}

/** Reads the journal (without resuming anything) until the CLI has written a new disposal, or has ended. */
async function entryWritten(before: number, child: ConsoleChild): Promise<void> {
  const store = HistoryStore.open(path.join(dataDir, 'history'));
  try {
    const journal = new OperationsJournal(store);
    const deadline = Date.now() + 60_000;
    while (journal.list({ kind: 'dispose-savepoint' }).length <= before && child.child.exitCode === null) {
      if (Date.now() > deadline) throw new Error('the CLI wrote no disposal to the journal within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await store.close();
  }
}

describe(`jars and savepoint disposal on a real Flink ${cluster.version}`, () => {
  let jarId: string;
  let savepoint: string;

  it('uploads a jar and lists it as Flink does; plans and runs it from a savepoint, and Flink restores that savepoint', async () => {
    const jar = (JSON.parse(await cli(['jars', 'upload', ...connection, '--json', testJar()])) as JarInfo);
    jarId = jar.id;
    const flink = await getFromFlink<{ files: Array<{ id: string; name: string; entry: Array<{ name: string }> }> }>(cluster, '/jars');
    const listed = (JSON.parse(await cli(['jars', 'list', ...connection, '--json'])) as { jars: JarInfo[] }).jars;
    expect(listed.map((j) => j.id).sort()).toEqual(flink.files.map((f) => f.id).sort());
    const ours = flink.files.find((f) => f.id === jarId);
    expect(ours?.name).toBe('gatewaymeter-jars-test.jar');
    expect(listed.find((j) => j.id === jarId)?.entryClasses).toEqual(ours!.entry.map((e) => e.name));

    const jobId = await runTestJob(cluster, 1);
    started.push(jobId);
    savepoint = await savepointOf(jobId);
    await cancelQuietly(cluster, jobId);
    await waitState(cluster, jobId, 'CANCELED');

    const runArgs = [jarId, ...connection, '--data-dir', dataDir, '--savepoint', savepoint, '--entry-class', JOB_CLASS, '--parallelism', '1', '--args', LIGHT_ARGS.join(' ')];
    const plan = JSON.parse(await cli(['jars', 'plan', ...runArgs, '--json'])) as ResubmitPlan;
    const flinkPlan = await (
      await fetch(`${cluster.restUrl}/jars/${jarId}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ entryClass: JOB_CLASS, programArgsList: LIGHT_ARGS, parallelism: 1 }) })
    ).json() as { plan: { nodes: Array<{ id: string; parallelism: number }> } };
    expect(plan.graph?.nodes.map((n) => [n.id, n.parallelism])).toEqual(flinkPlan.plan.nodes.map((n) => [n.id, n.parallelism]));
    // The journal took the savepoint of the cancelled job: the plan is compared with it, and the shape is the same.
    expect(plan.stoppedJob).toEqual({ jobId, source: 'savepoint' });
    expect(plan.changes).toEqual([]);

    const run = JSON.parse(await cli(['jars', 'run', ...runArgs, '--json'])) as { jobId: string; shapeChanges: unknown };
    started.push(run.jobId);
    await waitRunning(cluster, run.jobId, 1);
    const restored = await getFromFlink<{ latest: { restored: { external_path: string; is_savepoint: boolean } | null } }>(cluster, `/jobs/${run.jobId}/checkpoints`);
    expect(restored.latest.restored).toMatchObject({ external_path: savepoint, is_savepoint: true });
    await cancelQuietly(cluster, run.jobId);
  }, 400_000);

  it('deletes the jar it uploaded, and only that one', async () => {
    const before = await getFromFlink<{ files: Array<{ id: string }> }>(cluster, '/jars');
    await cli(['jars', 'delete', ...connection, '--yes', jarId]);
    const after = await getFromFlink<{ files: Array<{ id: string }> }>(cluster, '/jars');
    expect(after.files.map((f) => f.id).sort()).toEqual(before.files.map((f) => f.id).filter((id) => id !== jarId).sort());
  });

  it('disposes a savepoint: Flink deletes its folder, the journal says succeeded', async () => {
    const out = JSON.parse(await cli(['dispose-savepoint', ...connection, '--data-dir', dataDir, '--yes', '--json', savepoint])) as { path: string; state: string };
    expect(out).toMatchObject({ path: savepoint, state: 'succeeded' });
    expect(existsSync(localPath(savepoint))).toBe(false);
  }, 120_000);

  it('kill -9 of the CLI during a disposal: the next invocation settles it, with the folder gone exactly when it succeeded', async () => {
    const jobId = await runTestJob(cluster, 1);
    started.push(jobId);
    const problems: string[] = [];
    let killedInFlight = 0;
    for (let i = 0; i < 3; i++) {
      const location = await savepointOf(jobId);
      const before = (await disposals()).length;
      const child = spawnFlinkOps(['dispose-savepoint', ...connection, '--data-dir', dataDir, '--yes', location]);
      await entryWritten(before, child);
      const exitedOnItsOwn = child.child.exitCode !== null;
      await child.kill();
      if (!exitedOnItsOwn) killedInFlight++;
      // `journal` resumes what a killed CLI left in flight before it lists.
      const settled = await eventually(async () => {
        const added = (await disposals()).slice(before);
        return added.every((e) => e.state !== 'in-progress') ? added : undefined;
      }, 'the disposal settled', 120_000);
      const gone = !existsSync(localPath(location));
      process.stdout.write(`kill ${i} (${exitedOnItsOwn ? 'after its end' : 'in flight'}): ${settled.map((e) => e.state).join(', ')}; folder ${gone ? 'gone' : 'there'}\n`);
      if (settled.length !== 1) problems.push(`kill ${i}: ${settled.length} entries`);
      if ((settled[0]?.state === 'succeeded') !== gone) problems.push(`kill ${i}: ${settled[0]?.state} but the folder is ${gone ? 'gone' : 'there'}`);
    }
    expect(problems).toEqual([]);
    expect(killedInFlight, 'kills that met the CLI in flight').toBeGreaterThanOrEqual(2);
  }, 400_000);
});
