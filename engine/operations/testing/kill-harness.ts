import type { JournalEntry, OperationState } from '../../contracts/operations.ts';
import { newTriggerId } from '../operations.ts';
import { runFlinkOps, spawnFlinkOps, startAppProcess, waitFor, type ConsoleChild } from './console-processes.ts';

/**
 * `kill -9` of the console during a savepoint or a stop, at random moments, on a cluster that outlives it; after each
 * restart the journal must hold exactly one outcome per operation (none lost, none doubled, none left open). Shared
 * by the local-engine test and the real-Flink test, which then check what the cluster saw (one trigger each).
 */

export interface KillTarget {
  url: string;
  dataDir: string;
  /** A RUNNING job to operate on (the harness asks again after each stop). */
  runningJob(): Promise<string>;
  /** Where savepoints go (a folder of this run). */
  targetDirectory: string;
  random(): number;
  log?(line: string): void;
}

export interface KillRecord {
  console: 'cli' | 'app';
  kind: 'savepoint' | 'stop';
  jobId: string;
  delayMs: number;
  /** The entry's state when the console died (null: it died before writing one). */
  stateAtKill: OperationState | null;
  entry: JournalEntry | null;
}

const OUTCOMES: OperationState[] = ['succeeded', 'failed', 'not-started', 'unknown'];

