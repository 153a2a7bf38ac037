import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { EngineError } from '../flink-rest/errors.ts';
import { CheckpointHistory } from './checkpoint-history.ts';
import { EventLog } from './event-log.ts';
import { ProcessLog } from './process-log.ts';
import { RehearsalLog } from './rehearsal-log.ts';
import { SampleLog } from './sample-log.ts';
import { WatchList } from './watch-list.ts';

/**
 * The console's memory: samples of watched jobs, their checkpoints, events (gaps, restarts) and watches, the memory
 * and GC of their clusters' processes, and — for the operations — the journal. One LMDB environment under the app's
 * data folder, shared by the desktop app, web mode and the CLI at the same time (LMDB takes one writer at a time
 * across processes; readers never wait).
 *
 * Why LMDB: it ships N-API binaries, so the same package runs in plain Node and inside Electron without a rebuild
 * for Electron's ABI; every write is a transaction, so `kill -9` loses at most the write in flight, never the file;
 * and keys are ordered, so a time window is one range read.
 */

/** Bumped when the on-disk layout changes in a way an older console cannot read. */
export const HISTORY_SCHEMA_VERSION = 1;

export interface HistoryRetention {
  /** Samples older than this are dropped as new ones are written. @default 24 h */
  sampleMaxAgeMs: number;
  /** Checkpoints kept per job, newest first. @default 1000 */
  checkpointsPerJob: number;
  /** Checkpoints per job whose per-subtask details are kept (the rest keep their per-vertex figures). @default 100 */
  checkpointDetailsPerJob: number;
  /** Events older than this are dropped. @default 7 days */
  eventMaxAgeMs: number;
  /** Upper bound on all jobs' samples together; the oldest samples go first. @default 2 GiB */
  maxSampleBytes: number;
}

export const DEFAULT_RETENTION: HistoryRetention = {
  sampleMaxAgeMs: 24 * 3600_000,
  checkpointsPerJob: 1000,
  checkpointDetailsPerJob: 100,
  eventMaxAgeMs: 7 * 24 * 3600_000,
  maxSampleBytes: 2 * 1024 ** 3,
};

export interface HistoryStoreOptions {
  retention?: Partial<HistoryRetention>;
  /** The clock retention is measured against. @default Date.now */
  now?: () => number;
}

export class HistoryStore {
  readonly samples: SampleLog;
  readonly checkpoints: CheckpointHistory;
  readonly events: EventLog;
  readonly rehearsals: RehearsalLog;
  /** The clusters' JobManager and TaskManager memory and GC over time. */
  readonly processes: ProcessLog;
  readonly watches: WatchList;
  readonly retention: HistoryRetention;

  private constructor(
    readonly dir: string,
    private readonly root: RootDatabase,
    options: HistoryStoreOptions,
  ) {
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
    const now = options.now ?? Date.now;
    this.samples = new SampleLog(root, this.retention, now);
    this.checkpoints = new CheckpointHistory(root, this.retention);
    this.events = new EventLog(root, this.retention, now);
    this.rehearsals = new RehearsalLog(root, this.retention, now);
    this.processes = new ProcessLog(root, this.retention, now);
    this.watches = new WatchList(root);
  }

  /** Opens (or creates) the store in `dir`. Refuses a store written by a newer console. */
  static open(dir: string, options: HistoryStoreOptions = {}): HistoryStore {
    const resolved = path.resolve(dir);
    let root: RootDatabase;
    try {
      mkdirSync(resolved, { recursive: true });
      root = open({ path: resolved, compression: true, maxDbs: 32 });
    } catch (error) {
      throw new EngineError('internal', `The history store at ${resolved} cannot be opened: ${(error as Error).message}`);
    }
    const meta = root.openDB<number, string>('meta', {});
    const found = meta.get('schemaVersion');
    if (found !== undefined && found > HISTORY_SCHEMA_VERSION) {
      void root.close();
      throw new EngineError(
        'unsupported-version',
        `The history store at ${resolved} was written by a newer Flink Ops Console (schema ${found}; this one reads ${HISTORY_SCHEMA_VERSION}). Upgrade the console, or use another data folder.`,
      );
    }
    if (found === undefined) meta.putSync('schemaVersion', HISTORY_SCHEMA_VERSION);
    return new HistoryStore(resolved, root, options);
  }

  /** A named table for a concept that lives beside the history (the operations journal, Kafka lag). */
  table<V, K extends Key = Key>(name: string): Database<V, K> {
    return this.root.openDB<V, K>(name, {});
  }

  /** Runs `work` as one transaction across tables: all of it lands, or none. */
  transaction<T>(work: () => T): Promise<T> {
    return this.root.transaction(work);
  }

  /** Drops what retention says is too old everywhere, not only for the jobs being written (e.g. at start-up). */
  async prune(): Promise<void> {
    await this.samples.prune();
    await this.events.prune();
    await this.rehearsals.prune();
    await this.processes.prune();
  }

  close(): Promise<void> {
    return this.root.close();
  }
}
