import { ApplicationLink } from '../applications/ApplicationLink';
import { useCallback, useState, type ReactNode } from 'react';
import type { Finding, JobDiagnosis } from '../../../engine/contracts/diagnosis';
import type { RecordedJobGraph } from '../../../engine/contracts/history';
import type { JobGraph } from '../../../engine/contracts/jobs';
import { useClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { isNotFound } from '../../components/errors';
import { formatBytes, formatDuration, formatMillis } from '../../components/format';
import { Freshness } from '../../components/Freshness';
import { RefreshControl } from '../../components/RefreshControl';
import { StateBadge } from '../../components/StateBadge';
import { useNow } from '../../components/useNow';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { RecordingBanner } from '../history/RecordingBanner';
import { WatchToggle } from '../history/WatchToggle';
import { liveDuration } from '../jobs/jobs';
import { useClusterFloor } from '../overview/useClusterFloor';
import { evidenceOf } from '../diagnosis/evidence';
import { FindingBanner } from '../diagnosis/FindingBanner';
import { LogsPanel } from '../logs/LogsPanel';
import { useFindingLog } from '../logs/useFindingLog';
import { AdvicePanel, type AdviceRequest } from '../advice/AdvicePanel';
import { ExportSubtasksButton } from '../exports/ExportSubtasksButton';
import { ExportReportMenu } from '../exports/ExportReportMenu';
import { JOB_TABS } from './jobTabs';
import { JobTabs } from './JobTabs';
import { notRunningNotice } from './notRunning';
import { prepareLayout } from './elkLayout';
import { useJobsApi } from '../jobs/api';
import { useHistoryApi } from '../history/api';
import { useDiagnosisApi } from '../diagnosis/api';

/** Starts what the page's first graph needs before the page is shown (the layout worker). */
export function prepareJobPage(): void {
  prepareLayout();
}

export interface JobPageProps {
  clusterId: string;
  clusterName: string | null;
  jobId: string;
  vertexId: string | null;
  /** The selected tab; null = the graph. */
  tab: string | null;
  /** The subtasks table's sort column and a marked subtask, from the URL (the evidence of a finding). */
  sort?: string | null;
  subtask?: number | null;
  /** A journal entry to mark (the Operations tab), from the URL. */
  entry?: string | null;
  onNavigate: (route: Route, options?: { replace?: boolean }) => void;
}

/**
 * One job: header, the diagnosis in one sentence, and tabs (graph, skew, metrics over time, checkpoints, ...). When the
 * cluster no longer has the job, or does not answer, the page shows the console's recording of it instead, and says so.
 */
export function JobPage({ clusterId, clusterName, jobId, vertexId, tab, sort = null, subtask = null, entry = null, onNavigate }: JobPageProps): ReactNode {
  const jobsApi = useJobsApi();
  const historyApi = useHistoryApi();
  const diagnosisApi = useDiagnosisApi();
  const refresh = useClusterRefresh(clusterId);
  useClusterFloor(clusterId, refresh.minMs);
  const poll = usePolling<JobGraph>(() => jobsApi.graph(clusterId, jobId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const gone = isNotFound(poll.error);
  // The recording is asked for only when the cluster cannot give the job (it forgot it, or does not answer).
  const wantRecording = gone || (poll.error != null && poll.data == null);
  const recordingPoll = usePolling<RecordedJobGraph | null>(
    () => (wantRecording ? historyApi.recordedJob(clusterId, jobId) : Promise.resolve(null)),
    wantRecording ? refresh.intervalMs : null,
    { key: `${clusterId}/${jobId}/${wantRecording}`, paused: refresh.paused, refreshSignal: refresh.refreshSignal },
  );
  const recording = wantRecording ? (recordingPoll.data ?? null) : null;
  const recorded = recording != null && (gone || poll.data == null);
  const graph = recorded ? recording.graph : (poll.data ?? null);
  // The diagnosis reads the history the engine keeps while this page is open: no extra request to the cluster.
  const [windowMs, setWindowMs] = useState(60_000);
  const diagnosisPoll = usePolling<JobDiagnosis>(() => diagnosisApi.diagnose(clusterId, jobId, windowMs), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${windowMs}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  // "Show the evidence": the graph tab, the finding's vertex marked, its subtasks sorted by the proving metric.
  const onShowEvidence = useCallback(
    (f: Finding) => {
      const evidence = evidenceOf(f);
      if (evidence) onNavigate({ page: 'job', clusterId, jobId, ...evidence }, { replace: true });
    },
    [onNavigate, clusterId, jobId],
  );
  // Why that subtask is busy: Flink's flame graph of it, on the Inspect tab.
  const onShowFlameGraph = useCallback(
    (f: Finding) => {
      if (f.vertexId && f.subtasks.length > 0) onNavigate({ page: 'job', clusterId, jobId, vertexId: f.vertexId, tab: 'inspect', subtask: f.subtasks[0].subtask }, { replace: true });
    },
    [onNavigate, clusterId, jobId],
  );
  // The finding's subtask, one click from the sentence: its TaskManager's log filtered to its task, or its thread.
  const findingLog = useFindingLog(jobsApi, clusterId, jobId);
  // The Advice panel, opened from the skew finding, the Skew tab (with the key the lookup found) or a Kafka hot key (and its rate).
  const [adviceRequest, setAdviceRequest] = useState<AdviceRequest | null>(null);
  const onOpenAdvice = useCallback(
    (key: string | null, measured?: { rate: number; vertexId: string | null }) =>
      setAdviceRequest((r) => ({ key, nonce: (r?.nonce ?? 0) + 1, ...(measured ? { rate: measured.rate, ...(measured.vertexId ? { vertexId: measured.vertexId } : {}) } : {}) })),
    [],
  );
  const onAdviseFromFinding = useCallback(() => onOpenAdvice(null), [onOpenAdvice]);
  const jobsHref = hrefFor({ page: 'cluster', clusterId });

  // A job that does not run says so above every tab, with the way to why it stopped.
  const notice = graph && !recorded ? notRunningNotice(graph.state, graph.endTime) : null;
  const exceptionsHref = hrefFor({ page: 'job', clusterId, jobId, vertexId, tab: 'exceptions' });

  const onSelectTab = useCallback(
    (id: string) => onNavigate({ page: 'job', clusterId, jobId, vertexId, ...(id === JOB_TABS[0].id ? {} : { tab: id }) }, { replace: true }),
    [onNavigate, clusterId, jobId, vertexId],
  );

  return (
    <div className="job-page" data-testid={testIds.jobGraph.page}>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={jobsHref}>← {clusterName ?? clusterId}: all jobs</a>
      </nav>
      <header className="job-header" data-testid={testIds.jobGraph.header}>
        <div className="job-header__title">
          <h1 className="page-title" data-testid={testIds.jobGraph.name} title={graph?.name ?? jobId}>
            {graph?.name ?? (gone ? 'Job not found' : 'Loading job…')}
          </h1>
          {recorded ? <span className="muted small">last seen</span> : null}
          {graph ? <StateBadge state={graph.state} testId={testIds.jobGraph.state} /> : null}
          {recorded ? <span className="badge badge--pending">Recording</span> : null}
          {graph && !recorded ? <ExportSubtasksButton clusterId={clusterId} jobId={jobId} /> : null}
          {graph ? <ExportReportMenu clusterId={clusterId} jobId={jobId} windowMs={windowMs} /> : null}
        </div>
        <div className="job-header__facts">
          <code className="mono small" title="Job ID">
            {jobId}
          </code>
          {graph && !recorded ? <ApplicationLink clusterId={clusterId} jobId={jobId} /> : null}
          {graph && !recorded ? <JobFacts graph={graph} fetchedAt={poll.updatedAt} refreshMs={poll.durationMs} /> : null}
          {!recorded ? <Freshness updatedAt={poll.updatedAt} loading={poll.loading} stale={poll.stale} /> : null}
        </div>
        <div className="job-header__actions">
          <WatchToggle clusterId={clusterId} jobId={jobId} jobName={graph?.name ?? null} disabled={gone || recorded} />
          <RefreshControl refresh={refresh} />
        </div>
      </header>

      {recorded ? (
        <RecordingBanner recording={recording.recording} gone={gone} error={poll.error} jobsHref={jobsHref} />
      ) : gone ? (
        <section className="panel not-found" role="alert" data-testid={testIds.jobGraph.notFound}>
          <h2>This job is no longer on the cluster</h2>
          <p>
            The cluster does not know job <code className="mono">{jobId}</code> (anymore). It may have finished and been
            archived, been cancelled and cleaned up, or the link points to another cluster.
          </p>
          {poll.error?.endpoint ? (
            <p className="muted small">
              {poll.error.message} <code>{poll.error.endpoint}</code>
            </p>
          ) : null}
          <a className="button button--primary" href={jobsHref}>
            Back to the jobs list
          </a>
          {graph ? <p className="muted small">The last known graph is shown below for reference.</p> : null}
        </section>
      ) : (
        <PollErrorBanner poll={poll} context="Refreshing the job graph failed" />
      )}

      {notice ? (
        <section className="job-not-running" role="status" data-testid={testIds.jobGraph.notRunning} data-state={graph?.state}>
          <strong>{notice.headline}</strong> {notice.detail}
          {notice.seeExceptions && tab !== 'exceptions' ? (
            <>
              {' '}
              <a href={exceptionsHref}>See the exceptions for why.</a>
            </>
          ) : null}
        </section>
      ) : null}

      {gone && !recorded ? null : (
        <ErrorBoundary panel="The diagnosis" resetKey={`${clusterId}/${jobId}`}>
          <FindingBanner poll={diagnosisPoll} windowMs={windowMs} onWindowChange={setWindowMs} onShowEvidence={onShowEvidence} onShowFlameGraph={onShowFlameGraph} onOpenLog={recorded ? undefined : findingLog.open} onAdvise={recorded ? undefined : onAdviseFromFinding} />
        </ErrorBoundary>
      )}

      {findingLog.problem ? (
        <p className="notice notice--warning" role="alert" data-testid={testIds.diagnosis.subtaskLogProblem}>
          {findingLog.problem}
        </p>
      ) : null}
      {findingLog.target && !recorded ? (
        <ErrorBoundary panel="The logs" resetKey={`${findingLog.target.processId}/${findingLog.target.task}/${findingLog.target.tab}`}>
          <LogsPanel
            key={`${findingLog.target.processId}/${findingLog.target.task}/${findingLog.target.tab}`}
            clusterId={clusterId}
            processId={findingLog.target.processId}
            task={findingLog.target.task}
            initialTab={findingLog.target.tab}
            onClose={findingLog.close}
          />
        </ErrorBoundary>
      ) : null}

      {adviceRequest && !gone && !recorded ? (
        <ErrorBoundary panel="The advice" resetKey={`${clusterId}/${jobId}`}>
          <AdvicePanel clusterId={clusterId} jobId={jobId} diagnosis={diagnosisPoll.data ?? null} request={adviceRequest} onClose={() => setAdviceRequest(null)} />
        </ErrorBoundary>
      ) : null}

      <JobTabs
        tabs={JOB_TABS}
        active={tab ?? JOB_TABS[0].id}
        onSelect={onSelectTab}
        props={{
          clusterId,
          jobId,
          vertexId,
          graph,
          recorded,
          stale: poll.stale && !recorded,
          failed: graph == null && poll.error != null && !recordingPoll.loading,
          refresh,
          onNavigate,
          sort,
          subtask,
          entry,
          diagnosis: diagnosisPoll.data ?? null,
          windowMs,
          onOpenAdvice: recorded ? undefined : onOpenAdvice,
        }}
      />
    </div>
  );
}

function JobFacts({ graph, fetchedAt, refreshMs }: { graph: JobGraph; fetchedAt: number | null; refreshMs: number | null }): ReactNode {
  const now = useNow();
  const duration = liveDuration({ durationMs: graph.durationMs, endTime: null, state: graph.state }, fetchedAt, now);
  const failedMetrics = graph.vertices.filter((v) => v.metricsUnavailable !== undefined && v.metricsFetchedAt === undefined).length;
  return (
    <>
      <span>
        Duration <strong data-testid={testIds.jobGraph.duration}>{formatDuration(duration)}</strong>
      </span>
      <span>
        {graph.vertices.length} vertices
        {graph.maxParallelism != null ? ` · max parallelism ${graph.maxParallelism}` : ''}
      </span>
      <span title="This refresh's cost: REST requests the engine made to the cluster, what they answered, and how long the refresh took" data-testid={testIds.jobGraph.refreshCost}>
        <strong data-testid={testIds.jobGraph.requestCount}>{graph.requestCount}</strong> requests
        {graph.responseBytes != null ? ` · ${formatBytes(graph.responseBytes)}` : ''}
        {refreshMs != null ? ` · ${formatMillis(refreshMs)}` : ''} this refresh
      </span>
      {graph.metricsSampling ? (
        <span
          data-testid={testIds.jobGraph.metricsSampling}
          title={`A refresh asks metrics for at most ${graph.metricsSampling.maxPerRefresh} vertices; the others show their latest sample until their turn.`}
        >
          metrics sampled for {graph.metricsSampling.sampled} of {graph.metricsSampling.of} vertices, in turns
        </span>
      ) : null}
      {failedMetrics > 0 ? (
        <span className="job-facts__warning" data-testid={testIds.jobGraph.metricsUnavailableCount} title="Their metrics request failed this refresh; hover a vertex for why">
          ⚠ {failedMetrics} {failedMetrics === 1 ? 'vertex' : 'vertices'} without metrics
        </span>
      ) : null}
    </>
  );
}
