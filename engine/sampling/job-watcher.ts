import type { ClusterConnection } from '../clusters/cluster-connections.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { HistoryEvent } from '../history/event-log.ts';
import type { JobSample } from '../history/job-sample.ts';
import type { JobWatch } from '../contracts/history.ts';
import { CheckpointSync, type CheckpointSyncOptions } from './checkpoint-sync.ts';
import { comparisonBase, eventsBetween } from './sample-events.ts';
import { fetchJobSample, type FetchedSample } from './sample-job.ts';
import { fetchStoreSamples, type StoreSampling } from './store-samples.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';

/**
 * A sample that takes long (a job of 200 vertices × 4,096 subtasks answers hundreds of megabytes) is followed by a rest
 * of at least twice its time: background sampling keeps the engine and the JobManager busy a third of the time at
 * most, and the pages stay quick. Otherwise the next sample starts one interval after this one started.
 */
export const SAMPLE_REST_FACTOR = 2;

/**
 * The second sample of a watch comes this soon after the first: the first one's requests made the JobManager fetch
 * its metrics (lazily, answering them from its previous fetch), so fresh counters are there within a second or two,
 * and a page opened on a job not yet watched has rates and charts at once instead of after two intervals.
 */
export const WARM_UP_MS = 2_000;

export function nextSampleDelay(intervalMs: number, sampleMs: number): number {
  return Math.max(0, intervalMs - sampleMs, SAMPLE_REST_FACTOR * sampleMs);
}

export interface JobWatcherOptions {
  history: HistoryStore;
  /** The connection of a cluster by id; throws when the cluster is gone (removed from the app). */
  connection(clusterId: string): ClusterConnection;
  /** An unpinned watch ends this long after the last page that showed the job. @default 15 min */
  openWatchIdleMs?: number;
  /** How the checkpoint history fetches details (see `CheckpointSync`). */
  checkpoints?: CheckpointSyncOptions;
  /**
   * The cluster's metrics store, when it names one the history reads (null when not): its figures are read from
   * there, and the JobManager is asked only for the job's structure, state and checkpoints.
   */
  storeSampling?(clusterId: string): Promise<StoreSampling | null>;
  /** Called after each stored sample. */
  onSample?: (sample: JobSample, connection: ClusterConnection) => Promise<void> | void;
  now?: () => number;
}

interface Running {
  timer: ReturnType<typeof setTimeout> | undefined;
  previous: JobSample | undefined;
  /** What the next sample's events compare with (see `comparisonBase`). */
  base: JobSample | undefined;
  /** Epoch ms of the first failed sample of the current gap; undefined while the cluster answers. */
  gapSince: number | undefined;
  inFlight: Promise<void> | undefined;
  stopped: boolean;
  checkpoints: CheckpointSync;
  /** The watch's second sample was scheduled (see WARM_UP_MS). */
  warmedUp: boolean;
  /** The metrics store has not answered since this time (epoch ms); undefined while it does, or without one. */
  storeSilentSince: number | undefined;
}

/**
 * Samples watched jobs in the background, one loop per job, at the cluster's metrics fetch interval (never faster;
 * a watch may ask for slower), whether or not a page is open. A sample that has not finished is never overlapped by
 * the next. An unreachable cluster or a 5xx is a gap (an event, never zeros); the loop goes on. A job that ends gets
 * a last sample and its watch ends; so does a job the cluster no longer knows. Each sample also keeps the job's
 * checkpoints in the history (`CheckpointSync`), from the `/checkpoints` response the sample read anyway.
 */
export class JobWatcher {
  private readonly running = new Map<string, Running>();
  private readonly now: () => number;
  private readonly openWatchIdleMs: number;

  constructor(private readonly options: JobWatcherOptions) {
    this.now = options.now ?? Date.now;
    this.openWatchIdleMs = options.openWatchIdleMs ?? 15 * 60_000;
  }

  /** Resumes the watches persisted by an earlier run of the app. */
  start(): void {
    for (const watch of this.options.history.watches.list()) this.run(watch);
  }

  /**
   * Starts (or refreshes) a watch. `open` is a page showing the job: it keeps an unpinned watch alive.
   * `pinned` set to true or false pins or unpins; undefined leaves it as it is.
   */
  async watch(clusterId: string, jobId: string, options: { jobName?: string; pinned?: boolean; intervalMs?: number | null } = {}): Promise<JobWatch> {
    const existing = this.options.history.watches.get(clusterId, jobId);
    const now = this.now();
    const watch: JobWatch = {
      clusterId,
      jobId,
      jobName: options.jobName ?? existing?.jobName ?? jobId,
      pinned: options.pinned ?? existing?.pinned ?? false,
      intervalMs: options.intervalMs !== undefined ? options.intervalMs : (existing?.intervalMs ?? null),
      createdAt: existing?.createdAt ?? now,
      lastOpenedAt: now,
    };
    await this.options.history.watches.put(watch);
    if (!existing) await this.record({ clusterId, jobId, t: now, kind: 'watch-started', message: watch.pinned ? 'Watched: pinned by the operator.' : 'Watched: the job was opened.' });
    this.run(watch);
    return watch;
  }

