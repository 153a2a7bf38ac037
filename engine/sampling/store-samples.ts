import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { JobSample, TaskManagerRef } from '../history/job-sample.ts';
import { prometheusEndpoints } from '../prometheus/prometheus-endpoints.ts';
import { readWindow } from '../prometheus/prometheus-history.ts';
import { jobLayoutOf } from '../prometheus/job-layout.ts';
import type { JobLayout } from '../prometheus/to-job-samples.ts';
import { askStore } from '../prometheus/prometheus-request.ts';
import type { FetchedSample } from './sample-job.ts';

const BACKGROUND = { priority: 'background' } as const;

export interface StoreSampling {
  /** The metrics store's query API. */
  store: FlinkRestClient;
  /** The store's step: the cluster's scrape interval, never below the JobManager's metrics fetch interval. */
  stepMs: number;
  /** How far back the first read of a job goes (the history before the console watched it). */
  backfillMs: number;
}

/** The TaskManagers a watch knows of its cluster, and when it read them (see `knownTaskManagers`). */
export interface KnownTaskManagers {
  list: TaskManagerRef[];
  at: number;
}

/** The TaskManager list is read again this long after the last read: TaskManagers come and go rarely. */
export const TASKMANAGER_LIST_MS = 5 * 60_000;

/** What one round of reading the store gave: the new samples, oldest first, and what the JobManager said meanwhile. */
export interface StoreRound {
  samples: JobSample[];
  /** The cluster's TaskManagers, for the next round. */
  taskManagers: KnownTaskManagers;
  /** The job's `/checkpoints` (undefined when checkpointing is off or the request failed). */
  checkpoints: FetchedSample['checkpoints'];
  /** What the window read lacks, in sentences (gaps, vertices without series, a store that stopped part-way). */
  missing: string[];
  /** The job's state as the JobManager says now: the store keeps none. */
  jobState: string;
  /** The store did not answer (in words): nothing was read from it this round. */
  storeFailure?: string;
}

/**
 * A watched job's samples from its cluster's metrics store (Prometheus): the JobManager is asked only for what the
 * store does not keep — the job's vertices, edges and state (`GET /jobs/:jobid`) and its checkpoints — and the
 * per-subtask figures since the newest sample in the history are read from the store at its own step. The first read
 * of a job reaches back `backfillMs` (bounded by the job's start), so the history holds the minutes before the
 * console looked; a console that was closed for a while fills the time it missed the same way.
 *
 * Steps sit on multiples of the step, so that two reads of the same time give the same samples; the newest step read
 * is one step behind now (the store has not scraped later ones yet). A JobManager that does not answer throws, as
 * for any sample; a store that does not answer is said in `storeFailure` (the caller samples the JobManager instead).
 * `withCheckpoints`: also `/checkpoints` (at the frugal sampler's cadence, see CHECKPOINTS_MS). `probe` (the store was
 * silent): a round with no step to read yet asks the store's query API the smallest query instead (`vector(1)`), so
 * that the answer says whether it is back — a round that asked nothing would say nothing of it. `taskManagers`: what
 * the last round knew of the cluster's TaskManagers.
 */
export async function fetchStoreSamples(
  rest: FlinkRestClient,
  sampling: StoreSampling,
  clusterId: string,
  jobId: string,
  previous: JobSample | undefined,
  now: number,
  options: { probe?: boolean; withCheckpoints?: boolean; taskManagers?: KnownTaskManagers } = {},
): Promise<StoreRound> {
  const { probe = false, withCheckpoints = true } = options;
  const details = await rest.request(endpoints.jobDetails, { jobid: jobId }, undefined, BACKGROUND);
  const checkpoints = withCheckpoints ? await rest.request(endpoints.jobCheckpoints, { jobid: jobId }, undefined, BACKGROUND).catch(() => undefined) : undefined;
  const taskManagers = await knownTaskManagers(rest, options.taskManagers, now);
  const { stepMs } = sampling;
  // From the newest sample on, but never further back than the backfill (a console closed for a day reads its last hour).
  const earliest = Math.max(previous ? previous.t + 1 : -Infinity, now - sampling.backfillMs, details['start-time']);
  const from = Math.ceil(earliest / stepMs) * stepMs;
  const to = Math.floor((now - stepMs) / stepMs) * stepMs;
  const failed = (error: unknown): StoreRound => ({ samples: [], checkpoints, missing: [], jobState: details.state, taskManagers, storeFailure: error instanceof EngineError ? error.info.message : String(error) });
  if (to < from) {
    // A JobManager sample a moment ago (the store was silent) leaves no step to read yet.
    if (probe) {
      try {
        await askStore(sampling.store, prometheusEndpoints.query, { query: 'vector(1)' }, BACKGROUND);
      } catch (error) {
        return failed(error);
      }
    }
    return { samples: [], checkpoints, missing: [], jobState: details.state, taskManagers };
  }
  let read;
  try {
    read = await readWindow(sampling.store, jobLayoutOf(clusterId, details, taskManagers.list), from, to, stepMs, { previous });
  } catch (error) {
    return failed(error);
  }
  // Steps where the store held nothing of the job at all (before it started, or a scrape gap) are no samples.
  const samples = read.samples.filter((s) => s.vertices.some((v) => v.subtasks !== null));
  return { samples, checkpoints, missing: read.missing, jobState: details.state, taskManagers };
}

/**
 * The job's samples of `[from, to]` from the metrics store, where the history has none yet: a window asked for reaches
 * back before the console watched the job (the first read of a watch reaches back only `backfillMs`). Joined to the
 * job as the history's earliest sample knows it (`layout`: nothing is asked of the JobManager, which may have
 * forgotten the job), from its start at the earliest, on the store's steps; the first step has no rates (nothing
 * before it was read). Throws when the store does not answer.
 */
export async function fetchStoreWindow(sampling: StoreSampling, layout: JobLayout, from: number, to: number): Promise<JobSample[]> {
  const { stepMs } = sampling;
  const first = Math.ceil(Math.max(from, layout.jobStartTime) / stepMs) * stepMs;
  const last = Math.floor(to / stepMs) * stepMs;
  if (last < first) return [];
  const read = await readWindow(sampling.store, layout, first, last, stepMs);
  return read.samples.filter((s) => s.vertices.some((v) => v.subtasks !== null));
}

/**
 * The cluster's TaskManagers as the REST API lists them, kept for `TASKMANAGER_LIST_MS`: a series' `tm_id` (the
 * reporter's sanitised id) is matched to them, so a hot subtask's TaskManager is named as everywhere else. A list that
 * cannot be read keeps the last one (the series then name the label itself).
 */
async function knownTaskManagers(rest: FlinkRestClient, known: KnownTaskManagers | undefined, now: number): Promise<KnownTaskManagers> {
  if (known && now - known.at < TASKMANAGER_LIST_MS) return known;
  try {
    const info = await rest.request(endpoints.taskManagers, {}, undefined, BACKGROUND);
    return { list: info.taskmanagers.map((tm) => ({ id: tm.id, endpoint: null })), at: now };
  } catch {
    return known ?? { list: [], at: now };
  }
}
