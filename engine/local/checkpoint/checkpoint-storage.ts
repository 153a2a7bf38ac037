import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { CheckpointKind } from './checkpoint-stats-tracker.ts';
import { decodeValue, encodeValue } from './json-codec.ts';
import {
  METADATA_FILE_NAME,
  METADATA_FORMAT,
  METADATA_VERSION,
  metadataProblems,
  type KeyGroupSnapshot,
  type OperatorSnapshotMetadata,
  type OperatorStateSnapshot,
  type SnapshotMetadata,
} from './snapshot-model.ts';
import { prepareTargetDirectory } from './target-directory.ts';

/**
 * A file-system checkpoint storage laid out like Flink's `FileSystemCheckpointStorage`:
 *
 * ```
 * <checkpointDir>/<jobId>/chk-<n>/_metadata                       completed checkpoint n
 *                              /<operatorId>/kg-<keyGroup>.json    keyed state + timers of one key group
 *                              /<operatorId>/op-<subtask>.json     operator (non-keyed) state of one subtask
 * <checkpointDir>/<jobId>/shared/, taskowned/                       (created as Flink does; unused)
 * <savepointDir>/savepoint-<first 6 hex of job id>-<12 hex>/...     a savepoint, same layout
 * ```
 *
 * A snapshot is written into a hidden `.…inprogress` folder and renamed into place after its `_metadata` is written,
 * so a folder without `_metadata` is never a completed checkpoint. The last `execution.checkpointing.num-retained`
 * completed checkpoints (default 1) are kept; older ones are deleted ("discarded"). Savepoints belong to the user and
 * are never deleted or counted for retention (as observed on Flink 2.2.1).
 */

/** An operator as the writer needs to know it. */
export interface SnapshotOperatorInfo {
  operatorId: string;
  uid?: string;
  name?: string;
  parallelism: number;
  maxParallelism: number;
  /** Keyed operators get `keyGroupRanges` in the metadata. */
  keyed: boolean;
}

export interface CompletedSnapshot {
  checkpointId: number;
  isSavepoint: boolean;
  /** Absolute folder path. */
  path: string;
  /** As Flink reports it: `file:/abs/path`. */
  externalPath: string;
  metadata: SnapshotMetadata;
}

export interface CheckpointStorageOptions {
  /** `execution.checkpointing.dir`: where checkpoints go (a path or a `file:` URI). */
  checkpointDirectory: string;
  /** `execution.checkpointing.savepoint-dir`: default target of savepoints. */
  savepointDirectory?: string;
  /** `execution.checkpointing.num-retained`. @default 1 */
  numRetained?: number;
  /** Random hex for savepoint folder names (tests pass a fixed one). @default crypto random */
  randomHex?: (bytes: number) => string;
  /** Called when retention deletes a completed checkpoint (mark it `discarded` in the stats). */
  onDiscard?: (jobId: string, checkpointId: number) => void;
}

/** A checkpoint or savepoint that cannot be read: the message names the path and what is wrong. */
export class CheckpointLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointLoadError';
  }
}