  /** Ends a watch; its history stays. */
  async unwatch(clusterId: string, jobId: string, why = 'The operator stopped watching the job.'): Promise<void> {
    this.halt(clusterId, jobId);
    if (!this.options.history.watches.get(clusterId, jobId)) return;
    await this.options.history.watches.remove(clusterId, jobId);
    await this.record({ clusterId, jobId, t: this.now(), kind: 'watch-stopped', message: why });
  }

  /** Ends every watch of a cluster (it was removed from the app). */
  async forgetCluster(clusterId: string): Promise<void> {
    for (const w of this.options.history.watches.list()) if (w.clusterId === clusterId) await this.unwatch(clusterId, w.jobId, 'The cluster was removed from the app.');
  }

  list(): JobWatch[] {
    return this.options.history.watches.list();
  }

  /** Takes one sample now (tests, and the CLI's `--window` sampling), storing it as the loop would. */
  async sampleNow(clusterId: string, jobId: string): Promise<JobSample | undefined> {
    const state = this.stateOf(clusterId, jobId);
    await state.inFlight;
    state.inFlight = this.tick(clusterId, jobId, state);
    await state.inFlight;
    state.inFlight = undefined;
    return state.previous;
  }

  /** Stops every loop (the app quits); the watches stay persisted and resume on the next start. */
  async stop(): Promise<void> {
    const pending = [...this.running.values()].map((r) => r.inFlight);
    for (const key of [...this.running.keys()]) this.halt(...(key.split('\u0000') as [string, string]));
    await Promise.allSettled(pending);
  }

  private run(watch: JobWatch): void {
    const state = this.stateOf(watch.clusterId, watch.jobId);
    if (state.timer !== undefined || state.inFlight) return;
    this.schedule(watch.clusterId, watch.jobId, state, 0);
  }

  private stateOf(clusterId: string, jobId: string): Running {
    const key = `${clusterId}\u0000${jobId}`;
    let state = this.running.get(key);
    if (!state) {
      const latest = this.options.history.samples.latest(clusterId, jobId);
      state = {
        timer: undefined,
        previous: latest,
        base: latest,
        gapSince: undefined,
        inFlight: undefined,
        stopped: false,
        warmedUp: false,
        storeSilentSince: undefined,
        checkpoints: new CheckpointSync(this.options.history, clusterId, jobId, this.options.checkpoints),
      };
      this.running.set(key, state);
    }
    return state;
  }

  private halt(clusterId: string, jobId: string): void {
    const key = `${clusterId}\u0000${jobId}`;
    const state = this.running.get(key);
    if (!state) return;
    state.stopped = true;
    if (state.timer !== undefined) clearTimeout(state.timer);
    this.running.delete(key);
  }

