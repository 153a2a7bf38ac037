import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { JobsApi } from '../contracts/jobs.ts';
import type { JournalEntry, JournalFilter } from '../contracts/operations.ts';
import type { CurrentGraphs } from '../diagnosis/current-graphs.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { fetchJobs } from './cluster-views.ts';
import { fetchJobExceptions } from './job-exceptions.ts';
import { fetchJobGraph, fetchJobPlan } from './job-graph.ts';
import { fetchJobRescales } from './job-rescales.ts';
import type { JobWatcher } from './job-watcher.ts';
import { fetchVertexSubtasks } from './vertex-subtasks.ts';

/** A cluster's jobs as Flink shows them now. Pages fetch on demand; nothing here runs in the background. */
export class JobsService implements JobsApi {
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
    const graph = await fetchJobGraph(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'));
    this.currentGraphs.remember(graph);
    // A page showing a job keeps it watched: its history fills in the background while the operator looks.
    if (!isEndedJobState(graph.state)) await this.watcher.watch(clusterId, jobId, { jobName: graph.name });
    return graph;
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
    return fetchJobRescales(this.registry.connection(clusterId).client, clusterId, id, journal);
  }
}