async function journal(dataDir: string): Promise<JournalEntry[]> {
  // Every CLI invocation first settles what earlier processes left open: this is the "restart".
  const result = await runFlinkOps(['journal', '--data-dir', dataDir, '--json', '--limit', '100000']);
  if (result.code !== 0) throw new Error(`flink-ops journal failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { entries: JournalEntry[] }).entries;
}

function newEntries(after: JournalEntry[], before: Set<string>): JournalEntry[] {
  return after.filter((e) => !before.has(e.id) && e.parentId === null);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Kills the CLI `times` times; the next CLI invocation (`flink-ops journal`) is the restart. */
export async function killCli(target: KillTarget, times: number): Promise<KillRecord[]> {
  const records: KillRecord[] = [];
  // Where in the CLI's life the journal write and the outcome fall: measured once without a kill, then learnt as the
  // runs go (a loaded machine shifts both).
  let before = new Set((await journal(target.dataDir)).map((e) => e.id));
  const calibration = spawnFlinkOps(['savepoint', '--url', target.url, '--job', await target.runningJob(), '--data-dir', target.dataDir, '--target-dir', target.targetDirectory]);
  await calibration.exit;
  const measured = newEntries(await journal(target.dataDir), before)[0];
  if (!measured?.finishedAt) throw new Error(`The calibration savepoint did not finish: ${calibration.stderr()}`);
  const writes = [measured.createdAt - calibration.startedAt];
  const ends = [measured.finishedAt - calibration.startedAt];
  before = new Set((await journal(target.dataDir)).map((e) => e.id));
  let bias = 0;
  for (let i = 0; i < times; i++) {
    const kind = i % 4 === 3 ? 'stop' : 'savepoint';
    const jobId = await target.runningJob();
    // Two kinds of random moment: most kills wait until the operation is in the journal and then strike within the
    // next 200 ms (in flight: the CLI's start-up jitter on a loaded machine is larger than a savepoint); the others
    // fall anywhere around the typical write and outcome, before, during or after.
    const cli = spawnFlinkOps([kind, '--url', target.url, '--job', jobId, '--data-dir', target.dataDir, '--target-dir', target.targetDirectory]);
    let delayMs: number;
    if (target.random() < 0.6) {
      const written = await waitForEntry(target.dataDir, before, cli);
      delayMs = Math.round(written - cli.startedAt + target.random() * 200);
      await sleepUntil(cli.startedAt + delayMs, cli);
    } else {
      const from = Math.max(0, median(writes) - 300 + bias);
      const to = Math.max(from + 300, median(ends) + 100 + bias);
      delayMs = Math.round(from + target.random() * (to - from));
      await sleepUntil(cli.startedAt + delayMs, cli);
    }
    const stateAtKill = await killAndPeek(cli, target.dataDir, before);
    const after = await journal(target.dataDir);
    const added = newEntries(after, before);
    if (added.length > 1) throw new Error(`One kill left ${added.length} journal entries: ${JSON.stringify(added)}`);
    const entry = added[0] ?? null;
    if (entry) {
      writes.push(entry.createdAt - cli.startedAt);
      if (entry.finishedAt !== null && stateAtKill !== null && OUTCOMES.includes(stateAtKill)) ends.push(entry.finishedAt - cli.startedAt);
    }
    records.push({ console: 'cli', kind, jobId, delayMs, stateAtKill, entry });
    before = new Set(after.map((e) => e.id));
    if (stateAtKill === null) bias += 250;
    else if (OUTCOMES.includes(stateAtKill)) bias -= 150;
    target.log?.(`cli  ${kind.padEnd(9)} kill at ${String(delayMs).padStart(5)} ms: ${stateAtKill ?? 'no entry yet'} -> ${entry?.state ?? '-'}`);
  }
  return records;
}

/** Kills the app `times` times while its savepoint or stop runs; the next app start settles the journal. */
export async function killApp(target: KillTarget, times: number): Promise<KillRecord[]> {
  const records: KillRecord[] = [];
  let app = await startAppProcess(target.dataDir);
  let clusterId = (await app.call<Array<{ id: string; url: string }>>('clusters.list')).find((c) => c.url === target.url)?.id;
  if (!clusterId) clusterId = (await app.call<{ cluster: { id: string } }>('clusters.save', { name: 'kill test', url: target.url, auth: { kind: 'none' } })).cluster.id;
  try {
    for (let i = 0; i < times; i++) {
      const kind = i % 4 === 3 ? 'stop' : 'savepoint';
      const jobId = await target.runningJob();
      const before = new Set((await app.call<JournalEntry[]>('operations.journal', { limit: 100_000 })).map((e) => e.id));
      // The app answers within ~0.5 s here: kill within that, before, during or just after the operation.
      const delayMs = Math.round(target.random() * 450);
      const triggerId = newTriggerId();
      const request = { kind, clusterId, jobId, triggerId, targetDirectory: target.targetDirectory, ...(kind === 'stop' ? { drain: false } : {}) };
      void app.call('operations.start', request).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const stateAtKill = await killAndPeek(app.process, target.dataDir, before, triggerId);
      app = await startAppProcess(target.dataDir);
      const entries = await waitFor(
        async () => {
          const list = await app.call<JournalEntry[]>('operations.journal', { limit: 100_000 });
          return list.some((e) => e.state === 'pending' || e.state === 'in-progress') ? undefined : list;
        },
        'the restarted app to settle the open operations',
        120_000,
      );
      const added = newEntries(entries, before);
      if (added.length > 1) throw new Error(`One kill left ${added.length} journal entries: ${JSON.stringify(added)}`);
      const entry = added[0] ?? null;
      if (entry && entry.id !== triggerId) throw new Error(`The journal has an entry ${entry.id} nobody asked for.`);
      records.push({ console: 'app', kind, jobId, delayMs, stateAtKill, entry });
      target.log?.(`app  ${kind.padEnd(9)} kill at ${String(delayMs).padStart(5)} ms: ${stateAtKill ?? 'no entry yet'} -> ${entry?.state ?? '-'}`);
    }
  } finally {
    await app.process.kill();
  }
  return records;
}

/** Sleeps until `at` (epoch ms), or until the process ends. */
async function sleepUntil(at: number, proc: ConsoleChild): Promise<void> {
  await Promise.race([proc.exit, new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))]);
}

/** Watches the journal (read-only, as any process may) until the process writes its entry; the time it was seen. */
async function waitForEntry(dataDir: string, before: Set<string>, proc: ConsoleChild): Promise<number> {
  const { HistoryStore } = await import('../../history/history-store.ts');
  const { OperationsJournal } = await import('../journal.ts');
  const store = HistoryStore.open(`${dataDir}/history`);
  try {
    const journal = new OperationsJournal(store);
    for (;;) {
      if (journal.list({ limit: 100_000 }).some((e) => !before.has(e.id) && e.parentId === null)) return Date.now();
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await store.close();
  }
}

/** `kill -9`, then what the journal held at that moment for the operation (read without resuming anything). */
async function killAndPeek(proc: ConsoleChild, dataDir: string, before: Set<string>, id?: string): Promise<OperationState | null> {
  await proc.kill();
  const { HistoryStore } = await import('../../history/history-store.ts');
  const { OperationsJournal } = await import('../journal.ts');
  const store = HistoryStore.open(`${dataDir}/history`);
  try {
    const entries = new OperationsJournal(store).list({ limit: 100_000 }).filter((e) => !before.has(e.id) && e.parentId === null && (id === undefined || e.id === id));
    return entries[0]?.state ?? null;
  } finally {
    await store.close();
  }
}

/** The journal's side of the invariants: every operation has exactly one outcome, none is open. */
export function checkOutcomes(records: KillRecord[]): string[] {
  const problems: string[] = [];
  for (const r of records) {
    if (r.entry && !OUTCOMES.includes(r.entry.state)) problems.push(`${r.entry.id} is still ${r.entry.state}`);
    if (r.stateAtKill !== null && !r.entry) problems.push(`an entry written before the kill (${r.stateAtKill}) is gone`);
  }
  const ids = records.flatMap((r) => (r.entry ? [r.entry.id] : []));
  if (new Set(ids).size !== ids.length) problems.push('an entry was counted twice');
  return problems;
}

/**
 * The cluster's side, from a trigger log (the local engine's): every trigger the cluster received belongs to a
 * journal entry and started an operation once; an entry resolved as not started was never received; every other
 * savepoint or stop in the journal was received exactly once.
 */
export async function checkTriggers(dataDir: string, triggers: Array<{ triggerId: string; started: boolean }>): Promise<string[]> {
  const entries = (await journal(dataDir)).filter((e) => e.kind === 'savepoint' || e.kind === 'stop');
  const byId = new Map(entries.map((e) => [e.id, e]));
  const problems: string[] = [];
  for (const t of triggers) if (!byId.has(t.triggerId)) problems.push(`the cluster got trigger ${t.triggerId}, which the journal does not know`);
  for (const e of entries) {
    const received = triggers.filter((t) => t.triggerId === e.id);
    if (e.state === 'not-started' && received.length > 0) problems.push(`${e.id} is "not started" but the cluster got it`);
    if (e.state !== 'not-started' && e.failure?.startsWith('Not sent') !== true && (received.length !== 1 || !received[0].started)) {
      problems.push(`${e.id} (${e.state}) reached the cluster ${received.length} times`);
    }
    if (e.state === 'unknown') problems.push(`${e.id} ended unknown: ${e.failure}`);
  }
  return problems;
}
