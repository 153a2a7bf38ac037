import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from 'lmdb';
import type { BeforeAfter } from '../contracts/before-after.ts';
import { type JournalEntry, type JournalFilter, OPEN_OPERATION_STATES, type OperationState } from '../contracts/operations.ts';
import { flinkSpelling } from '../contracts/flink-path.ts';
import type { HistoryStore } from '../history/history-store.ts';

/**
 * The operations journal: every savepoint, stop, cancel, rescale and resubmit, written before its request is sent and
 * updated as it progresses, in the history store (one LMDB table, shared by the app and the CLI at the same time).
 *
 * An open entry is driven by one process at a time: the one holding its lease. A lease lapses when its holder stops
 * renewing it or, on the same machine, as soon as the holder's process is gone (`kill -9`), so the next process to
 * start takes the entry over at once. Every change is a transaction that first checks the lease: a process that lost
 * its lease can never overwrite the new holder's progress.
 */

/** Who works on an open entry. */
export interface Lease {
  owner: string;
  host: string;
  pid: number;
  /** Epoch ms after which anyone may take the entry over. */
  until: number;
}

/** An entry as stored: the contract's fields plus the lease and the step reached (for a resume). */
export interface StoredJournalEntry extends JournalEntry {
  lease: Lease | null;
  /** Where the operation's driver left off, e.g. `trigger`, `poll`, `watch`. */
  phase: string;
  /**
   * An in-place rescale: the rescale UUIDs in Flink's rescale history just before its request (ours is the first new
   * one), null when the cluster has no rescale history, absent in entries written before it was read.
   */
  knownRescaleUuids?: string[] | null;
}

export type JournalPatch = Partial<Omit<StoredJournalEntry, 'id' | 'lease' | 'createdAt'>>;

/** The lease was taken over by another process: stop driving this entry, the other process carries on. */
export class LeaseLostError extends Error {
  constructor(readonly entryId: string) {
    super(`Operation ${entryId} is now handled by another process.`);
    this.name = 'LeaseLostError';
  }
}

export interface JournalOptions {
  /** @default Date.now */
  now?: () => number;
  /** How long a lease lasts without renewal. @default 20000 */
  leaseMs?: number;
  /** Is this process alive? (tests) @default a signal-0 probe on this machine */
  isAlive?: (pid: number) => boolean;
}

const DEFAULT_LEASE_MS = 20_000;
const DEFAULT_LIMIT = 500;

