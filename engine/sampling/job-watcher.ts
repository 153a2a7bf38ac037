import type { ClusterConnection } from '../clusters/cluster-connections.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { HistoryEvent } from '../history/event-log.ts';
import type { JobSample, VertexSample } from '../history/job-sample.ts';
import type { JobWatch } from '../contracts/history.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { CheckpointSync, type CheckpointSyncOptions } from './checkpoint-sync.ts';
import { fetchJobGraph, type FetchedJobGraph } from './job-graph.ts';
import { comparisonBase, eventsBetween } from './sample-events.ts';
import { fetchJobSample, fetchPlannedSample, type FetchedSample, type FiguresReading } from './sample-job.ts';
import { CHECKPOINTS_MS, SUBTASK_READING_MS, dueForFigures, newSamplingMemory, planSample, type SamplingMemory } from './sampling-plan.ts';
import { canReadFigures } from './subtask-figures.ts';
import { placementHolds, placementOf } from './subtask-placement.ts';
import { fetchStoreSamples, fetchStoreWindow, type KnownTaskManagers, type StoreSampling } from './store-samples.ts';
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

/**
 * A sample cut by its deadline (the JobManager answers slowly) doubles the interval to the next, up to this factor;
 * a sample within its deadline brings it back to the watch's interval.
 */
export const MAX_BACKOFF = 8;

/**
 * A page's graph this much older than one interval is still this interval's: a page refreshing at the same interval
 * fetches a little later each time (its own requests take time).
 */
export const PAGE_GRAPH_GRACE_MS = 2_000;

/** What reads a window of the history asks first: the window filled from the metrics store where the history does not reach. */
export interface WindowReach {
  reachBack(clusterId: string, jobId: string, window: { windowMs: number }): Promise<void>;
}

/** For a history without a watcher (tests, the CLI): windows are what the history has. */
export const HISTORY_ONLY: WindowReach = { reachBack: async () => undefined };

/** A metrics store that did not answer a window reaching back is asked again this long after. */
export const REACH_BACK_RETRY_MS = 60_000;

/**
 * A page refreshing the job's graph at most this often drives the sampler (its refreshes are the samples); a slower
 * one would leave the per-subtask readings further apart than their cadence (see sampling-plan.ts).
 */
export const MAX_DRIVING_PAGE_PERIOD_MS = SUBTASK_READING_MS;

/** The factor on the interval after a sample: doubled while samples run into their deadline, 1 once one does not. */
export function nextBackoff(current: number, slow: boolean): number {
  return slow ? Math.min(MAX_BACKOFF, current * 2) : 1;
}

export function nextSampleDelay(intervalMs: number, sampleMs: number, backoff = 1): number {
  return Math.max(0, intervalMs * backoff - sampleMs, SAMPLE_REST_FACTOR * sampleMs);
}

/**
 * The graphs fetched for job pages (see CurrentGraphs): the sampler reuses a recent one instead of asking again.
 * `periodMs`: how long after the page's previous refresh this one came.
 */
export interface PageGraphs {
  recent(clusterId: string, jobId: string): (FetchedJobGraph & { seenAt: number; periodMs?: number }) | undefined;
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
  /**
   * The graphs pages fetched: a page open on a job costs the sampler nothing for the job's aggregates, nor for the
   * per-subtask readings the page's graph read (see `figuresWanted`).
   */
  pageGraphs?: PageGraphs;
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
  /** The next sample is the warm-up one: it reads every vertex's subtasks again, for rates at once. */
  warmingUp: boolean;
  /** What was read when (see sampling-plan.ts). */
  memory: SamplingMemory;
  /** Each vertex's latest per-subtask reading: what the next reading's rates are over. */
  readings: Map<string, VertexSample>;
  /** The interval the loop samples at (the watch's, never below the metrics fetch interval). */
  intervalMs: number;
  /** The factor on the interval while the JobManager answers slowly (see MAX_BACKOFF). */
  backoff: number;
  /** The cluster's TaskManagers as a metrics store's series are matched to them (see store-samples.ts). */
  taskManagers: KnownTaskManagers | undefined;
}

