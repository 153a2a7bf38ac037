import { useState, type ReactNode } from 'react';
import type { JobExceptionEntry, JobExceptionInfo, JobExceptions } from '../../../engine/contracts/jobs';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { LogsPanel } from '../logs/LogsPanel';
import { shortClassName } from './exceptions';
import { useJobsApi } from '../jobs/api';

/**
 * A job's exception history, as the Flink Web UI's Exceptions tab shows it: the root exception of the latest failure
 * first, then the earlier ones, each with its time, what failed (task and subtask, or a global failure) and where
 * (TaskManager and endpoint), the stack trace folded, and the exceptions Flink handled together with it grouped
 * under it. Polled only while the tab is open.
 */
export function ExceptionsPanel({ clusterId, jobId, refresh }: { clusterId: string; jobId: string; refresh: ClusterRefresh }): ReactNode {
  const jobsApi = useJobsApi();
  const poll = usePolling<JobExceptions>(() => jobsApi.exceptions(clusterId, jobId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/exceptions`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const history = poll.data;
  const [logOf, setLogOf] = useState<LogTarget | null>(null);

  return (
    <Panel title="Exceptions" poll={poll} testId={testIds.exceptions.panel} className="exceptions-panel">
      <PollErrorBanner poll={poll} context="Loading the exception history failed" />
      {history == null && !poll.error ? <p className="muted">Loading the exception history…</p> : null}
      {history ? (
        <div className={poll.stale ? 'is-stale' : undefined}>
          <ExceptionHistory entries={history.entries} truncated={history.truncated} onOpenLog={setLogOf} />
        </div>
      ) : null}
      {logOf ? <LogsPanel key={`${logOf.processId}/${logOf.task ?? ''}`} clusterId={clusterId} processId={logOf.processId} task={logOf.task} onClose={() => setLogOf(null)} /> : null}
    </Panel>
  );
}

/** A log to open from an exception: the failed task's lines in its TaskManager's log or the JobManager's. */
export interface LogTarget {
  processId: string;
  task: string | null;
}

/** The history itself, newest first: the root exception of the latest failure, then the earlier ones. */
export function ExceptionHistory({ entries, truncated, onOpenLog }: Pick<JobExceptions, 'entries' | 'truncated'> & { onOpenLog?: (target: LogTarget) => void }): ReactNode {
  if (entries.length === 0) {
    return (
      <p className="empty" data-testid={testIds.exceptions.empty}>
        No exceptions: this job has not failed or restarted since it was submitted.
      </p>
    );
  }
  return (
    <>
      <ol className="exception-list">
        {entries.map((entry, i) => (
          <ExceptionEntry key={`${entry.timestamp}-${i}`} entry={entry} index={i} onOpenLog={onOpenLog} />
        ))}
      </ol>
      {truncated ? <p className="muted small">The cluster keeps more exceptions than these {entries.length}; older ones are left out.</p> : null}
    </>
  );
}

function ExceptionEntry({ entry, index, onOpenLog }: { entry: JobExceptionEntry; index: number; onOpenLog?: (target: LogTarget) => void }): ReactNode {
  const root = index === 0;
  return (
    <li className={`exception${root ? ' exception--root' : ''}`} data-testid={testIds.exceptions.entry(index)}>
      <div className="exception__head">
        <span className={`tag${root ? ' tag--danger' : ''}`}>{root ? 'Root exception' : `#${index + 1}`}</span>
        <time className="exception__time" dateTime={new Date(entry.timestamp).toISOString()}>
          {formatTimestamp(entry.timestamp)}
        </time>
        <code className="exception__class" title={entry.exceptionName}>
          {shortClassName(entry.exceptionName)}
        </code>
      </div>
      <p className="exception__message">{entry.message || '(no message)'}</p>
      <Where info={entry} onOpenLog={onOpenLog} />
      <StackTrace text={entry.stackTrace} />
      {entry.concurrent.length > 0 ? (
        <details className="exception__concurrent" data-testid={testIds.exceptions.concurrent}>
          <summary>
            {entry.concurrent.length} concurrent exception{entry.concurrent.length === 1 ? '' : 's'}, handled with this one
          </summary>
          <ul>
            {entry.concurrent.map((c, i) => (
              <li key={i} className="exception exception--concurrent">
                <div className="exception__head">
                  <time className="exception__time">{formatTimestamp(c.timestamp)}</time>
                  <code className="exception__class" title={c.exceptionName}>
                    {shortClassName(c.exceptionName)}
                  </code>
                </div>
                <p className="exception__message">{c.message || '(no message)'}</p>
                <Where info={c} onOpenLog={onOpenLog} />
                <StackTrace text={c.stackTrace} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

/**
 * Task, subtask, TaskManager and endpoint; a failure without a task (a lost TaskManager, a JobManager error) says so.
 * The failed task's lines are a click away in its TaskManager's log (while it runs) and in the JobManager's, which
 * logs every task's state changes and outlives a lost TaskManager; a global failure, the JobManager's log.
 */
function Where({ info, onOpenLog }: { info: JobExceptionInfo; onOpenLog?: (target: LogTarget) => void }): ReactNode {
  return (
    <dl className="exception__where">
      {onOpenLog ? (
        <div className="exception__logs">
          {info.taskManagerId !== null && info.taskName !== null ? (
            <button type="button" className="button button--tiny" onClick={() => onOpenLog({ processId: info.taskManagerId!, task: info.taskName })} data-testid={testIds.exceptions.taskManagerLog}>
              Its TaskManager's log
            </button>
          ) : null}{' '}
          <button type="button" className="button button--tiny" onClick={() => onOpenLog({ processId: 'jobmanager', task: info.taskName })} data-testid={testIds.exceptions.jobManagerLog}>
            {info.taskName !== null ? "The JobManager's log of it" : "The JobManager's log"}
          </button>
        </div>
      ) : null}
      <div>
        <dt>Task</dt>
        <dd>{info.taskName === null ? <span className="muted">global failure (no task)</span> : (info.vertexName ?? info.taskName)}</dd>
      </div>
      {info.subtaskIndex !== null ? (
        <div>
          <dt>Subtask</dt>
          <dd>
            {info.subtaskIndex}
            {info.attempt ? <span className="muted"> (attempt {info.attempt})</span> : null}
          </dd>
        </div>
      ) : null}
      {info.taskManagerId !== null ? (
        <div>
          <dt>TaskManager</dt>
          <dd className="mono small">{info.taskManagerId}</dd>
        </div>
      ) : null}
      {info.endpoint !== null ? (
        <div>
          <dt>Endpoint</dt>
          <dd className="mono small">{info.endpoint}</dd>
        </div>
      ) : null}
      {Object.entries(info.failureLabels).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Folded: the first line is in the message already; the frames are there when asked for. */
function StackTrace({ text }: { text: string }): ReactNode {
  const lines = text.trimEnd().split('\n').length;
  return (
    <details className="exception__stack" data-testid={testIds.exceptions.stack}>
      <summary>Stack trace ({lines} line{lines === 1 ? '' : 's'})</summary>
      <pre>{text}</pre>
    </details>
  );
}