export function isOpen(state: OperationState): boolean {
  return OPEN_OPERATION_STATES.includes(state);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class OperationsJournal {
  private readonly table: Database<StoredJournalEntry, string>;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly isAlive: (pid: number) => boolean;
  /** This process's identity in leases. */
  readonly owner: string;
  private readonly host = hostname();

  constructor(
    private readonly store: HistoryStore,
    options: JournalOptions = {},
  ) {
    this.table = store.table<StoredJournalEntry, string>('journal');
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.isAlive = options.isAlive ?? processAlive;
    this.owner = `${this.host}/${process.pid}/${randomBytes(4).toString('hex')}`;
  }

  private lease(): Lease {
    return { owner: this.owner, host: this.host, pid: process.pid, until: this.now() + this.leaseMs };
  }

  /** True when nobody (alive) holds the entry: its holder let the lease lapse or its process is gone. */
  private isFree(entry: StoredJournalEntry): boolean {
    const lease = entry.lease;
    if (!lease) return true;
    if (lease.owner === this.owner) return true;
    if (lease.until <= this.now()) return true;
    return lease.host === this.host && !this.isAlive(lease.pid);
  }

  get(id: string): StoredJournalEntry | undefined {
    return this.table.get(id);
  }

  /**
   * Writes a new entry, leased to this process, unless one with the same id exists (a retry of the same intent: that
   * one is returned, nothing is written) or `conflict` finds an open entry that must not run alongside it.
   */
  async create(
    entry: Omit<StoredJournalEntry, 'lease'>,
    conflict?: (open: StoredJournalEntry) => boolean,
  ): Promise<{ entry: StoredJournalEntry; created: true } | { entry: StoredJournalEntry; created: false; reason: 'same-id' | 'conflict' }> {
    return this.store.transaction(() => {
      const existing = this.table.get(entry.id);
      if (existing) return { entry: existing, created: false as const, reason: 'same-id' as const };
      if (conflict) {
        for (const { value } of this.table.getRange({})) {
          if (isOpen(value.state) && conflict(value)) return { entry: value, created: false as const, reason: 'conflict' as const };
        }
      }
      const stored: StoredJournalEntry = { ...entry, lease: this.lease() };
      this.table.put(entry.id, stored);
      return { entry: stored, created: true as const };
    });
  }

  /**
   * Applies `patch` if this process still holds the entry (and renews the lease); an outcome ends the lease and
   * stamps `finishedAt`. Throws {@link LeaseLostError} when another process has taken the entry over.
   */
  async update(id: string, patch: JournalPatch): Promise<StoredJournalEntry> {
    return this.store.transaction(() => {
      const current = this.table.get(id);
      if (!current) throw new Error(`No journal entry ${id}.`);
      if (current.lease?.owner !== this.owner) throw new LeaseLostError(id);
      const now = this.now();
      const next: StoredJournalEntry = { ...current, ...patch, updatedAt: now, lease: this.lease() };
      if (!isOpen(next.state)) {
        next.lease = null;
        next.finishedAt ??= now;
      }
      this.table.put(id, next);
      return next;
    });
  }

  /** Keeps a settled entry's before/after figures: a settled entry has no lease, nobody else writes it. */
  async keepBeforeAfter(id: string, beforeAfter: BeforeAfter): Promise<void> {
    await this.store.transaction(() => {
      const current = this.table.get(id);
      if (current && !isOpen(current.state)) this.table.put(id, { ...current, beforeAfter });
    });
  }

  /** Takes an open entry over when it is free; false when another live process holds it, or it is settled. */
  async claim(id: string): Promise<StoredJournalEntry | undefined> {
    return this.store.transaction(() => {
      const current = this.table.get(id);
      if (!current || !isOpen(current.state) || !this.isFree(current)) return undefined;
      const claimed = { ...current, lease: this.lease() };
      this.table.put(id, claimed);
      return claimed;
    });
  }

  /** Lets go of an entry this process holds (it stays open for whoever resumes it next). */
  async release(id: string): Promise<void> {
    await this.store.transaction(() => {
      const current = this.table.get(id);
      if (current?.lease?.owner === this.owner) this.table.put(id, { ...current, lease: null });
    });
  }

  /**
   * Adds entries recorded elsewhere (an incident bundle being opened) for reading. One still open there is held by a
   * lease that never lapses: this process must never resume an operation on a cluster it only has a recording of.
   */
  async importEntries(entries: JournalEntry[]): Promise<void> {
    const held: Lease = { owner: 'incident-bundle', host: 'incident-bundle', pid: 0, until: Number.MAX_SAFE_INTEGER };
    await this.store.transaction(() => {
      for (const entry of entries) if (!this.table.get(entry.id)) this.table.put(entry.id, { ...entry, phase: 'imported', lease: isOpen(entry.state) ? held : null });
    });
  }

  /** Open entries nobody alive works on: what a starting process resumes. */
  orphans(): StoredJournalEntry[] {
    return this.all().filter((e) => isOpen(e.state) && this.isFree(e));
  }

  /** Newest first, filtered. */
  list(filter: JournalFilter = {}): StoredJournalEntry[] {
    // A folder is found in either spelling (file:///sp as typed, file:/sp as Flink answers).
    const text = filter.text?.trim() ? flinkSpelling(filter.text).toLowerCase() : undefined;
    const matches = (e: StoredJournalEntry): boolean =>
      (filter.clusterId === undefined || e.clusterId === filter.clusterId) &&
      (filter.jobId === undefined || e.jobId === filter.jobId || e.newJobId === filter.jobId) &&
      (filter.kind === undefined || e.kind === filter.kind) &&
      (filter.state === undefined || e.state === filter.state) &&
      (!text || searchText(e).includes(text));
    return this.all()
      .filter(matches)
      .slice(0, filter.limit ?? DEFAULT_LIMIT);
  }

  private all(): StoredJournalEntry[] {
    return [...this.table.getRange({})].map((e) => e.value).sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  }
}

function searchText(e: StoredJournalEntry): string {
  const paths = [e.resultPath, e.params.targetDirectory, e.params.savepointPath].filter((v): v is string => typeof v === 'string').map(flinkSpelling);
  return [e.id, e.kind, e.state, e.jobId, e.jobName, e.newJobId, ...paths, e.failure, e.progress, e.clusterName, e.clusterUrl]
    .filter((v): v is string => typeof v === 'string')
    .join(' ')
    .toLowerCase();
}

/** The entry as the UI and the CLI see it: without the lease and the resume marker. */
/**
 * A new entry of a job on a cluster, at `at`, before anything is sent: pending, no outcome, no request made. The
 * operation's kind, phase and parameters are the caller's.
 */
export function newEntry(
  id: string,
  at: number,
  of: Pick<StoredJournalEntry, 'clusterId' | 'clusterName' | 'clusterUrl' | 'jobId' | 'jobName' | 'origin' | 'parentId'>,
): Omit<StoredJournalEntry, 'lease' | 'phase' | 'params' | 'kind'> {
  return {
    id,
    state: 'pending',
    clusterId: of.clusterId,
    clusterName: of.clusterName,
    clusterUrl: of.clusterUrl,
    jobId: of.jobId,
    jobName: of.jobName,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
    progress: null,
    resultPath: null,
    newJobId: null,
    failure: null,
    failureDetail: null,
    origin: of.origin,
    parentId: of.parentId,
    requests: { trigger: 0, poll: 0 },
    plan: null,
  };
}

export function publicEntry(entry: StoredJournalEntry): JournalEntry {
  const { lease: _lease, phase: _phase, knownRescaleUuids: _known, ...rest } = entry;
  return rest;
}
