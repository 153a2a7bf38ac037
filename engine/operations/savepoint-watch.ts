import type { SavepointProgress } from '../contracts/operations.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { abandonedCheckpointsNote, savepointByPath, savepointInFlight, vertexProgress } from '../analysis/savepoint-progress.ts';
import type { DriverContext, Progress } from './driver-context.ts';

/**
 * What Flink is doing while a savepoint or stop runs, from the job's checkpoint statistics: the savepoint's
 * acknowledged subtasks (`GET /jobs/:id/checkpoints`, then its details per vertex), read no more often than the
 * slowest poll (`maxPollMs`), and at the end the checkpoints it made Flink abandon. Best effort: a failed read
 * leaves the operation as it is (its outcome comes from the trigger's poll alone). Every request counts as a poll.
 */
export class SavepointWatch {
  private lastReadAt = -Infinity;
  private vertices: Array<{ id: string; name: string }> | null = null;

  constructor(
    private readonly progress: Progress,
    private readonly ctx: DriverContext,
  ) {}

  private get kind(): 'savepoint' | 'stop' {
    return this.progress.current.kind === 'stop' ? 'stop' : 'savepoint';
  }

  /** The savepoint in flight when a read is due; undefined when not due or the cluster could not say. */
  async readWhenDue(): Promise<SavepointProgress | null | undefined> {
    const now = this.ctx.clock.now();
    if (now - this.lastReadAt < this.ctx.settings.maxPollMs) return undefined;
    this.lastReadAt = now;
    const entry = this.progress.current;
    try {
      const body = await this.request(() => this.ctx.client.request(endpoints.jobCheckpoints, { jobid: entry.jobId! }));
      const found = savepointInFlight(body, this.kind, entry.createdAt, now);
      if (!found) return null;
      const details = await this.request(() => this.ctx.client.request(endpoints.checkpointDetails, { jobid: entry.jobId!, checkpointid: String(found.checkpointId) }));
      this.vertices ??= (await this.request(() => this.ctx.client.request(endpoints.jobDetails, { jobid: entry.jobId! }))).vertices.map((v) => ({ id: v.id, name: v.name }));
      return { ...found, vertices: vertexProgress(details, this.vertices) };
    } catch (error) {
      if (error instanceof EngineError) return undefined;
      throw error;
    }
  }

  /** After the savepoint at `location` completed: the checkpoints it made Flink abandon, in a sentence, or null. */
  async abandonedNote(location: string): Promise<string | null> {
    const entry = this.progress.current;
    try {
      const body = await this.request(() => this.ctx.client.request(endpoints.jobCheckpoints, { jobid: entry.jobId! }));
      const id = savepointByPath(body, location)?.id ?? entry.checkpoint?.checkpointId;
      return id === undefined ? null : abandonedCheckpointsNote(body, id);
    } catch (error) {
      if (error instanceof EngineError) return null;
      throw error;
    }
  }

  private request<T>(send: () => Promise<T>): Promise<T> {
    this.progress.polls++;
    return send();
  }
}

/** Worth journaling now: another savepoint, or more subtasks acknowledged (not merely a newer read). */
export function progressChanged(before: SavepointProgress | null | undefined, after: SavepointProgress): boolean {
  if (!before || before.checkpointId !== after.checkpointId || before.acknowledged !== after.acknowledged) return true;
  const acks = (p: SavepointProgress) => JSON.stringify((p.vertices ?? []).map((v) => [v.vertexId, v.acknowledged, v.total]));
  return acks(before) !== acks(after);
}
