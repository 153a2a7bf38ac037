import type { ReactNode } from 'react';
import type { JobRescale, JobRescales, RescaleDurations, RescalesSummary } from '../../../engine/contracts/jobs';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { formatDuration, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useJobsApi } from '../jobs/api';
import { configSentence, parallelismChange, slotsChange, stateTone, TRIGGER_LABEL } from './rescales';

/**
 * The adaptive scheduler's record of a job's rescales (Flink 2.3+): the history newest first (what triggered each,
 * how it ended and why, how long it took, each vertex's parallelism and the slots before and after), the summary,
 * and the settings that make a rescale wait. The console's own rescales link to their journal entries. Without a
 * history on the cluster: why, and how to turn it on. Polled only while the tab is open.
 */
export function RescalesPanel({ clusterId, jobId, refresh }: { clusterId: string; jobId: string; refresh: ClusterRefresh }): ReactNode {
  const jobsApi = useJobsApi();
  const poll = usePolling<JobRescales>(() => jobsApi.rescales(clusterId, jobId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/rescales`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const view = poll.data;
  const journalHref = (entryId: string) => hrefFor({ page: 'job', clusterId, jobId, vertexId: null, tab: 'operations', entry: entryId });

  return (
    <Panel title="Rescales" poll={poll} testId={testIds.rescales.panel} className="rescales-panel">
      <PollErrorBanner poll={poll} context="Loading the rescale history failed" />
      {view == null && !poll.error ? <p className="muted">Loading the rescale history…</p> : null}
      {view && !view.available ? (
        <p className="empty" data-testid={testIds.rescales.unavailable}>
          {view.why}
        </p>
      ) : null}
      {view?.available ? (
        <div className={poll.stale ? 'is-stale' : undefined}>
          <p className="muted" data-testid={testIds.rescales.config}>
            {configSentence(view.config)}
          </p>
          <SummaryTable summary={view.summary} />
          <HistoryTable rescales={view.rescales} journalHref={journalHref} />
          {view.unmatchedJournalEntryIds.length > 0 ? (
            <p className="muted small" data-testid={testIds.rescales.unmatched}>
              Rescales of the console no longer in Flink&apos;s history:{' '}
              {view.unmatchedJournalEntryIds.map((id, i) => (
                <span key={id}>
                  {i > 0 ? ', ' : ''}
                  <a href={journalHref(id)}>{id.slice(0, 8)}</a>
                </span>
              ))}
              .
            </p>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}

const KINDS: Array<{ key: keyof RescalesSummary['durations']; label: string; count: (c: RescalesSummary['counts']) => number }> = [
  { key: 'completed', label: 'Completed', count: (c) => c.completed },
  { key: 'ignored', label: 'Ignored', count: (c) => c.ignored },
  { key: 'failed', label: 'Failed', count: (c) => c.failed },
  { key: 'all', label: 'All', count: (c) => c.completed + c.ignored + c.failed + c.inProgress },
];

const FIGURES: Array<{ key: keyof RescaleDurations; label: string }> = [
  { key: 'min', label: 'Min' },
  { key: 'p50', label: 'Median' },
  { key: 'p90', label: 'p90' },
  { key: 'p99', label: 'p99' },
  { key: 'max', label: 'Max' },
];

function SummaryTable({ summary }: { summary: RescalesSummary }): ReactNode {
  return (
    <div className="table-wrap" data-testid={testIds.rescales.summary}>
      <table className="table table--compact">
        <caption className="muted small">
          How long rescales took{summary.counts.inProgress > 0 ? ` (${summary.counts.inProgress} in progress)` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Rescales</th>
            <th scope="col" className="num">
              Count
            </th>
            {FIGURES.map((f) => (
              <th key={f.key} scope="col" className="num">
                {f.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {KINDS.map((kind) => (
            <tr key={kind.key} data-kind={kind.key}>
              <th scope="row">{kind.label}</th>
              <td className="num">{kind.count(summary.counts)}</td>
              {FIGURES.map((f) => (
                <td key={f.key} className="num">
                  {formatDuration(summary.durations[kind.key][f.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HistoryTable({ rescales, journalHref }: { rescales: JobRescale[]; journalHref: (entryId: string) => string }): ReactNode {
  if (rescales.length === 0) return <p className="empty">No rescales recorded for this job yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table rescales-table" data-testid={testIds.rescales.table}>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Trigger</th>
            <th scope="col">State</th>
            <th scope="col" className="num">
              Took
            </th>
            <th scope="col">Parallelism before → after</th>
            <th scope="col">Slots</th>
            <th scope="col">Journal</th>
          </tr>
        </thead>
        <tbody>
          {rescales.map((r) => (
            <tr key={r.rescaleUuid} data-testid={testIds.rescales.row(r.rescaleUuid)} data-state={r.terminalState ?? 'IN_PROGRESS'}>
              <td className="nowrap">
                {formatTimestamp(r.startedAt)}
                <div className="muted small mono" title="Flink's rescale UUID">
                  {r.rescaleUuid}
                </div>
              </td>
              <td>{r.triggerCause ? (TRIGGER_LABEL[r.triggerCause] ?? r.triggerCause) : '—'}</td>
              <td>
                <span className={`badge badge--${stateTone(r.terminalState)}`}>{r.terminalState ?? 'IN PROGRESS'}</span>
                <div className="muted small">{r.words}</div>
                {r.exception ? <div className="small">{r.exception.split('\n')[0]}</div> : null}
              </td>
              <td className="num">{formatDuration(r.durationMs)}</td>
              <td>
                {r.detailed ? (
                  <ul className="plain-list small">
                    {r.vertices.map((v) => (
                      <li key={v.vertexId} data-testid={testIds.rescales.vertex(r.rescaleUuid, v.vertexId)} data-before={v.before ?? ''} data-after={v.after ?? ''}>
                        {v.vertexName ?? v.vertexId}: {parallelismChange(v)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted small" title="Only the newest rescales are read in detail">
                    —
                  </span>
                )}
              </td>
              <td className="small">{r.detailed && r.slots.length > 0 ? r.slots.map((s) => `${s.slotSharingGroup}: ${slotsChange(s)}`).join('; ') : '—'}</td>
              <td>
                {r.journalEntryId ? (
                  <a href={journalHref(r.journalEntryId)} data-testid={testIds.rescales.journalLink(r.rescaleUuid)}>
                    the console&apos;s rescale
                  </a>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
