import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { JournalPatch, OperationsJournal, StoredJournalEntry } from './journal.ts';
import type { NewStep } from './rescale-operation.ts';

/**
 * What an operation's driver works with: the journal, the cluster's REST client, time, and the limits. Time is
 * injected so that tests drive a manual-clock local engine and fault scenarios without real waiting.
 */

export interface OperationClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: OperationClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface OperationSettings {
  /**
   * A trigger whose answer never came may still reach the cluster this long after it was sent; only after that does
   * "the cluster does not know the trigger" prove it was never received. @default 10000 (the request timeout)
   */
  deliveryGraceMs: number;
  /** Asking an unreachable cluster stops after this long without an answer: the outcome is then unknown. @default 300000 */
  unreachableGiveUpMs: number;
  /** How long to watch a job reach the state an operation leads to (cancelled, rescaled, running). @default 300000 */
  watchTimeoutMs: number;
  /** Flink's `rest.async.store-duration`: how long a JobManager remembers a finished operation. @default 300000 */
  storeDurationMs: number;
  /** Journal progress (and the lease) at most this often while nothing changes. @default 5000 */
  progressEveryMs: number;
  /** Polling: the first delay, doubled each poll up to the max. @default 250, 2000 */
  firstPollMs: number;
  maxPollMs: number;
}

export const DEFAULT_OPERATION_SETTINGS: OperationSettings = {
  deliveryGraceMs: 10_000,
  unreachableGiveUpMs: 300_000,
  watchTimeoutMs: 300_000,
  storeDurationMs: 300_000,
  progressEveryMs: 5_000,
  firstPollMs: 250,
  maxPollMs: 2_000,
};

/** The wait before poll number `attempt` (0-based): 250, 500, 1000, 2000, 2000, … ms by default. */
export function pollDelay(attempt: number, settings: Pick<OperationSettings, 'firstPollMs' | 'maxPollMs'>): number {
  return Math.min(settings.maxPollMs, settings.firstPollMs * 2 ** Math.min(attempt, 20));
}

export interface DriveOptions {
  /** Return once the cluster has taken the operation (`--no-wait`): the entry stays open for a later resume. */
  stopWhenAccepted?: boolean;
  /** Stop waiting after this long (the entry stays open, its lease released): the CLI's `--timeout`. */
  maxWaitMs?: number;
}

export interface DriverContext {
  journal: OperationsJournal;
  client: FlinkRestClient;
  clock: OperationClock;
  settings: OperationSettings;
  options: DriveOptions;
  /**
   * Runs a step of a rescale to its outcome with the same options: a new step is written to the journal first; an
   * existing one is resumed (or, when another live process drives it, returned as it stands).
   */
  drive(entry: StoredJournalEntry | NewStep): Promise<StoredJournalEntry>;
}

/**
 * Anything but an EngineError is a fault of the console itself (or its process going away), not an answer of the
 * cluster: it must not be read as "unreachable". The driver stops; the entry stays open and is resumed.
 */
export function rethrowUnexpected(error: unknown): void {
  if (!(error instanceof EngineError)) throw error;
}

/** Failures worth asking again about: the cluster did not answer, or answered with a server error. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof EngineError)) return false;
  return ['timeout', 'refused', 'dns', 'network', 'server-error', 'malformed-response', 'not-flink'].includes(error.info.kind);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof EngineError && error.info.status === 404;
}

/** A definite "no" from the cluster: a 4xx answer other than 404 (which the drivers read case by case). */
export function isRefusal(error: unknown): error is EngineError {
  return error instanceof EngineError && error.info.status !== undefined && error.info.status >= 400 && error.info.status < 500;
}

export function messageOf(error: unknown): string {
  return error instanceof EngineError ? error.info.message : error instanceof Error ? error.message : String(error);
}

/**
 * Tracks how long the cluster has been unreachable for one entry, and journals progress no more often than
 * `progressEveryMs` unless something changed (which also renews the lease).
 */
export class Progress {
  private lastWrite: number;
  private unreachableSince: number | null = null;
  polls = 0;

  constructor(
    private entry: StoredJournalEntry,
    private readonly ctx: DriverContext,
  ) {
    this.lastWrite = ctx.clock.now();
  }

  get current(): StoredJournalEntry {
    return this.entry;
  }

  /** Writes now. */
  async write(patch: JournalPatch): Promise<StoredJournalEntry> {
    const requests = patch.requests ?? this.entry.requests;
    this.entry = await this.ctx.journal.update(this.entry.id, { ...patch, requests: { ...requests, poll: requests.poll + this.flushPolls() } });
    this.lastWrite = this.ctx.clock.now();
    return this.entry;
  }

  /** Writes if the last write is older than `progressEveryMs`. */
  async maybeWrite(patch: JournalPatch = {}): Promise<StoredJournalEntry> {
    if (this.ctx.clock.now() - this.lastWrite >= this.ctx.settings.progressEveryMs) return this.write(patch);
    return this.entry;
  }

  private flushPolls(): number {
    const n = this.polls;
    this.polls = 0;
    return n;
  }

  /** The cluster answered. */
  reachable(): void {
    this.unreachableSince = null;
  }

  /** The cluster did not answer: true once it has been silent for `unreachableGiveUpMs`. */
  unreachable(): boolean {
    const now = this.ctx.clock.now();
    this.unreachableSince ??= now;
    return now - this.unreachableSince >= this.ctx.settings.unreachableGiveUpMs;
  }

  unreachableForMs(): number {
    return this.unreachableSince === null ? 0 : this.ctx.clock.now() - this.unreachableSince;
  }
}

export function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 ? `${Math.round(minutes)} min` : `${Math.round(ms / 1000)} s`;
}
