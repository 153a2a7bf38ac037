import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { localPathOf } from '../checkpoint/checkpoint-storage.ts';
import type { AllowedFolders } from '../checkpoint/target-directory.ts';
import { realPathOf } from '../checkpoint/target-directory.ts';

/**
 * Savepoint disposal (`POST /savepoint-disposal`, then `GET /savepoint-disposal/:triggerid`), as Flink does it: the
 * request gets a trigger id Flink chooses, the disposal runs on its own and its result (COMPLETED, with a failure
 * cause when it failed) is kept `rest.async.store-duration`. The engine deletes only a completed snapshot folder (one
 * with `_metadata`) under the folders it may write; it takes `DISPOSAL_MS` of engine time, so a poll sees IN_PROGRESS.
 */

export const DISPOSAL_MS = 300;
const STORE_DURATION_MS = 300_000;
const LOG_SIZE = 1000;

interface Disposal {
  triggerId: string;
  path: string;
  triggeredAt: number;
  /** null while in progress. */
  result: { failure: { class: string; message: string } | null; at: number } | null;
}

export interface DisposalStatus {
  status: { id: 'IN_PROGRESS' | 'COMPLETED' };
  operation?: { 'failure-cause'?: { class: string; 'stack-trace': string } };
}

export class SavepointDisposals {
  private readonly disposals = new Map<string, Disposal>();
  /** Every disposal request received (tests: one request per journal entry). */
  readonly log: Array<{ triggerId: string; path: string; at: number }> = [];

  constructor(
    private readonly allowed: AllowedFolders,
    private readonly now: () => number,
  ) {}

  trigger(savepointPath: string): string {
    this.settleDue();
    const triggerId = randomBytes(16).toString('hex');
    const at = this.now();
    this.disposals.set(triggerId, { triggerId, path: savepointPath, triggeredAt: at, result: null });
    this.log.push({ triggerId, path: savepointPath, at });
    if (this.log.length > LOG_SIZE) this.log.shift();
    // As on Flink, the disposal runs whether or not anyone asks about it (a real-time engine's wall clock; a manual
    // clock's engine settles it at the next request).
    setTimeout(() => this.settleDue(), DISPOSAL_MS + 5).unref();
    return triggerId;
  }

  /** Runs every disposal whose time has come. */
  private settleDue(): void {
    const now = this.now();
    for (const d of this.disposals.values()) if (!d.result && now - d.triggeredAt >= DISPOSAL_MS) d.result = { failure: this.dispose(d.path), at: now };
  }

  /** The status of a trigger, finishing its disposal once its time has come; undefined when unknown or expired. */
  status(triggerId: string): DisposalStatus | undefined {
    const now = this.now();
    for (const [id, d] of this.disposals) if (d.result && now - d.result.at > STORE_DURATION_MS) this.disposals.delete(id);
    this.settleDue();
    const disposal = this.disposals.get(triggerId);
    if (!disposal) return undefined;
    if (!disposal.result) return { status: { id: 'IN_PROGRESS' } };
    const failure = disposal.result.failure;
    return {
      status: { id: 'COMPLETED' },
      operation: failure ? { 'failure-cause': { class: failure.class, 'stack-trace': `${failure.class}: ${failure.message}\n\tat org.apache.flink.runtime.checkpoint.Checkpoints.disposeSavepoint(Checkpoints.java:335)` } } : {},
    };
  }

  /** Deletes the savepoint's folder; the failure as Flink words it, or null. */
  private dispose(pointer: string): { class: string; message: string } | null {
    let folder: string;
    try {
      folder = localPathOf(pointer);
    } catch (error) {
      return { class: 'java.io.IOException', message: (error as Error).message };
    }
    if (path.basename(folder) === '_metadata') folder = path.dirname(folder);
    const notFound = { class: 'java.io.FileNotFoundException', message: `Cannot find checkpoint or savepoint file/directory '${pointer}' on file system 'file'.` };
    if (!existsSync(folder) || !statSync(folder).isDirectory() || !existsSync(path.join(folder, '_metadata'))) return notFound;
    try {
      this.allowed.check(folder, 'savepoint to dispose');
    } catch (error) {
      return { class: 'java.io.IOException', message: `Refusing to dispose ${pointer}: ${(error as Error).message}` };
    }
    // The folder itself must not be one of the allowed roots (a savepoint lies under one).
    const real = realPathOf(folder);
    if (this.allowed.roots.some((root) => realPathOf(root) === real)) return { class: 'java.io.IOException', message: `Refusing to dispose ${pointer}: it is a storage root, not a savepoint.` };
    rmSync(real, { recursive: true, force: true });
    return null;
  }
}
