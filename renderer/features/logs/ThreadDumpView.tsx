import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { ThreadDumpView as ThreadDump, ThreadView } from '../../../engine/contracts/logs';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { useLogsApi } from './api';

function threads(n: number): string {
  return `${n} thread${n === 1 ? '' : 's'}`;
}

/** A thread matches the filter by its name or any line of its stack, case-insensitive. */
export function threadMatches(thread: ThreadView, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  return needle === '' || thread.name.toLowerCase().includes(needle) || thread.stack.toLowerCase().includes(needle);
}

/**
 * A fresh thread dump of the process, grouped by state, the task threads marked with their subtask and listed first;
 * the filter keeps the threads whose name or stack has the text. Taken when opened and when asked, never polled.
 */
export function ThreadDumpView({ clusterId, processId, task }: { clusterId: string; processId: string; task: string | null }): ReactNode {
  const api = useLogsApi();
  const [dump, setDump] = useState<ThreadDump | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(false);
  const [filter, setFilter] = useState(task ?? '');

  const take = useCallback(() => {
    setLoading(true);
    void api.threadDump(clusterId, processId).then(
      (d) => {
        setDump(d);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        setError(toErrorInfo(e));
        setLoading(false);
      },
    );
  }, [api, clusterId, processId]);
  useEffect(take, [take]);

  const groups = (dump?.groups ?? []).map((g) => ({ state: g.state, threads: g.threads.filter((t) => threadMatches(t, filter)) })).filter((g) => g.threads.length > 0);
  const shownCount = groups.reduce((n, g) => n + g.threads.length, 0);
  return (
    <div className="thread-dump" data-testid={testIds.logs.threadDump}>
      <div className="table-toolbar">
        <button type="button" className="button button--small" disabled={loading} onClick={take}>
          {loading ? 'Taking a thread dump…' : 'Take a new thread dump'}
        </button>
        <input type="search" className="search" placeholder="Filter threads: name or stack" aria-label="Filter threads" value={filter} onChange={(event) => setFilter(event.target.value)} data-testid={testIds.logs.threadFilter} />
        {dump ? (
          <span className="muted small" data-testid={testIds.logs.threadCount}>
            {shownCount === dump.threadCount ? threads(dump.threadCount) : `${shownCount} of ${threads(dump.threadCount)}`}, {dump.taskThreadCount} task {dump.taskThreadCount === 1 ? 'thread' : 'threads'} · taken {formatTimestamp(dump.fetchedAt)}
          </span>
        ) : null}
      </div>
      {error ? <ErrorBanner error={error} context="The thread dump failed" /> : null}
      {dump?.note ? <p className="hint">{dump.note}</p> : null}
      {groups.map((group) => (
        <section key={group.state} className="thread-group" data-testid={testIds.logs.threadGroup(group.state)}>
          <h3 className="thread-group__title">
            {group.state} <span className="muted">({group.threads.length})</span>
          </h3>
          {group.threads.map((thread, i) => (
            <details
              key={`${thread.name}/${thread.id ?? i}`}
              className={`thread${thread.task?.role === 'task' ? ' thread--task' : ''}`}
              open={task !== null && thread.name === task}
              data-testid={thread.task?.role === 'task' ? testIds.logs.taskThread : testIds.logs.thread}
            >
              <summary>
                <span className="mono small">{thread.name}</span>
                {thread.task ? (
                  <span className="badge thread__task" title={thread.task.role === 'task' ? "A task's thread: Flink names it after its subtask" : 'A thread working for a task (its name ends with the task\'s)'}>
                    {thread.task.role === 'task' ? 'task' : 'helper'} · subtask {thread.task.subtaskIndex} of {thread.task.parallelism}
                    {thread.task.attempt > 0 ? ` · attempt ${thread.task.attempt}` : ''}
                  </span>
                ) : null}
                {thread.lockName ? <span className="muted small"> on {thread.lockName}</span> : null}
              </summary>
              <pre className="thread__stack">{thread.stack}</pre>
            </details>
          ))}
        </section>
      ))}
    </div>
  );
}
