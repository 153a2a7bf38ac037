import { useMemo, useState, type ReactNode } from 'react';
import type { CheckpointView, JobCheckpoints, StatsSummary } from '../../../engine/contracts/history';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatBytes, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import type { JobTabProps } from '../job-graph/JobTabs';
import { CheckpointCharts } from './CheckpointCharts';
import { CheckpointDetailPanel } from './CheckpointDetailPanel';
import { checkpointChartRows, checkpointKey, checkpointKind, checkpointTone, formatMillis } from './checkpointFormat';
import { useHistoryApi } from '../history/api';

/** Checkpoints shown in the chart and table. */
const RECENT = 60;

/**
 * The Checkpoints tab: the job's recent checkpoints from the console's history (so they outlive a JobManager
 * failover and an app restart), Flink's own counts and summary beside them, the latest completed, failed and
 * restored checkpoint, and a checkpoint's detail on click.
 */
export function CheckpointsTab({ clusterId, jobId, refresh }: JobTabProps): ReactNode {
  const historyApi = useHistoryApi();
  const poll = usePolling<JobCheckpoints>(() => historyApi.checkpoints(clusterId, jobId, RECENT), refresh.intervalMs, {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const [selected, setSelected] = useState<{ id: number; triggerTimestamp: number } | null>(null);
  const data = poll.data;
  const rows = useMemo(() => checkpointChartRows(data?.checkpoints ?? []), [data]);
  const selectedKey = selected ? checkpointKey(selected) : null;
  const onSelect = (c: { id: number; triggerTimestamp: number }) => setSelected({ id: c.id, triggerTimestamp: c.triggerTimestamp });

  return (
    <div className="checkpoints-tab" data-testid={testIds.checkpoints.tab}>
      <Panel title="Checkpoints" poll={poll} actions={data ? <span className="muted small">{data.inHistory} in the console&apos;s history</span> : null}>
        <PollErrorBanner poll={poll} context="Reading the checkpoint history failed" />
        {!data && !poll.error ? <p className="muted">Loading checkpoints…</p> : null}
        {data ? <CheckpointFacts data={data} onSelect={onSelect} /> : null}
        {data && data.checkpoints.length === 0 ? (
          <p className="empty" data-testid={testIds.checkpoints.empty}>
            {data.emptyReason ?? 'No checkpoints yet.'}
          </p>
        ) : null}
        {data && data.checkpoints.length > 0 ? (
          <div className="checkpoints-overview">
            <CheckpointCharts rows={rows} markers={data.markers} selectedKey={selectedKey} onSelect={onSelect} />
            {data.flink ? <SummaryTable summary={data.flink.summary} reportedAt={data.flink.reportedAt} /> : null}
          </div>
        ) : null}
      </Panel>
      {selected ? (
        <CheckpointDetailPanel key={selectedKey} clusterId={clusterId} jobId={jobId} checkpointId={selected.id} triggerTimestamp={selected.triggerTimestamp} refresh={refresh} onClose={() => setSelected(null)} />
      ) : null}
      {data && data.checkpoints.length > 0 ? <CheckpointTable checkpoints={data.checkpoints} selectedKey={selectedKey} onSelect={onSelect} /> : null}
    </div>
  );
}

function CheckpointFacts({ data, onSelect }: { data: JobCheckpoints; onSelect: (c: CheckpointView) => void }): ReactNode {
  const counts = data.flink?.counts;
  return (
    <div className="checkpoint-facts">
      <dl className="checkpoint-fact" data-testid={testIds.checkpoints.counts} title="As the JobManager reports them: they start over when it restarts the job">
        <dt>Counts (Flink)</dt>
        <dd>
          {counts ? (
            <>
              <span data-count="completed">{counts.completed} completed</span> · <span className={counts.failed > 0 ? 'text-danger' : undefined} data-count="failed">{counts.failed} failed</span> ·{' '}
              {counts.inProgress} in progress · {counts.restored} restored
            </>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <dl className="checkpoint-fact" data-testid={testIds.checkpoints.latestCompleted}>
        <dt>Latest completed</dt>
        <dd>{data.latestCompleted ? <LatestLink checkpoint={data.latestCompleted} onSelect={onSelect} detail={`${formatMillis(data.latestCompleted.endToEndDurationMs)} · ${formatBytes(data.latestCompleted.stateBytes)}`} /> : 'none yet'}</dd>
      </dl>
      <dl className="checkpoint-fact" data-testid={testIds.checkpoints.latestFailed}>
        <dt>Latest failed</dt>
        <dd>
          {data.latestFailed ? (
            <>
              <LatestLink checkpoint={data.latestFailed} onSelect={onSelect} detail={data.latestFailed.failureMessage ?? 'no message'} />
              {data.latestFailed.failureExplanation ? <p className="small checkpoint-fact__words">{data.latestFailed.failureExplanation}</p> : null}
            </>
          ) : (
            'none'
          )}
        </dd>
      </dl>
      <dl className="checkpoint-fact" data-testid={testIds.checkpoints.restored}>
        <dt>Restored</dt>
        <dd>
          {data.restored ? (
            <>
              {data.restored.isSavepoint ? 'savepoint' : 'checkpoint'} #{data.restored.id} at {formatTimestamp(data.restored.restoreTimestamp)}
              {data.restored.externalPath ? (
                <div className="mono small truncate-wide" title={data.restored.externalPath}>
                  {data.restored.externalPath}
                </div>
              ) : null}
            </>
          ) : (
            'not restored (started fresh)'
          )}
        </dd>
      </dl>
    </div>
  );
}

function LatestLink({ checkpoint, detail, onSelect }: { checkpoint: CheckpointView; detail: string; onSelect: (c: CheckpointView) => void }): ReactNode {
  return (
    <>
      <button type="button" className="link-button" onClick={() => onSelect(checkpoint)}>
        #{checkpoint.id}
      </button>{' '}
      {formatTimestamp(checkpoint.triggerTimestamp)} · {detail}
    </>
  );
}

/** Flink's summary rows, each with its unit. */
const SUMMARY: Array<[keyof NonNullable<JobCheckpoints['flink']>['summary'], string, (v: number | null) => string]> = [
  ['endToEndDurationMs', 'End-to-end duration', formatMillis],
  ['checkpointedBytes', 'Checkpointed size', formatBytes],
  ['stateBytes', 'Full size', formatBytes],
  ['processedBytes', 'Processed in-flight data', formatBytes],
  ['persistedBytes', 'Persisted in-flight data', formatBytes],
];

function SummaryTable({ summary, reportedAt }: { summary: NonNullable<JobCheckpoints['flink']>['summary']; reportedAt: number }): ReactNode {
  const cell = (stats: StatsSummary | null, key: keyof StatsSummary, format: (v: number | null) => string) => format(stats?.[key] ?? null);
  return (
    <div className="checkpoint-summary" data-testid={testIds.checkpoints.summary}>
      <table className="table">
        <caption className="small muted">Flink&apos;s summary as of {formatTimestamp(reportedAt)} (since the JobManager started the job)</caption>
        <thead>
          <tr>
            <th scope="col">Summary</th>
            <th scope="col" className="num">Min</th>
            <th scope="col" className="num">Avg</th>
            <th scope="col" className="num">Max</th>
            <th scope="col" className="num" title="99th percentile, where Flink gives it">p99</th>
          </tr>
        </thead>
        <tbody>
          {SUMMARY.map(([key, label, format]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td className="num">{cell(summary[key], 'min', format)}</td>
              <td className="num">{cell(summary[key], 'avg', format)}</td>
              <td className="num">{cell(summary[key], 'max', format)}</td>
              <td className="num">{cell(summary[key], 'p99', format)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CheckpointTable({ checkpoints, selectedKey, onSelect }: { checkpoints: CheckpointView[]; selectedKey: string | null; onSelect: (c: CheckpointView) => void }): ReactNode {
  const newestFirst = [...checkpoints].reverse();
  return (
    <Panel title="Recent checkpoints">
      <div className="table-wrap">
        <table className="table checkpoint-table" data-testid={testIds.checkpoints.table}>
          <thead>
            <tr>
              <th scope="col" className="num">ID</th>
              <th scope="col">Status</th>
              <th scope="col">Kind</th>
              <th scope="col">Triggered</th>
              <th scope="col" className="num">End-to-end</th>
              <th scope="col" className="num">Checkpointed</th>
              <th scope="col" className="num">Full size</th>
              <th scope="col" className="num" title="In-flight data processed during alignment">Processed</th>
              <th scope="col" className="num" title="In-flight data persisted (unaligned checkpoints)">Persisted</th>
              <th scope="col" className="num">Acknowledged</th>
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((c) => {
              const key = checkpointKey(c);
              return (
                <tr
                  key={key}
                  className={`clickable${key === selectedKey ? ' is-selected' : ''}`}
                  data-testid={testIds.checkpoints.row(c.id, c.triggerTimestamp)}
                  data-status={c.status}
                  onClick={() => onSelect(c)}
                >
                  <td className="num">
                    <button type="button" className="link-button" aria-label={`Open checkpoint ${c.id}`}>
                      {c.id}
                    </button>
                  </td>
                  <td>
                    <span className={`badge badge--checkpoint-${checkpointTone(c)}`} title={c.failureExplanation ?? c.failureMessage ?? undefined}>
                      {c.status.replace('_', ' ')}
                    </span>
                  </td>
                  <td className="nowrap">{checkpointKind(c)}</td>
                  <td className="nowrap">{formatTimestamp(c.triggerTimestamp)}</td>
                  <td className="num">{formatMillis(c.endToEndDurationMs)}</td>
                  <td className="num">{formatBytes(c.checkpointedBytes)}</td>
                  <td className="num">{formatBytes(c.stateBytes)}</td>
                  <td className="num">{formatBytes(c.processedBytes)}</td>
                  <td className="num">{formatBytes(c.persistedBytes)}</td>
                  <td className="num">
                    {c.numAcknowledgedSubtasks}/{c.numSubtasks}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