/**
 * Samples watched jobs in the background, one loop per job, at the cluster's metrics fetch interval (never faster;
 * a watch may ask for slower), whether or not a page is open, frugally (see sampling-plan.ts): each interval Flink's
 * aggregated figures (the page's own graph when it fetched one), per-subtask readings and checkpoints at their own
 * cadence or when the aggregates move, a large job's vertices in turns. A sample that has not finished is never
 * overlapped by the next; one that ran into its deadline backs the loop off. An unreachable cluster or a 5xx is a gap
 * (an event, never zeros); the loop goes on. A job that ends gets a last sample and its watch ends; so does a job the
 * cluster no longer knows. Samples also keep the job's checkpoints in the history (`CheckpointSync`).
 */
export class JobWatcher {
  private readonly running = new Map<string, Running>();
  /** Per job, how far back its history was filled from the metrics store (see `reachBack`). */
  private readonly reachedBack = new Map<string, number>();
  private readonly reachingBack = new Map<string, Promise<unknown>>();
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

  /**
   * Takes one sample now and stores it as the loop would: a full one (every vertex's subtasks and the checkpoints:
   * the CLI's `--window` sampling, tests), or with `planned` the one the loop would take at this moment.
   */
  async sampleNow(clusterId: string, jobId: string, options: { planned?: boolean } = {}): Promise<JobSample | undefined> {
    const state = this.stateOf(clusterId, jobId);
    await state.inFlight;
    state.inFlight = this.tick(clusterId, jobId, state, options.planned ? 'planned' : 'full');
    await state.inFlight;
    state.inFlight = undefined;
    return state.previous;
  }

  /**
   * Fills a job's history back to `from` from its cluster's metrics store, where the store has figures from before
   * the history's first sample: a window that reaches back before the console watched the job (or before it was
   * started) is read from the store, not left empty. Once per job and time: what the store did not have is not asked
   * for again, and a store that does not answer leaves the window as the history has it.
   */
  async reachBack(clusterId: string, jobId: string, from: number): Promise<void>;
  /** The same for a window of `windowMs` ending at the job's newest sample, as the diagnosis and the charts read it. */
  async reachBack(clusterId: string, jobId: string, window: { windowMs: number }): Promise<void>;
  async reachBack(clusterId: string, jobId: string, since: number | { windowMs: number }): Promise<void> {
    // One at a time per job: concurrent windows (the page polls its diagnosis and its charts) wait for the one reading,
    // then find the history reaching back already.
    const key = `${clusterId}\u0000${jobId}`;
    const mine = (this.reachingBack.get(key) ?? Promise.resolve()).then(() => this.reachBackOnce(clusterId, jobId, since));
    const settled = mine.catch(() => undefined);
    this.reachingBack.set(key, settled);
    try {
      await mine;
    } finally {
      if (this.reachingBack.get(key) === settled) this.reachingBack.delete(key);
    }
  }

