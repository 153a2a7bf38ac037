import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry, JournalFilter, OperationKind, OperationState } from '../../../engine/contracts/operations';
import { flinkSpelling } from '../../../engine/contracts/flink-path';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { hrefFor } from '../../app/useHashRoute';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatDuration, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { saveExport } from './download';
import { BeforeAfterView, hasBeforeAfter } from './BeforeAfterView';
import { RescaleOutcomeView } from './RescaleOutcomeView';
import { isOpen, KIND_LABEL, STATE_LABEL, stateTone, summary } from './operations';
import { useOperationsApi } from './api';

/** A marked entry comes into view once, when its row first renders (module-level: the same ref every render). */
const scrollIntoView = (row: HTMLTableRowElement | null): void => row?.scrollIntoView?.({ block: 'center' });

/** The operations journal of a job or a cluster: filterable, exportable as CSV or JSON. */
export function JournalPanel({
  clusterId,
  jobId,
  refresh,
  reloadSignal = 0,
  markedEntry = null,
}: {
  clusterId: string;
  jobId?: string;
  refresh: ClusterRefresh;
  /** Bumped when an operation started or moved on here: read the journal now. */
  reloadSignal?: number;
  /** An entry to mark and scroll to (a link from the Rescales tab). */
  markedEntry?: string | null;
}): ReactNode {
  const operationsApi = useOperationsApi();
  const [kind, setKind] = useState<OperationKind | ''>('');
  const [state, setState] = useState<OperationState | ''>('');
  const [text, setText] = useState('');
  const [exportError, setExportError] = useState<ErrorInfo | null>(null);
  const filter: JournalFilter = { clusterId, ...(jobId ? { jobId } : {}), ...(kind ? { kind } : {}), ...(state ? { state } : {}), ...(text.trim() ? { text: text.trim() } : {}) };
  const poll = usePolling<JournalEntry[]>(() => operationsApi.journal(filter), refresh.intervalMs === null ? null : Math.min(refresh.intervalMs, 5_000), {
    key: JSON.stringify(filter),
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal + reloadSignal,
  });

  const onExport = async (format: 'csv' | 'json') => {
    setExportError(null);
    try {
      saveExport(await operationsApi.exportJournal(filter, format));
    } catch (e) {
      setExportError(toErrorInfo(e));
    }
  };

  return (
    <Panel
      title={jobId ? 'Journal of this job' : 'Operations journal'}
      poll={poll}
      testId={testIds.operations.journal}
      actions={
        <>
          <button type="button" className="button button--tiny" onClick={() => void onExport('csv')}>
            Export CSV
          </button>
          <button type="button" className="button button--tiny" onClick={() => void onExport('json')}>
            Export JSON
          </button>
        </>
      }
    >
      <div className="journal-filters" role="search">
        <select aria-label="Kind" className="select" value={kind} onChange={(e) => setKind(e.target.value as OperationKind | '')}>
          <option value="">every kind</option>
          {Object.entries(KIND_LABEL).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
        <select aria-label="State" className="select" value={state} onChange={(e) => setState(e.target.value as OperationState | '')}>
          <option value="">every state</option>
          {Object.entries(STATE_LABEL).map(([s, label]) => (
            <option key={s} value={s}>
              {label}
            </option>
          ))}
        </select>
        <input className="search" aria-label="Search the journal" placeholder="Search: path, job, trigger id, failure…" value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <PollErrorBanner poll={poll} context="Reading the journal failed" />
      {exportError ? <ErrorBanner error={exportError} context="Export failed" /> : null}
      {poll.data && poll.data.length === 0 ? <p className="muted">No operations{jobId ? ' of this job' : ''} yet{kind || state || text ? ' that match' : ''}.</p> : null}
      {poll.data && poll.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table journal-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Operation</th>
                <th scope="col">State</th>
                {jobId ? null : <th scope="col">Job</th>}
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Took
                </th>
                <th scope="col">Trigger id</th>
              </tr>
            </thead>
            <tbody>
              {poll.data.map((e) => (
                <tr
                  key={e.id}
                  ref={e.id === markedEntry ? scrollIntoView : undefined}
                  className={e.id === markedEntry ? 'is-marked' : undefined}
                  aria-current={e.id === markedEntry ? 'true' : undefined}
                  data-testid={testIds.operations.journalRow(e.id)}
                  data-state={e.state}
                  data-marked={e.id === markedEntry ? 'true' : undefined}
                >
                  <td className="nowrap">{formatTimestamp(e.createdAt)}</td>
                  <td>
                    {KIND_LABEL[e.kind]}
                    {e.parentId ? <span className="muted small"> (step of a rescale)</span> : null}
                    <div className="muted small">{describeParams(e)}</div>
                  </td>
                  <td>
                    <span className={`badge badge--${stateTone(e.state)}`}>{STATE_LABEL[e.state]}</span>
                  </td>
                  {jobId ? null : (
                    <td>
                      {e.jobId ? (
                        <a href={hrefFor({ page: 'job', clusterId: e.clusterId, jobId: e.jobId, vertexId: null })}>{e.jobName ?? e.jobId.slice(0, 8)}</a>
                      ) : (
                        '—'
                      )}
                    </td>
                  )}
                  <td className="journal-table__outcome">
                    {summary(e)}
                    {e.kind === 'rescale' && e.state === 'succeeded' && e.plan?.vertices.length ? <RescaleOutcomeView entry={e} /> : null}
                    {hasBeforeAfter(e) ? <BeforeAfterView entry={e} auto={false} /> : null}
                  </td>
                  <td className="num">{isOpen(e) ? '…' : formatDuration((e.finishedAt ?? e.updatedAt) - e.createdAt)}</td>
                  <td>
                    <code className="mono small">{e.id}</code>
                    <div className="muted small">from the {e.origin === 'cli' ? 'CLI' : 'app'}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}

function describeParams(e: JournalEntry): string {
  const p = e.params;
  const parts: string[] = [];
  // Folders as Flink spells them (file:/…), like the savepoint paths beside them.
  if (p.targetDirectory) parts.push(`into ${flinkSpelling(p.targetDirectory)}`);
  if (p.format) parts.push(p.format);
  if (p.drain) parts.push('drain');
  if (p.parallelism) parts.push(`parallelism ${[...new Set(Object.values(p.parallelism))].join('/')}`);
  if (p.route) parts.push(p.route === 'adaptive' ? 'in place' : 'through a savepoint');
  if (e.kind === 'resubmit' && p.jobParallelism) parts.push(`parallelism ${p.jobParallelism}`);
  if (p.savepointPath) parts.push(`from ${flinkSpelling(p.savepointPath)}`);
  return parts.join(' · ');
}
