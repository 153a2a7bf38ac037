import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { ExportAttachmentsRequest, ExportsApi, IncidentBundleRequest, SkewReportRequest } from '../contracts/exports.ts';
import { checkWindow } from '../diagnosis/history-windows.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { publicEntry, type OperationsJournal } from '../operations/journal.ts';
import { fetchJobExceptions } from '../sampling/job-exceptions.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { LOCAL_ENGINE_NO_FLAME_GRAPH } from '../inspect/inspect-service.ts';
import { fetchAttachments } from './incident-attachments.ts';
import { exportSkewReport, saveIncidentBundle, type AttachmentsOf } from './job-exports.ts';
import type { ReportCluster } from './skew-report.ts';
import { exportSubtaskMetrics } from './subtask-metrics.ts';
import { HISTORY_ONLY, type WindowReach } from '../sampling/job-watcher.ts';

/** Files the engine prepares for the user to save: the same code as `flink-ops report` and `flink-ops bundle`. */
export class ExportsService implements ExportsApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
    private readonly journal: OperationsJournal,
    /** Who saved a bundle: this console's version. */
    private readonly savedBy: string,
    /** Fills a window from the cluster's metrics store where it reaches back before the history (see JobWatcher). */
    private readonly windows: WindowReach = HISTORY_ONLY,
  ) {}

  async subtaskMetrics(clusterId: string, jobId: string) {
    return exportSubtaskMetrics(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'));
  }

  async skewReport(clusterId: string, jobId: string, request: SkewReportRequest) {
    const id = requireId(jobId, 'job');
    // The window checked before the store is read for it.
    await this.windows.reachBack(clusterId, id, { windowMs: checkWindow(request?.windowMs) });
    return exportSkewReport(this.history, await this.reportCluster(clusterId), id, request, this.attachmentsOf(clusterId, id, request));
  }

  async incidentBundle(clusterId: string, jobId: string, request: IncidentBundleRequest) {
    const id = requireId(jobId, 'job');
    // The window checked before the store is read for it.
    await this.windows.reachBack(clusterId, id, { windowMs: checkWindow(request?.windowMs) });
    const cluster = await this.reportCluster(clusterId);
    const client = this.registry.connection(clusterId).client;
    // What the cluster still knows of the job goes in too; a cluster gone leaves the recording only.
    const [jobGraph, exceptions] = await Promise.all([fetchJobGraph(client, clusterId, id).catch(() => null), fetchJobExceptions(client, clusterId, id).catch(() => null)]);
    const journal = this.journal.list({ clusterId, jobId: id, limit: 1000 }).map(publicEntry);
    return saveIncidentBundle(this.history, cluster, id, request, { savedBy: this.savedBy, jobGraph, exceptions, journal }, this.attachmentsOf(clusterId, id, request));
  }

  /** The finding's subtask's flame graph and log lines, from the cluster now (the local engine has no flame graphs to turn on). */
  private attachmentsOf(clusterId: string, jobId: string, request: ExportAttachmentsRequest): AttachmentsOf {
    const flameGraphOffSentence = this.registry.isBuiltIn(clusterId) ? LOCAL_ENGINE_NO_FLAME_GRAPH : undefined;
    return (finding) => fetchAttachments(this.registry.connection(clusterId).client, clusterId, jobId, finding, request, { flameGraphOffSentence });
  }

  /** What a report says of its cluster; the Flink version when the cluster answers (a recording's may not). */
  private async reportCluster(clusterId: string): Promise<ReportCluster> {
    const cluster = this.registry.find(clusterId);
    const check = await this.registry.connection(clusterId).check().catch(() => null);
    return { id: clusterId, name: cluster.name, url: cluster.url, flinkVersion: check?.flinkVersion ?? null };
  }
}
