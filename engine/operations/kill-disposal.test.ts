import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, OperationState } from '../contracts/operations.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { HistoryStore } from '../history/history-store.ts';
import { localPathOf } from '../local/checkpoint/checkpoint-storage.ts';
import { mulberry32 } from '../local/time/random.ts';
import { OperationsJournal } from './journal.ts';
import { listSavepoints } from './savepoint-listing.ts';
import { killAll, runFlinkOps, spawnFlinkOps, startEngineProcess, type ConsoleChild } from './testing/console-processes.ts';

/**
 * kill -9 of `flink-ops dispose-savepoint` at random moments around its journal write, on a local engine that outlives
 * it. The next CLI invocation settles the entry: exactly one outcome per disposal; the savepoint's folder is gone
 * exactly when the outcome is a success, and the console's listing forgets the savepoint exactly then.
 */

let root: string;
let engine: ConsoleChild;
let url: string;
const dataDir = () => path.join(root, 'data');
const OUTCOMES: OperationState[] = ['succeeded', 'failed', 'not-started', 'unknown'];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-kill-disposal-'));
  ({ url, process: engine } = await startEngineProcess(['--scenario', 'exactly-once', '--rate', '200', '--checkpoint-dir', path.join(root, 'checkpoints')]));
}, 60_000);

afterAll(async () => {
  await engine?.kill();
  killAll();
  rmSync(root, { recursive: true, force: true });
});

async function journal(): Promise<JournalEntry[]> {
  const result = await runFlinkOps(['journal', '--data-dir', dataDir(), '--json', '--limit', '100000']);
  if (result.code !== 0) throw new Error(`flink-ops journal failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { entries: JournalEntry[] }).entries;
}

async function runningJob(): Promise<string> {
  const { jobs } = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: Array<{ jid: string; state: string }> };
  return jobs.find((j) => j.state === 'RUNNING')!.jid;
}

/** Reads the journal (without resuming anything) until the CLI has written its disposal, or has ended. */
async function waitForEntry(before: Set<string>, cli: ConsoleChild): Promise<void> {
  const store = HistoryStore.open(path.join(dataDir(), 'history'));
  try {
    const j = new OperationsJournal(store);
    while (!j.list({ kind: 'dispose-savepoint' }).some((e) => !before.has(e.id)) && cli.child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
  } finally {
    await store.close();
  }
}

async function listed(jobId: string, savepointPath: string): Promise<boolean> {
  const history = HistoryStore.open(path.join(dataDir(), 'history'));
  try {
    const all = await listSavepoints({ journal: new OperationsJournal(history), history, client: new FlinkRestClient({ baseUrl: url }), clusterId: url, jobId });
    return all.some((s) => s.path === savepointPath);
  } finally {
    await history.close();
  }
}

describe('kill -9 of the CLI during a savepoint disposal', () => {
  it('5 times: one outcome each; the folder gone and the savepoint forgotten exactly when it succeeded', async () => {
    const random = mulberry32(20261202);
    const problems: string[] = [];
    let killedInFlight = 0;
    for (let i = 0; i < 5; i++) {
      const jobId = await runningJob();
      const taken = await runFlinkOps(['savepoint', '--url', url, '--job', jobId, '--data-dir', dataDir()]);
      expect(taken.code, taken.stderr).toBe(0);
      const savepointPath = taken.stdout.trim();
      const before = new Set((await journal()).map((e) => e.id));
      const cli = spawnFlinkOps(['dispose-savepoint', '--url', url, '--data-dir', dataDir(), '--yes', savepointPath]);
      await waitForEntry(before, cli);
      // Within the disposal's ~300 ms on the engine, or just after it.
      await new Promise((r) => setTimeout(r, random() * 450));
      const exitedOnItsOwn = cli.child.exitCode !== null;
      await cli.kill();
      if (!exitedOnItsOwn) killedInFlight++;
      const added = (await journal()).filter((e) => !before.has(e.id) && e.kind === 'dispose-savepoint');
      const entry = added[0];
      process.stdout.write(`kill ${i}: ${exitedOnItsOwn ? 'after its end' : 'in flight'} -> ${entry?.state} ${entry?.progress ?? ''}\n`);
      if (added.length !== 1) problems.push(`kill ${i}: ${added.length} entries`);
      if (!entry || !OUTCOMES.includes(entry.state)) problems.push(`kill ${i}: no outcome (${entry?.state})`);
      const gone = !existsSync(localPathOf(savepointPath));
      if (entry?.state === 'succeeded' && !gone) problems.push(`kill ${i}: succeeded but ${savepointPath} is still there`);
      if (entry?.state !== 'succeeded' && gone) problems.push(`kill ${i}: ${entry?.state} but ${savepointPath} is gone`);
      if ((await listed(jobId, savepointPath)) === (entry?.state === 'succeeded')) problems.push(`kill ${i}: the listing ${entry?.state === 'succeeded' ? 'still shows' : 'forgot'} ${savepointPath}`);
    }
    expect(problems).toEqual([]);
    expect(killedInFlight).toBeGreaterThanOrEqual(2);
    // The engine got a disposal request for every entry, and none the journal does not know of.
    const { disposals } = (await (await fetch(`${url}/local-engine/v1/async-operations`)).json()) as { disposals: Array<{ path: string }> };
    const paths = new Set((await journal()).filter((e) => e.kind === 'dispose-savepoint').map((e) => e.params.savepointPath));
    expect(disposals.every((d) => paths.has(d.path))).toBe(true);
    expect(new Set(disposals.map((d) => d.path)).size).toBe(paths.size);
  }, 300_000);
});