  private async reachBackOnce(clusterId: string, jobId: string, since: number | { windowMs: number }): Promise<void> {
    const last = this.options.history.samples.job(clusterId, jobId)?.lastSampleAt;
    if (last === undefined) return;
    const from = typeof since === 'number' ? since : last - since.windowMs;
    // A window that is not one (the services check it, and say so, after) reaches back nowhere.
    if (!Number.isFinite(from)) return;
    const key = `${clusterId}\u0000${jobId}`;
    const history = this.options.history.samples;
    const first = history.job(clusterId, jobId)?.firstSampleAt;
    if (first === undefined || !this.options.storeSampling || (this.reachedBack.get(key) ?? Infinity) <= from) return;
    const sampling = await this.options.storeSampling(clusterId).catch(() => null);
    if (!sampling || first - from < sampling.stepMs) return;
    // Asked once; a store that did not answer is asked again a while later.
    this.reachedBack.set(key, from);
    const earliest = history.heads(clusterId, jobId, first, first)[0];
    const layout = {
      clusterId,
      jobId,
      jobName: earliest.jobName,
      jobStartTime: earliest.jobStartTime,
      vertices: earliest.vertices,
      edges: earliest.edges,
      taskManagers: this.running.get(key)?.taskManagers?.list ?? earliest.taskManagers,
    };
    try {
      for (const sample of await fetchStoreWindow(sampling, layout, from, first - sampling.stepMs)) await history.append(sample);
    } catch {
      const retry = setTimeout(() => this.reachedBack.delete(key), REACH_BACK_RETRY_MS);
      retry.unref?.();
    }
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
        warmingUp: false,
        checkpoints: new CheckpointSync(this.options.history, clusterId, jobId, this.options.checkpoints),
        memory: newSamplingMemory(),
        readings: new Map(latest?.vertices.filter((v) => v.subtasks).map((v) => [v.id, v])),
        intervalMs: 10_000,
        backoff: 1,
        taskManagers: undefined,
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
      state.inFlight = this.tick(clusterId, jobId, state, 'planned').finally(() => (state.inFlight = undefined));
      void state.inFlight.then(async () => {
        if (state.stopped) return;
        const busy = this.now() - started;
        const interval = await this.intervalOf(clusterId, jobId);
        state.intervalMs = interval;
        const warmUp = !state.warmedUp && state.previous !== undefined;
        if (warmUp) state.warmedUp = state.warmingUp = true;
        this.schedule(clusterId, jobId, state, warmUp ? Math.min(WARM_UP_MS, interval) : nextSampleDelay(interval, busy, state.backoff));
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
  private async tick(clusterId: string, jobId: string, state: Running, kind: 'full' | 'planned'): Promise<void> {
    const watch = this.options.history.watches.get(clusterId, jobId);
    if (watch && !watch.pinned && this.now() - watch.lastOpenedAt > this.openWatchIdleMs) {
      await this.unwatch(clusterId, jobId, 'No page has shown the job for a while and it is not pinned.');
      return;
    }
    let connection: ClusterConnection;
    let samples: JobSample[];
    try {
      connection = this.options.connection(clusterId);
      const sampled = (await this.fromStore(connection, clusterId, jobId, state)) ?? [
        kind === 'full' ? await this.fullSample(connection.client, clusterId, jobId, state) : await this.plannedSample(connection.client, clusterId, jobId, state),
      ];
      samples = sampled.filter((sample) => sample !== undefined);
    } catch (error) {
      await this.onFailure(clusterId, jobId, state, error);
      return;
    }
    const newest = samples.at(-1);
    if (!newest) return;
    for (const sample of samples) for (const vertex of sample.vertices) if (vertex.subtasks) state.readings.set(vertex.id, vertex);
    if (state.gapSince !== undefined) {
      const seconds = Math.round((newest.t - state.gapSince) / 1000);
      await this.record({ clusterId, jobId, t: newest.t, kind: 'gap-ended', message: `The cluster answers again after ${seconds} s without samples.` });
      state.gapSince = undefined;
    }
    for (const sample of samples) {
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
    if (!this.options.storeSampling) return null;
    const t = this.now();
    const silent = async (reason: string) => {
      if (state.storeSilentSince !== undefined) return null;
      state.storeSilentSince = t;
      await this.record({ clusterId, jobId, t, kind: 'store-silent', message: `The metrics store does not answer (${reason}): the console samples the JobManager until it does.` });
      return null;
    };
    let sampling: StoreSampling | null;
    try {
      sampling = await this.options.storeSampling(clusterId);
    } catch (error) {
      // Its secret is not in this session, its scrape interval could not be found: said as any silence.
      return silent(error instanceof EngineError ? error.info.message : String(error));
    }
    if (!sampling) return null;
    const checkpointsDue = state.memory.checkpointsAt === undefined || t - state.memory.checkpointsAt >= CHECKPOINTS_MS;
    // While the store is silent, every round asks it something, even with no step to read yet (see `probe`).
    const round = await fetchStoreSamples(connection.client, sampling, clusterId, jobId, this.readingsOf(state), t, {
      probe: state.storeSilentSince !== undefined,
      withCheckpoints: checkpointsDue,
      taskManagers: state.taskManagers,
    });
    state.taskManagers = round.taskManagers;
    if (round.checkpoints) state.memory.checkpointsAt = t;
    if (round.storeFailure !== undefined) return silent(round.storeFailure);
    if (state.storeSilentSince !== undefined) {
      const seconds = Math.round((t - state.storeSilentSince) / 1000);
      await this.record({ clusterId, jobId, t, kind: 'store-answers', message: `The metrics store answers again after ${seconds} s: its figures are read from it again.` });
      state.storeSilentSince = undefined;
    }
    if (round.jobState !== 'RUNNING') return null;
    const newest = round.samples.at(-1);
    if (newest && round.checkpoints) {
      try {
        // Before the sample is stored: it fills the sample's per-subtask state sizes.
        await state.checkpoints.sync(connection.client, round.checkpoints, newest);
      } catch {
        // A failed details request is retried at the next round; the samples are stored either way.
      }
    }
    return round.samples;
  }

  /** Every vertex's subtasks and the checkpoints, as one sample (`fetchJobSample`). */
  private async fullSample(client: FlinkRestClient, clusterId: string, jobId: string, state: Running): Promise<JobSample> {
    const fetched: FetchedSample = await fetchJobSample(client, clusterId, jobId, this.readingsOf(state), this.now);
    const { sample } = fetched;
    if (fetched.checkpoints) {
      try {
        // Before the sample is stored: it fills the sample's per-subtask state sizes.
        await state.checkpoints.sync(client, fetched.checkpoints, sample);
      } catch {
        // A failed details request is retried at the next sample; the sample is stored either way.
      }
    }
    const t = sample.t;
    for (const vertex of sample.vertices) state.memory.readAt.set(vertex.id, t);
    state.memory.checkpointsAt = t;
    return sample;
  }

  /**
   * The vertices a refresh of the job's graph should read per subtask now (see subtask-figures.ts): those whose
   * reading the watch wants and can take from their figures. Undefined for a job not watched yet.
   */
  figuresWanted(clusterId: string, jobId: string): ReadonlySet<string> | undefined {
    const state = this.running.get(`${clusterId}\u0000${jobId}`);
    if (!state?.memory.graph) return undefined;
    return dueForFigures(state.memory, state.memory.graph, this.now(), this.pacing(clusterId, jobId, state).intervalMs);
  }

  /**
   * How the sampler is paced now: by its own interval, or by a page refreshing the job's graph about as often (see
   * MAX_DRIVING_PAGE_PERIOD_MS), whose refreshes are then the samples; `page` is the page's latest graph.
   */
  private pacing(clusterId: string, jobId: string, state: Running) {
    const page = this.options.pageGraphs?.recent(clusterId, jobId);
    const t = this.now();
    const period = page?.periodMs;
    const pageDrives = page !== undefined && period !== undefined && period <= MAX_DRIVING_PAGE_PERIOD_MS && t - page.seenAt < period + PAGE_GRAPH_GRACE_MS;
    return { page, pageDrives, intervalMs: pageDrives ? Math.max(state.intervalMs, period) : state.intervalMs };
  }

  /**
   * The loop's sample (see sampling-plan.ts): the aggregates from the page's graph when one is recent, else fetched;
   * the per-subtask readings the plan asks for — from the figures per subtask the graph read where their placement is
   * known (no request of its own), else from the vertex details — and checkpoints, each part under its own deadline
   * (the graph's two, the readings' one, the checkpoints' one: four request deadlines at most, whatever the job's size).
   */
  private async plannedSample(client: FlinkRestClient, clusterId: string, jobId: string, state: Running): Promise<JobSample | undefined> {
    const t = this.now();
    const tally: TrafficStats = { requests: 0, bytes: 0 };
    const memory = state.memory;
    if (state.warmingUp) {
      state.warmingUp = false;
      memory.readAt.clear();
    }
    // A page refreshing about as often as the history samples drives it: each refresh is a sample, and between them
    // the JobManager is asked nothing (the page's next refresh comes within its period).
    const { page, pageDrives, intervalMs } = this.pacing(clusterId, jobId, state);
    const reused = page && page.seenAt > (state.previous?.t ?? -Infinity) && t - page.seenAt <= intervalMs + PAGE_GRAPH_GRACE_MS ? page : undefined;
    if (!reused && pageDrives) return undefined;
    let graph: FetchedJobGraph;
    if (reused) graph = reused;
    else {
      // The sampler's own graph reads per subtask the vertices due for it: their readings cost no request of their own.
      const perSubtask = memory.graph ? dueForFigures(memory, memory.graph, t, intervalMs) : undefined;
      graph = await fetchJobGraph(client, clusterId, jobId, { priority: 'background', perSubtask });
      tally.requests += graph.requestCount;
      tally.bytes += graph.responseBytes ?? 0;
    }
    const figured = new Map<string, FiguresReading>();
    for (const [id, figures] of graph.subtaskFigures ?? []) {
      const vertex = graph.vertices.find((v) => v.id === id);
      const placement = memory.placements.get(id);
      if (vertex && placement && placementHolds(placement, vertex)) figured.set(id, { figures, placement });
    }
    const plan = planSample(memory, graph, t, intervalMs, new Set(figured.keys()));
    // A vertex whose figures a graph can read but this one did not (it moved since, or a page's refresh came before it
    // was due) waits for the next graph, a page's or the sampler's own, which reads them: no requests of its own now,
    // unless it is an interval overdue already.
    const detailed = plan.read.filter((id) => {
      const vertex = graph.vertices.find((v) => v.id === id)!;
      const placement = memory.placements.get(id);
      const readableByGraph = placement !== undefined && placementHolds(placement, vertex) && canReadFigures(client, jobId, vertex);
      const overdue = t - (memory.readAt.get(id) ?? -Infinity) >= SUBTASK_READING_MS + intervalMs;
      return !(readableByGraph && !overdue);
    });
    const before = { ...tally };
    // Only what the graph read, nothing requested: the sample describes the moment the graph was fetched.
    const graphAt = reused ? reused.seenAt : t;
    const at = detailed.length === 0 ? graphAt : t;
    const { sample, deadlinePassed, restarted } = await fetchPlannedSample(client, clusterId, graph, { detailed, figured }, this.readingsOf(state), at, tally);
    const subtasksRead = sample.vertices.filter((v) => v.subtasks && detailed.includes(v.id)).reduce((sum, v) => sum + v.parallelism, 0);
    if (subtasksRead > 0) memory.bytesPerSubtask = Math.max(1, (tally.bytes - before.bytes) / subtasksRead);
    for (const id of figured.keys()) memory.readAt.set(id, graphAt);
    for (const id of detailed) {
      memory.readAt.set(id, t);
      const vertex = sample.vertices.find((v) => v.id === id);
      const startTime = graph.vertices.find((v) => v.id === id)?.startTime;
      if (vertex?.subtasks) memory.placements.set(id, placementOf(vertex.subtasks, sample.taskManagers, startTime));
      else memory.placements.delete(id);
    }
    // A subtask deployed again: where it runs now is in the vertex's details, read at its next reading.
    for (const id of restarted) memory.placements.delete(id);
    // What waits for the next graph stays due (a vertex that moved keeps its turn at once, not at its cadence).
    const deferred = plan.read.filter((id) => !detailed.includes(id));
    memory.moved = new Set([...plan.moved, ...restarted, ...deferred]);
    memory.graph = graph;
    sample.lastCompletedCheckpointId = state.previous?.lastCompletedCheckpointId ?? null;
    if (plan.checkpoints) {
      memory.checkpointsAt = t;
      const signal = AbortSignal.timeout(client.timeoutMs);
      try {
        const statistics = await client.request(endpoints.jobCheckpoints, { jobid: jobId }, undefined, { priority: 'background', signal, tally });
        sample.lastCompletedCheckpointId = statistics.latest?.completed?.id ?? null;
        const outcome = await state.checkpoints.sync(client, statistics, sample, { detailsBudget: plan.checkpointDetails, signal, tally });
        if (outcome.detailsFetched > 0) memory.checkpointDetailsAt = t;
      } catch {
        // Checkpointing off, or the request failed: asked again at the next due time; the sample is stored either way.
      }
    } else {
      state.checkpoints.fillStateBytes(sample);
    }
    const slow = deadlinePassed || graph.vertices.some((v) => v.metricsUnavailable !== undefined && /within \d+ ms|deadline/.test(v.metricsUnavailable));
    state.backoff = nextBackoff(state.backoff, slow);
    sample.requests = tally.requests;
    sample.bytes = tally.bytes;
    return sample;
  }

  /** The latest per-subtask reading of each vertex, as the sample the next reading's rates are over. */
  private readingsOf(state: Running): JobSample | undefined {
    if (!state.previous) return undefined;
    return { ...state.previous, vertices: [...state.readings.values()] };
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