  private schedule(clusterId: string, jobId: string, state: Running, delayMs: number): void {
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (state.stopped) return;
      const started = this.now();
      state.inFlight = this.tick(clusterId, jobId, state).finally(() => (state.inFlight = undefined));
      void state.inFlight.then(async () => {
        if (state.stopped) return;
        const busy = this.now() - started;
        const interval = await this.intervalOf(clusterId, jobId);
        const warmUp = !state.warmedUp && state.previous !== undefined;
        if (warmUp) state.warmedUp = true;
        this.schedule(clusterId, jobId, state, warmUp ? Math.min(WARM_UP_MS, interval) : nextSampleDelay(interval, busy));
      });
    }, delayMs);
    state.timer.unref?.();
  }

  /** The watch's interval, never below the cluster's metrics fetch interval. */
  private async intervalOf(clusterId: string, jobId: string): Promise<number> {
    const asked = this.options.history.watches.get(clusterId, jobId)?.intervalMs ?? 0;
    try {
      const { metricsFetchIntervalMs } = await this.options.connection(clusterId).check();
      return Math.max(asked, metricsFetchIntervalMs);
    } catch {
      return Math.max(asked, 10_000);
    }
  }

  /** One sample: stored with its events, or a gap; ends the watch when the job ended or is gone. Never throws. */
  private async tick(clusterId: string, jobId: string, state: Running): Promise<void> {
    const watch = this.options.history.watches.get(clusterId, jobId);
    if (watch && !watch.pinned && this.now() - watch.lastOpenedAt > this.openWatchIdleMs) {
      await this.unwatch(clusterId, jobId, 'No page has shown the job for a while and it is not pinned.');
      return;
    }
    let connection: ClusterConnection;
    let fetched: { samples: JobSample[]; checkpoints: FetchedSample['checkpoints'] };
    try {
      connection = this.options.connection(clusterId);
      fetched = (await this.fromStore(connection, clusterId, jobId, state)) ?? (await this.fromJobManager(connection, clusterId, jobId, state));
    } catch (error) {
      await this.onFailure(clusterId, jobId, state, error);
      return;
    }
    const newest = fetched.samples.at(-1);
    if (!newest) return;
    if (fetched.checkpoints) {
      try {
        // Before the sample is stored: it fills the sample's per-subtask state sizes.
        await state.checkpoints.sync(connection.client, fetched.checkpoints, newest);
      } catch {
        // A failed details request is retried at the next sample; the sample is stored either way.
      }
    }
    if (state.gapSince !== undefined) {
      const seconds = Math.round((newest.t - state.gapSince) / 1000);
      await this.record({ clusterId, jobId, t: newest.t, kind: 'gap-ended', message: `The cluster answers again after ${seconds} s without samples.` });
      state.gapSince = undefined;
    }
    for (const sample of fetched.samples) {
      const events = eventsBetween(state.base, sample);
      for (const event of events) await this.record(event);
      await this.options.history.samples.append(sample);
      state.previous = sample;
      state.base = comparisonBase(state.base, sample, events);
      try {
        await this.options.onSample?.(sample, connection);
      } catch {
        // What hooks in records its own failures; the sample is stored either way.
      }
    }
    if (isEndedJobState(newest.jobState) && watch) {
      await this.unwatch(clusterId, jobId, `The job ended (${newest.jobState}): its history stays viewable.`);
    }
  }

  /**
   * The samples the cluster's metrics store has since the newest one stored; null when there is no store, when it
   * does not answer (said once, as an event: the JobManager is sampled meanwhile) or when the job no longer runs
   * (its last sample comes from the JobManager, which says how it ended).
   */
  private async fromStore(connection: ClusterConnection, clusterId: string, jobId: string, state: Running) {
    const sampling = await this.options.storeSampling?.(clusterId).catch(() => null);
    if (!sampling) return null;
    const t = this.now();
    // While the store is silent, every round asks it something, even with no step to read yet (see `probe`).
    const round = await fetchStoreSamples(connection.client, sampling, clusterId, jobId, state.previous, t, state.storeSilentSince !== undefined);
    if (round.storeFailure !== undefined) {
      if (state.storeSilentSince === undefined) {
        state.storeSilentSince = t;
        await this.record({ clusterId, jobId, t, kind: 'store-silent', message: `The metrics store does not answer (${round.storeFailure}): the console samples the JobManager until it does.` });
      }
      return null;
    }
    if (state.storeSilentSince !== undefined) {
      const seconds = Math.round((t - state.storeSilentSince) / 1000);
      await this.record({ clusterId, jobId, t, kind: 'store-answers', message: `The metrics store answers again after ${seconds} s: its figures are read from it again.` });
      state.storeSilentSince = undefined;
    }
    if (round.jobState !== 'RUNNING') return null;
    return { samples: round.samples, checkpoints: round.checkpoints };
  }

  private async fromJobManager(connection: ClusterConnection, clusterId: string, jobId: string, state: Running) {
    const fetched = await fetchJobSample(connection.client, clusterId, jobId, state.previous, this.now);
    return { samples: [fetched.sample], checkpoints: fetched.checkpoints };
  }

  private async onFailure(clusterId: string, jobId: string, state: Running, error: unknown): Promise<void> {
    const info = error instanceof EngineError ? error.info : { kind: 'internal' as const, message: String(error) };
    const t = this.now();
    if (info.kind === 'not-found' && info.status === 404) {
      await this.record({ clusterId, jobId, t, kind: 'job-gone', message: `The cluster no longer knows the job (${info.message}); its history stays viewable.` });
      await state.checkpoints.jobGone(t);
      await this.unwatch(clusterId, jobId, 'The job is gone from the cluster.');
      return;
    }
    if (info.kind === 'not-found') {
      // The cluster itself was removed from the app.
      await this.unwatch(clusterId, jobId, info.message);
      return;
    }
    if (state.gapSince === undefined) {
      state.gapSince = t;
      await this.record({ clusterId, jobId, t, kind: 'gap-started', message: `No sample: ${info.message}` });
    }
  }

  private async record(event: HistoryEvent): Promise<void> {
    await this.options.history.events.append(event);
  }
}
