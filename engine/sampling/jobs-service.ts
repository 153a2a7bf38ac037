import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { JobsApi } from '../contracts/jobs.ts';
import type { JournalEntry, JournalFilter } from '../contracts/operations.ts';
import type { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { fetchJobs } from './cluster-views.ts';
import { fetchJobExceptions } from './job-exceptions.ts';
import { fetchJobPlan, withoutSubtaskFigures } from './job-graph.ts';
import { fetchJobRescales, type EndedRescaleDetails } from './job-rescales.ts';
import type { JobWatcher } from './job-watcher.ts';
import { fetchVertexSubtasks } from './vertex-subtasks.ts';

/** A cluster's jobs as Flink shows them now. Pages fetch on demand; nothing here runs in the background. */
/** How many jobs' ended rescales are kept. */
const ENDED_RESCALES_JOBS = 32;

export class JobsService implements JobsApi {
  private readonly endedRescales = new Map<string, EndedRescaleDetails>();

  constructor(
    private readonly registry: ClusterRegistry,
    private readonly watcher: JobWatcher,
    private readonly currentGraphs: CurrentGraphs,
    /** The operations journal, read to link the console's rescales to Flink's records of them. */
    private readonly journal: { list(filter: JournalFilter): JournalEntry[] },
  ) {}

  async list(clusterId: string) {
    return fetchJobs(this.registry.connection(clusterId).client);
  }

  async graph(clusterId: string, jobId: string) {
    // The refresh reads per subtask the vertices whose reading the job's history wants now (see create-engine.ts):
    // the page's requests are the history's, which then asks the JobManager nothing more for them.
    const graph = await this.currentGraphs.fetch(clusterId, requireId(jobId, 'job'));
    // A page showing a job keeps it watched: its history fills in the background while the operator looks.
    if (!isEndedJobState(graph.state)) await this.watcher.watch(clusterId, jobId, { jobName: graph.name });
    return withoutSubtaskFigures(graph);
  }

  async plan(clusterId: string, jobId: string) {
    return fetchJobPlan(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'));
  }

  async subtasks(clusterId: string, jobId: string, vertexId: string) {
    return fetchVertexSubtasks(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'), requireId(vertexId, 'vertex'));
  }

  async exceptions(clusterId: string, jobId: string) {
    return fetchJobExceptions(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'));
  }

  async rescales(clusterId: string, jobId: string) {
    const id = requireId(jobId, 'job');
    const journal = this.journal.list({ clusterId, jobId: id, kind: 'rescale' });
    return fetchJobRescales(this.registry.connection(clusterId).client, clusterId, id, journal, this.endedRescalesOf(clusterId, id));
  }

  /** Per job, the details of its ended rescales (the newest jobs' only: a page polls the job it shows). */
  private endedRescalesOf(clusterId: string, jobId: string): EndedRescaleDetails {
    const key = `${clusterId}\u0000${jobId}`;
    const known = this.endedRescales.get(key) ?? new Map();
    this.endedRescales.delete(key);
    this.endedRescales.set(key, known);
    while (this.endedRescales.size > ENDED_RESCALES_JOBS) this.endedRescales.delete(this.endedRescales.keys().next().value!);
    return known;
  }
}
