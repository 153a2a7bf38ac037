import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { LeaseLostError, OperationsJournal, publicEntry, type StoredJournalEntry } from './journal.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const dirs = tempDirs('flink-ops-journal-');
afterAll(() => dirs.removeAll());

function draft(id: string, overrides: Partial<StoredJournalEntry> = {}): Omit<StoredJournalEntry, 'lease'> {
  return {
    id,
    kind: 'savepoint',
    state: 'pending',
    phase: 'trigger',
    clusterId: 'c1',
    clusterName: 'prod',
    clusterUrl: 'http://jm:8081',
    jobId: 'a'.repeat(32),
    jobName: 'orders',
    params: { targetDirectory: 's3://b/sp', format: 'canonical' },
    createdAt: 1_000,
    updatedAt: 1_000,
    finishedAt: null,
    progress: null,
    resultPath: null,
    newJobId: null,
    failure: null,
    failureDetail: null,
    origin: 'app',
    parentId: null,
    requests: { trigger: 0, poll: 0 },
    plan: null,
    ...overrides,
  };
}

const id = (n: number) => n.toString(16).padStart(32, '0');

describe('the operations journal', () => {
  it('writes an entry once: the same id again returns it, an open entry of the same job refuses another', async () => {
    const store = HistoryStore.open(dirs.make());
    const journal = new OperationsJournal(store);
    const sameJob = (open: StoredJournalEntry) => open.jobId === 'a'.repeat(32);
    const first = await journal.create(draft(id(1)), sameJob);
    expect(first.created).toBe(true);
    expect(first.entry.lease?.owner).toBe(journal.owner);
    expect(await journal.create(draft(id(1), { kind: 'cancel' }), sameJob)).toMatchObject({ created: false, reason: 'same-id', entry: { kind: 'savepoint' } });
    expect(await journal.create(draft(id(2)), sameJob)).toMatchObject({ created: false, reason: 'conflict', entry: { id: id(1) } });
    await journal.update(id(1), { state: 'succeeded', resultPath: 's3://b/sp/savepoint-1' });
    expect((await journal.create(draft(id(2)), sameJob)).created).toBe(true);
    await store.close();
  });

  it('ends the lease and stamps the time at an outcome; a process that lost its lease cannot write', async () => {
    const dir = dirs.make();
    const store = HistoryStore.open(dir);
    let now = 5_000;
    const mine = new OperationsJournal(store, { now: () => now, leaseMs: 1_000 });
    const other = new OperationsJournal(store, { now: () => now, leaseMs: 1_000 });
    await mine.create(draft(id(1)));
    expect(await other.claim(id(1))).toBeUndefined(); // held, alive, not lapsed
    now += 1_001;
    expect((await other.claim(id(1)))?.lease?.owner).toBe(other.owner); // lapsed: taken over
    await expect(mine.update(id(1), { state: 'in-progress' })).rejects.toBeInstanceOf(LeaseLostError);
    const done = await other.update(id(1), { state: 'succeeded' });
    expect(done).toMatchObject({ state: 'succeeded', lease: null, finishedAt: now });
    expect(await mine.claim(id(1))).toBeUndefined(); // settled entries are never claimed
    expect(publicEntry(done)).not.toHaveProperty('lease');
    expect(publicEntry(done)).not.toHaveProperty('phase');
    await store.close();
  });

  it('lets anyone take over at once the entries of a process that is gone (kill -9), and lists them as orphans', async () => {
    const store = HistoryStore.open(dirs.make());
    const killed = new OperationsJournal(store);
    await killed.create(draft(id(1)));
    await killed.create(draft(id(2), { jobId: 'b'.repeat(32), state: 'succeeded' }));
    const alive = new OperationsJournal(store, { isAlive: () => true });
    expect(alive.orphans()).toEqual([]);
    const next = new OperationsJournal(store, { isAlive: () => false });
    expect(next.orphans().map((e) => e.id)).toEqual([id(1)]);
    expect((await next.claim(id(1)))?.lease?.owner).toBe(next.owner);
    await store.close();
  });

  it('filters by cluster, job (and the runs resubmitted from it), kind, state and text, newest first', async () => {
    const store = HistoryStore.open(dirs.make());
    const journal = new OperationsJournal(store);
    await journal.create(draft(id(1), { createdAt: 1, state: 'succeeded', resultPath: 'file:/sp/savepoint-abc' }));
    await journal.create(draft(id(2), { createdAt: 2, kind: 'resubmit', jobId: null, newJobId: 'c'.repeat(32), state: 'failed', failure: 'no slots' }));
    await journal.create(draft(id(3), { createdAt: 3, clusterId: 'c2', state: 'unknown' }));
    expect(journal.list().map((e) => e.id)).toEqual([id(3), id(2), id(1)]);
    expect(journal.list({ clusterId: 'c1' }).map((e) => e.id)).toEqual([id(2), id(1)]);
    expect(journal.list({ jobId: 'c'.repeat(32) }).map((e) => e.id)).toEqual([id(2)]);
    expect(journal.list({ kind: 'resubmit' }).map((e) => e.id)).toEqual([id(2)]);
    expect(journal.list({ state: 'unknown' }).map((e) => e.id)).toEqual([id(3)]);
    expect(journal.list({ text: 'SAVEPOINT-ABC' }).map((e) => e.id)).toEqual([id(1)]);
    expect(journal.list({ text: 'no slots' }).map((e) => e.id)).toEqual([id(2)]);
    expect(journal.list({ limit: 1 }).map((e) => e.id)).toEqual([id(3)]);
    await store.close();
  });

  it('finds a savepoint folder however it is spelled: file:///sp as typed, file:/sp as Flink answers', async () => {
    const store = HistoryStore.open(dirs.make());
    const journal = new OperationsJournal(store);
    await journal.create(draft(id(1), { params: { targetDirectory: 'file:///data/sp', format: 'canonical' }, state: 'succeeded', resultPath: 'file:/data/sp/savepoint-abc' }));
    await journal.create(draft(id(2), { kind: 'resubmit', params: { savepointPath: 'file:///data/other/savepoint-def' } }));
    expect(journal.list({ text: 'file:///data/sp/' }).map((e) => e.id)).toEqual([id(1)]);
    expect(journal.list({ text: 'file:/data/sp' }).map((e) => e.id)).toEqual([id(1)]);
    expect(journal.list({ text: 'file:/data/other/savepoint-def' }).map((e) => e.id)).toEqual([id(2)]);
    expect(journal.list({ text: 'FILE:/DATA/OTHER' }).map((e) => e.id)).toEqual([id(2)]);
    await store.close();
  });

  it('gives an orphan to exactly one of several processes that start at once', async () => {
    const dir = dirs.make();
    const store = HistoryStore.open(dir);
    await new OperationsJournal(store).create(draft(id(7)));
    await store.close();
    const go = path.join(dir, 'go');
    let ready = 0;
    let allReady: () => void;
    const everyoneReady = new Promise<void>((resolve) => (allReady = resolve));
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'testing/claim-racer.ts'), dir, id(7), go, String(process.pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (!out.includes('ready') && (out + chunk).includes('ready') && ++ready === 4) allReady();
        out += chunk;
      });
      return new Promise<string>((resolve) => child.on('exit', () => resolve(out.replace('ready\n', '').trim())));
    });
    // Start them together once each has the store open.
    await everyoneReady;
    writeFileSync(go, '');
    const results = await Promise.all(racers);
    expect(results.filter((r) => r.startsWith('won'))).toHaveLength(1);
    expect(results.filter((r) => r === 'lost')).toHaveLength(3);
    const reopened = HistoryStore.open(dir);
    const entry = new OperationsJournal(reopened).get(id(7))!;
    expect(results).toContain(`won ${entry.lease!.owner}`);
    await reopened.close();
  }, 90_000);
});
