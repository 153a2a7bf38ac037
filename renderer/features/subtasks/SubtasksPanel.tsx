import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { VertexSubtasks } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL } from '../job-graph/colors';
import { defaultDirection, nextSort, sortSubtasks, type SubtaskColumn, type SubtaskSort } from './sortSubtasks';
import type { SubtaskTableRow } from './subtaskColumns';
import { INITIAL_RATE_STATE, nextRateState, type RateState } from './subtaskRates';
import { SubtasksTable } from './SubtasksTable';

/** A vertex's subtasks, polled while open; closing the panel unmounts it and its polling stops. */
export function SubtasksPanel({
  clusterId,
  jobId,
  vertexId,
  vertexName,
  refresh,
  onClose,
  initialSort = null,
  markedSubtask = null,
}: {
  clusterId: string;
  jobId: string;
  vertexId: string;
  vertexName: string | null;
  refresh: ClusterRefresh;
  onClose: () => void;
  /** Opened as the evidence of a finding: sorted by the metric that proves it, worst first. */
  initialSort?: SubtaskColumn | null;
  /** A subtask to mark (and scroll to) in the table. */
  markedSubtask?: number | null;
}): ReactNode {
  const { api } = useEngine();
  const poll = usePolling<VertexSubtasks>(() => api.getVertexSubtasks(clusterId, jobId, vertexId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${vertexId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const [sort, setSort] = useState<SubtaskSort>(initialSort ? { column: initialSort, direction: defaultDirection(initialSort) } : { column: 'index', direction: 'asc' });
  const rows = useSubtaskTableRows(poll.data, sort);
  const name = poll.data?.name ?? vertexName ?? vertexId;

  return (
    <Panel
      className="subtasks-panel"
      testId={testIds.subtasks.panel}
      title={
        <>
          Subtasks of <span className="subtasks-panel__name" title={name}>{name}</span>
          {poll.data ? <span className="muted"> · parallelism {poll.data.parallelism}</span> : null}
          {poll.data?.backpressureLevel ? (
            <span className={`bp bp--${poll.data.backpressureLevel}`}> BP {BACKPRESSURE_LABEL[poll.data.backpressureLevel]}</span>
          ) : null}
        </>
      }
      poll={poll}
      actions={
        <>
          {poll.data ? <span className="muted small">{poll.data.requestCount} requests this refresh</span> : null}
          <button type="button" className="button button--small" onClick={onClose} aria-label="Close subtasks">
            Close
          </button>
        </>
      }
    >
      <PollErrorBanner poll={poll} context={isNotFound(poll.error) ? 'This vertex is no longer part of the job' : 'Loading the subtasks failed'} />
      {rows == null && !poll.error ? <p className="muted">Loading subtasks…</p> : null}
      {rows != null && poll.data ? (
        <div className={`table-wrap${poll.stale ? ' is-stale' : ''}`}>
          <SubtasksTable rows={rows} sort={sort} onSort={(column) => setSort((s) => nextSort(s, column))} now={poll.data.fetchedAt} markedSubtask={markedSubtask} />
        </div>
      ) : null}
    </Panel>
  );
}

/**
 * The rows the table shows: the latest refresh with each subtask's rates since the previous one (see subtaskRates.ts),
 * sorted. Rates are computed here, in the renderer, from two consecutive refreshes.
 */
function useSubtaskTableRows(data: VertexSubtasks | null, sort: SubtaskSort): SubtaskTableRow[] | null {
  const rateState = useRef<RateState>(INITIAL_RATE_STATE);
  const withRates = useMemo(() => {
    if (!data) return null;
    rateState.current = nextRateState(rateState.current, data);
    const rates = rateState.current.rates;
    return data.subtasks.map((row): SubtaskTableRow => ({ ...row, rates: rates.get(row.index) ?? null }));
  }, [data]);
  return useMemo(() => (withRates ? sortSubtasks(withRates, sort) : null), [withRates, sort]);
}