/** `file:/a/b`, `file:///a/b` or a plain path → an absolute local path; other schemes are refused. */
export function localPathOf(pointer: string): string {
  if (/^file:/i.test(pointer)) {
    const normalized = pointer.replace(/^file:\/*/i, 'file:///');
    return fileURLToPath(normalized);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pointer)) {
    throw new CheckpointLoadError(`Cannot use "${pointer}": the local engine stores checkpoints on the local file system only (a path or a file: URI).`);
  }
  return path.resolve(pointer);
}

/** `file:/abs/path`, as Flink prints local checkpoint locations. */
export function externalPointerOf(absolutePath: string): string {
  return `file:${absolutePath.split(path.sep).join('/')}`;
}

function writeJson(file: string, value: unknown): number {
  const text = JSON.stringify(value);
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

/** Writes one snapshot; `complete()` makes it visible, `abort()` removes it. */
export class SnapshotWriter {
  private readonly operators = new Map<string, OperatorSnapshotMetadata>();
  private totalBytes = 0;
  private done = false;

  constructor(
    readonly jobId: string,
    readonly checkpointId: number,
    readonly triggerTimestamp: number,
    readonly kind: CheckpointKind,
    /** The hidden folder being written. */
    readonly tempPath: string,
    /** Where the snapshot will be once complete. */
    readonly finalPath: string,
    operators: readonly SnapshotOperatorInfo[],
    private readonly onComplete: (snapshot: CompletedSnapshot) => void,
  ) {
    rmSync(tempPath, { recursive: true, force: true });
    mkdirSync(tempPath, { recursive: true });
    for (const op of operators) {
      if (!/^[0-9a-f]{32}$/.test(op.operatorId)) throw new Error(`Operator ID "${op.operatorId}" is not 32 lower-case hex characters.`);
      if (this.operators.has(op.operatorId)) throw new Error(`Operator ${op.operatorId} is listed twice.`);
      this.operators.set(op.operatorId, {
        operatorId: op.operatorId,
        ...(op.uid !== undefined ? { uid: op.uid } : {}),
        ...(op.name !== undefined ? { name: op.name } : {}),
        parallelism: op.parallelism,
        maxParallelism: op.maxParallelism,
        ...(op.keyed
          ? { keyGroupRanges: Array.from({ length: op.parallelism }, (_, i) => computeKeyGroupRangeForOperatorIndex(op.maxParallelism, op.parallelism, i)) }
          : {}),
        keyedState: [],
        operatorState: [],
      });
    }
  }

  get isSavepoint(): boolean {
    return this.kind === 'SAVEPOINT' || this.kind === 'SYNC_SAVEPOINT';
  }

  private operator(operatorId: string): OperatorSnapshotMetadata {
    if (this.done) throw new Error(`Snapshot ${this.checkpointId} of job ${this.jobId} is already completed or aborted.`);
    const op = this.operators.get(operatorId);
    if (!op) throw new Error(`Operator ${operatorId} is not part of snapshot ${this.checkpointId}: list it when the snapshot begins.`);
    return op;
  }

  /**
   * Writes one key group of a keyed operator; returns the bytes written (0, and no file, when the key group is
   * empty). Call it for every key group a subtask owns, after the subtask's synchronous snapshot.
   */
  writeKeyGroup(operatorId: string, keyGroup: number, snapshot: KeyGroupSnapshot): number {
    const op = this.operator(operatorId);
    if (!(Number.isInteger(keyGroup) && keyGroup >= 0 && keyGroup < op.maxParallelism)) {
      throw new RangeError(`Key group ${keyGroup} is outside 0..${op.maxParallelism - 1} of operator ${operatorId}.`);
    }
    if (op.keyedState.some((f) => f.keyGroup === keyGroup)) throw new Error(`Key group ${keyGroup} of operator ${operatorId} was already written.`);
    if (snapshot.entries.length === 0 && snapshot.timers.length === 0) return 0;
    const dir = path.join(this.tempPath, operatorId);
    mkdirSync(dir, { recursive: true });
    const file = `${operatorId}/kg-${keyGroup}.json`;
    const bytes = writeJson(path.join(this.tempPath, file), {
      keyGroup,
      entries: snapshot.entries.map((e) => ({
        stateName: e.stateName,
        key: encodeValue(e.key),
        ...(e.namespace !== undefined ? { namespace: encodeValue(e.namespace) } : {}),
        value: encodeValue(e.value),
        ...(e.ttlTimestamp !== undefined ? { ttlTimestamp: e.ttlTimestamp } : {}),
      })),
      timers: snapshot.timers.map((t) => ({ ...t, key: encodeValue(t.key), namespace: encodeValue(t.namespace) })),
    });
    op.keyedState.push({ keyGroup, file, bytes, entries: snapshot.entries.length, timers: snapshot.timers.length });
    this.totalBytes += bytes;
    return bytes;
  }

  /** Writes the operator state of one subtask; returns the bytes written (0 when it has no states). */
  writeOperatorState(operatorId: string, subtask: number, state: OperatorStateSnapshot): number {
    const op = this.operator(operatorId);
    if (!(Number.isInteger(subtask) && subtask >= 0 && subtask < op.parallelism)) {
      throw new RangeError(`Subtask ${subtask} is outside 0..${op.parallelism - 1} of operator ${operatorId}.`);
    }
    if (op.operatorState.some((f) => f.subtask === subtask)) throw new Error(`Operator state of subtask ${subtask} of ${operatorId} was already written.`);
    const names = Object.keys(state);
    if (names.length === 0) return 0;
    mkdirSync(path.join(this.tempPath, operatorId), { recursive: true });
    const file = `${operatorId}/op-${subtask}.json`;
    const encoded = Object.fromEntries(names.map((n) => [n, { mode: state[n].mode, partitions: state[n].partitions.map(encodeValue) }]));
    const bytes = writeJson(path.join(this.tempPath, file), encoded);
    op.operatorState.push({ subtask, file, bytes, states: names });
    this.totalBytes += bytes;
    return bytes;
  }

  /** Writes `_metadata` and moves the snapshot into place; from now on it is a completed checkpoint/savepoint. */
  complete(completedTimestamp: number): CompletedSnapshot {
    if (this.done) throw new Error(`Snapshot ${this.checkpointId} of job ${this.jobId} is already completed or aborted.`);
    const metadata: SnapshotMetadata = {
      format: METADATA_FORMAT,
      version: METADATA_VERSION,
      jobId: this.jobId,
      checkpointId: this.checkpointId,
      triggerTimestamp: this.triggerTimestamp,
      completedTimestamp,
      isSavepoint: this.isSavepoint,
      checkpointType: this.kind,
      snapshotFormat: 'CANONICAL',
      operators: [...this.operators.values()].map((op) => ({ ...op, keyedState: [...op.keyedState].sort((a, b) => a.keyGroup - b.keyGroup) })),
      totalBytes: this.totalBytes,
    };
    writeJson(path.join(this.tempPath, METADATA_FILE_NAME), metadata);
    if (existsSync(this.finalPath)) {
      if (existsSync(path.join(this.finalPath, METADATA_FILE_NAME))) {
        throw new Error(`${this.finalPath} already holds a completed snapshot; checkpoint IDs must not repeat.`);
      }
      rmSync(this.finalPath, { recursive: true, force: true }); // leftovers of an incomplete attempt
    }
    renameSync(this.tempPath, this.finalPath);
    this.done = true;
    const completed: CompletedSnapshot = {
      checkpointId: this.checkpointId,
      isSavepoint: this.isSavepoint,
      path: this.finalPath,
      externalPath: externalPointerOf(this.finalPath),
      metadata,
    };
    this.onComplete(completed);
    return completed;
  }

  /** Drops the snapshot (declined, expired, job failed). */
  abort(): void {
    if (this.done) return;
    this.done = true;
    rmSync(this.tempPath, { recursive: true, force: true });
  }
}

export class FileSystemCheckpointStorage {
  readonly checkpointDirectory: string;
  readonly savepointDirectory: string | undefined;
  readonly numRetained: number;
  private readonly randomHex: (bytes: number) => string;
  private readonly onDiscard: ((jobId: string, checkpointId: number) => void) | undefined;
  /** Retained completed checkpoints per job, oldest first (Flink's `CompletedCheckpointStore`). */
  private readonly stores = new Map<string, CompletedSnapshot[]>();

  constructor(options: CheckpointStorageOptions) {
    this.checkpointDirectory = localPathOf(options.checkpointDirectory);
    this.savepointDirectory = options.savepointDirectory === undefined ? undefined : localPathOf(options.savepointDirectory);
    const n = options.numRetained ?? 1;
    if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`execution.checkpointing.num-retained must be a whole number >= 1, got ${n}.`);
    this.numRetained = n;
    this.randomHex = options.randomHex ?? ((bytes) => randomBytes(bytes).toString('hex'));
    this.onDiscard = options.onDiscard;
  }

  /** `<checkpointDir>/<jobId>`. */
  jobDirectory(jobId: string): string {
    if (!/^[0-9a-f]{32}$/.test(jobId)) throw new Error(`A job ID is 32 lower-case hex characters, got "${jobId}".`);
    return path.join(this.checkpointDirectory, jobId);
  }

  /** Starts checkpoint `checkpointId` of a job in `<dir>/<jobId>/chk-<n>`. */
  beginCheckpoint(jobId: string, checkpointId: number, triggerTimestamp: number, operators: readonly SnapshotOperatorInfo[], kind: CheckpointKind = 'CHECKPOINT'): SnapshotWriter {
    if (kind === 'SAVEPOINT' || kind === 'SYNC_SAVEPOINT') throw new Error('Use beginSavepoint for savepoints.');
    const jobDir = this.jobDirectory(jobId);
    for (const sub of ['shared', 'taskowned']) prepareTargetDirectory(path.join(jobDir, sub), 'checkpoint directory');
    return new SnapshotWriter(
      jobId,
      checkpointId,
      triggerTimestamp,
      kind,
      path.join(jobDir, `.chk-${checkpointId}.inprogress`),
      path.join(jobDir, `chk-${checkpointId}`),
      operators,
      (completed) => this.addCompleted(jobId, completed),
    );
  }

  /**
   * Starts a savepoint in `<target>/savepoint-<jobId6>-<12 hex>`; `target` defaults to the savepoint directory.
   * Savepoints take their ID from the same counter as checkpoints (as Flink does).
   */
  beginSavepoint(
    jobId: string,
    checkpointId: number,
    triggerTimestamp: number,
    operators: readonly SnapshotOperatorInfo[],
    options: { targetDirectory?: string; kind?: 'SAVEPOINT' | 'SYNC_SAVEPOINT' } = {},
  ): SnapshotWriter {
    const requested = options.targetDirectory ?? this.savepointDirectory;
    if (requested === undefined) {
      throw new Error(
        'No savepoint directory: pass a target directory with the request or set execution.checkpointing.savepoint-dir (state.savepoints.dir).',
      );
    }
    this.jobDirectory(jobId);
    const target = prepareTargetDirectory(requested, 'savepoint directory');
    const name = `savepoint-${jobId.slice(0, 6)}-${this.randomHex(6)}`;
    return new SnapshotWriter(jobId, checkpointId, triggerTimestamp, options.kind ?? 'SAVEPOINT', path.join(target, `.${name}.inprogress`), path.join(target, name), operators, () => {});
  }

  /** Retained completed checkpoints of a job, oldest first. */
  retained(jobId: string): readonly CompletedSnapshot[] {
    return this.stores.get(jobId) ?? [];
  }

  /** The latest completed checkpoint of a job (what a restart restores). */
  latest(jobId: string): CompletedSnapshot | undefined {
    const list = this.stores.get(jobId);
    return list?.[list.length - 1];
  }

  /**
   * Re-reads a job's completed checkpoints from disk (after the engine process restarted): every `chk-<n>` with a
   * valid `_metadata`, keeping the latest `numRetained`; folders without `_metadata` are ignored.
   */
  recover(jobId: string): readonly CompletedSnapshot[] {
    const jobDir = this.jobDirectory(jobId);
    const found: CompletedSnapshot[] = [];
    if (existsSync(jobDir)) {
      for (const name of readdirSync(jobDir)) {
        if (!/^chk-\d+$/.test(name) || !existsSync(path.join(jobDir, name, METADATA_FILE_NAME))) continue;
        try {
          const loaded = loadCompletedCheckpoint(path.join(jobDir, name));
          found.push({ checkpointId: loaded.metadata.checkpointId, isSavepoint: false, path: loaded.path, externalPath: loaded.externalPath, metadata: loaded.metadata });
        } catch {
          // unreadable: not a completed checkpoint
        }
      }
    }
    found.sort((a, b) => a.checkpointId - b.checkpointId);
    this.stores.set(jobId, found.slice(-this.numRetained));
    return this.retained(jobId);
  }

  /**
   * The job ended and its retention policy does not keep its checkpoints: every retained checkpoint is deleted
   * (`discarded`). Savepoints are never touched.
   */
  discardAll(jobId: string): void {
    const list = this.stores.get(jobId) ?? [];
    this.stores.set(jobId, []);
    for (const completed of list) {
      rmSync(completed.path, { recursive: true, force: true });
      this.onDiscard?.(jobId, completed.checkpointId);
    }
  }

  private addCompleted(jobId: string, completed: CompletedSnapshot): void {
    const list = this.stores.get(jobId) ?? [];
    list.push(completed);
    list.sort((a, b) => a.checkpointId - b.checkpointId);
    while (list.length > this.numRetained) {
      const subsumed = list.shift()!;
      rmSync(subsumed.path, { recursive: true, force: true });
      this.onDiscard?.(jobId, subsumed.checkpointId);
    }
    this.stores.set(jobId, list);
  }
}

/** A completed checkpoint or savepoint read from disk. */
export interface LoadedSnapshot {
  path: string;
  externalPath: string;
  metadata: SnapshotMetadata;
  /** The key group's entries and timers of an operator (empty when the snapshot has none). */
  readKeyGroup(operatorId: string, keyGroup: number): KeyGroupSnapshot;
  /** The operator state one old subtask wrote (empty when none). */
  readOperatorState(operatorId: string, subtask: number): OperatorStateSnapshot;
}

function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CheckpointLoadError(`Cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CheckpointLoadError(`${what} ${file} is corrupt: it is not valid JSON (${text.length} bytes). The checkpoint cannot be restored; use an older one.`);
  }
}

/**
 * Opens a completed checkpoint or savepoint: `pointer` is its folder or its `_metadata` file, as a path or a `file:`
 * URI. Validates the metadata and that every file it lists exists; errors follow Flink's wording where Flink has one.
 */
export function loadCompletedCheckpoint(pointer: string): LoadedSnapshot {
  const target = localPathOf(pointer);
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    throw new CheckpointLoadError(`Cannot find checkpoint or savepoint file/directory '${pointer}' on file system 'file'.`);
  }
  let dir = target;
  if (!isDir) {
    if (path.basename(target) !== METADATA_FILE_NAME) {
      throw new CheckpointLoadError(`The given path does not point to a checkpoint/savepoint directory or metadata file (${METADATA_FILE_NAME}): ${pointer}`);
    }
    dir = path.dirname(target);
  } else {
    try {
      readdirSync(dir);
    } catch (error) {
      throw new CheckpointLoadError(`Cannot read the checkpoint/savepoint directory '${dir}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
    if (!existsSync(path.join(dir, METADATA_FILE_NAME))) {
      throw new CheckpointLoadError(
        `Cannot find meta data file '${METADATA_FILE_NAME}' in directory '${dir}'. Please try to load the checkpoint/savepoint directly from the metadata file instead of the directory. ` +
          '(A checkpoint folder without _metadata did not complete: pick an older checkpoint.)',
      );
    }
  }
  const doc = readJsonFile(path.join(dir, METADATA_FILE_NAME), 'The checkpoint metadata file');
  const problems = metadataProblems(doc);
  if (problems.length > 0) {
    throw new CheckpointLoadError(`The checkpoint metadata file ${path.join(dir, METADATA_FILE_NAME)} is not valid: ${problems.join('; ')}.`);
  }
  const metadata = doc as SnapshotMetadata;
  for (const op of metadata.operators) {
    for (const f of [...op.keyedState, ...op.operatorState]) {
      if (!existsSync(path.join(dir, f.file))) {
        throw new CheckpointLoadError(`The checkpoint at ${dir} is incomplete: ${f.file}, listed in ${METADATA_FILE_NAME}, is missing.`);
      }
    }
  }
  const byId = new Map(metadata.operators.map((op) => [op.operatorId, op]));
  const opOf = (operatorId: string): OperatorSnapshotMetadata | undefined => byId.get(operatorId);
  return {
    path: dir,
    externalPath: externalPointerOf(dir),
    metadata,
    readKeyGroup(operatorId, keyGroup) {
      const ref = opOf(operatorId)?.keyedState.find((f) => f.keyGroup === keyGroup);
      if (!ref) return { entries: [], timers: [] };
      const raw = readJsonFile(path.join(dir, ref.file), 'The key-group state file') as {
        entries: Array<{ stateName: string; key: unknown; namespace?: unknown; value: unknown; ttlTimestamp?: number }>;
        timers: Array<{ service: string; domain: 'EVENT_TIME' | 'PROCESSING_TIME'; timestamp: number; key: unknown; namespace: unknown }>;
      };
      return {
        entries: raw.entries.map((e) => ({
          stateName: e.stateName,
          key: decodeValue(e.key) as KeyGroupSnapshot['entries'][number]['key'],
          ...(e.namespace !== undefined ? { namespace: decodeValue(e.namespace) as number | string } : {}),
          value: decodeValue(e.value),
          ...(e.ttlTimestamp !== undefined ? { ttlTimestamp: e.ttlTimestamp } : {}),
        })),
        timers: raw.timers.map((t) => ({
          service: t.service,
          domain: t.domain,
          timestamp: t.timestamp,
          key: decodeValue(t.key) as KeyGroupSnapshot['timers'][number]['key'],
          namespace: decodeValue(t.namespace) as number | string,
        })),
      };
    },
    readOperatorState(operatorId, subtask) {
      const ref = opOf(operatorId)?.operatorState.find((f) => f.subtask === subtask);
      if (!ref) return {};
      const raw = readJsonFile(path.join(dir, ref.file), 'The operator state file') as Record<string, { mode: OperatorStateSnapshot[string]['mode']; partitions: unknown[] }>;
      return Object.fromEntries(Object.entries(raw).map(([name, s]) => [name, { mode: s.mode, partitions: s.partitions.map(decodeValue) }]));
    },
  };
}
