import { memo, useDeferredValue, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/jobs';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { formatMillis } from '../../components/format';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL } from '../job-graph/colors';
import { filterSubtasks } from './filterSubtasks';
import { defaultDirection, nextSort, sortSubtasks, type SubtaskColumn, type SubtaskSort } from './sortSubtasks';
import type { SubtaskTableRow } from './subtaskColumns';
import { EMPTY_SUBTASK_TABLE, nextSubtaskTable, sameDayNow, type SubtaskTable } from './subtaskRows';
import { SubtasksTable } from './SubtasksTable';
import { useJobsApi } from '../jobs/api';
import { LogsPanel } from '../logs/LogsPanel';
import { taskName } from '../../../engine/contracts/logs';
import { SubtaskLogLink } from '../logs/subtaskLogLink';

/**
 * A vertex's subtasks, polled while open; closing the panel unmounts it and its polling stops. Memoized: the job page
 * re-renders on each of its polls' start and end, the table only on its own refreshes (and new props).
 */
export const SubtasksPanel = memo(function SubtasksPanel({
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
  const jobsApi = useJobsApi();
  // Each answer becomes the table's rows as it arrives (see nextSubtaskTable): the poll keeps the rows, not the answer.
  const table = useRef<SubtaskTable>(EMPTY_SUBTASK_TABLE);
  const fetchRows = async (): Promise<SubtasksRefresh> => {
    const answer = await jobsApi.subtasks(clusterId, jobId, vertexId);
    table.current = nextSubtaskTable(table.current, answer);
    const { subtasks, ...vertex } = answer;
    return { ...vertex, count: subtasks.length, rows: table.current.rows };
  };
  const poll = usePolling<SubtasksRefresh>(fetchRows, refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${vertexId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const [sort, setSort] = useState<SubtaskSort>(initialSort ? { column: initialSort, direction: defaultDirection(initialSort) } : { column: 'index', direction: 'asc' });
  const [query, setQuery] = useState('');
  // Typing stays responsive: the filter over 4,096 rows runs at a lower priority than the keystroke.
  const deferredQuery = useDeferredValue(query);
  const rows = useSortedRows(poll.data?.rows ?? null, sort, deferredQuery);
  const name = poll.data?.name ?? vertexName ?? vertexId;
  // A subtask's TaskManager log, filtered to its task's lines: opened from its row.
  const [logOf, setLogOf] = useState<{ taskManagerId: string; task: string } | null>(null);
  const parallelism = poll.data?.parallelism ?? null;
  const openLog = useMemo(
    () => (row: SubtaskRow) => {
      if (row.taskManagerId && parallelism !== null) setLogOf({ taskManagerId: row.taskManagerId, task: taskName(name, row.index, parallelism, row.attempt) });
    },
    [name, parallelism],
  );
  const dayRef = useRef<number | null>(null);
  dayRef.current = poll.data ? sameDayNow(dayRef.current, poll.data.fetchedAt) : dayRef.current;

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
          {poll.data ? (
            <span className="muted small" title="This refresh's cost: REST requests to the cluster, and how long it took">
              {poll.data.requestCount} requests{poll.durationMs != null ? ` · ${formatMillis(poll.durationMs)}` : ''} this refresh
            </span>
          ) : null}
          <button type="button" className="button button--small" onClick={onClose} aria-label="Close subtasks">
            Close
          </button>
        </>
      }
    >
      <PollErrorBanner poll={poll} context={isNotFound(poll.error) ? 'This vertex is no longer part of the job' : 'Loading the subtasks failed'} />
      {rows == null && !poll.error ? <p className="muted">Loading subtasks…</p> : null}
      {rows != null && poll.data ? (
        <>
          <div className="table-toolbar">
            <input
              type="search"
              className="search table-toolbar__filter"
              placeholder="Filter: subtask index, status, BP level, host or TaskManager"
              aria-label="Filter subtasks"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            <span className="muted small" data-testid={testIds.subtasks.count}>
              {rows.length === poll.data.count ? `${rows.length} subtasks` : `${rows.length} of ${poll.data.count} subtasks`}
            </span>
          </div>
          <SubtaskLogLink.Provider value={openLog}>
            <SubtasksTable rows={rows} sort={sort} onSort={(column) => setSort((s) => nextSort(s, column))} now={dayRef.current ?? poll.data.fetchedAt} stale={poll.stale} markedSubtask={markedSubtask} />
          </SubtaskLogLink.Provider>
        </>
      ) : null}
      {logOf ? <LogsPanel key={`${logOf.taskManagerId}/${logOf.task}`} clusterId={clusterId} processId={logOf.taskManagerId} task={logOf.task} onClose={() => setLogOf(null)} /> : null}
    </Panel>
  );
});

/** A refresh as the panel keeps it: the answer's figures about the vertex, and its subtasks as the table's rows. */
type SubtasksRefresh = Omit<VertexSubtasks, 'subtasks'> & { count: number; rows: readonly SubtaskTableRow[] };

/**
 * The rows the table shows, filtered and sorted; the rows themselves are made as each refresh arrives, with their
 * rates, unchanged rows kept as they were (subtaskRows.ts). Memoized: a re-render that is not a refresh, a new sort or
 * a new filter costs nothing here. A refresh of 4,096 rows takes some 3 ms of CPU (rates, rows and a sort by busy,
 * measured in Node on the bench's mixed job; 30 ms before each step matched rows by position and made rows without a
 * spread), so it needs no worker and no slicing.
 */
function useSortedRows(rows: readonly SubtaskTableRow[] | null, sort: SubtaskSort, query: string): readonly SubtaskTableRow[] | null {
  const sorted = useMemo(() => (rows ? sortSubtasks(rows, sort) : null), [rows, sort]);
  return useMemo(() => (sorted ? filterSubtasks(sorted, query) : null), [sorted, query]);
}
