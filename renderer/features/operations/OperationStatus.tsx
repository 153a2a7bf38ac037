import { useState, type ReactNode } from 'react';
import type { JournalEntry, SavepointProgress } from '../../../engine/contracts/operations';
import { hrefFor } from '../../app/useHashRoute';
import { formatDuration, formatTimestamp } from '../../components/format';
import { useNow } from '../../components/useNow';
import { testIds } from '../../testIds';
import { RescaleRecordView } from './RescaleRecordView';
import { isOpen, KIND_LABEL, STATE_LABEL, stateTone } from './operations';

/** An operation as it goes: state, progress and elapsed time; then the savepoint path (copyable) or the cause in words. */
export function OperationStatus({ entry, clusterId }: { entry: JournalEntry; clusterId: string }): ReactNode {
  const now = useNow();
  const open = isOpen(entry);
  const elapsed = (entry.finishedAt ?? Math.max(now, entry.createdAt)) - entry.createdAt;
  return (
    <div className={`operation-status operation-status--${stateTone(entry.state)}`} role="status" data-testid={testIds.operations.status} data-state={entry.state}>
      <div className="operation-status__head">
        <strong>{KIND_LABEL[entry.kind]}</strong>
        <span className={`badge badge--${stateTone(entry.state)}`} data-testid={testIds.operations.state}>
          {STATE_LABEL[entry.state]}
        </span>
        <span className="muted small" data-testid={testIds.operations.elapsed} title={`Started ${formatTimestamp(entry.createdAt)}`}>
          {open ? `${formatDuration(elapsed)} so far` : `took ${formatDuration(elapsed)}`}
        </span>
        <code className="mono small muted" title="Trigger id: the key the cluster knows this operation by">
          {entry.id}
        </code>
      </div>
      {open ? <p className="operation-status__progress">{entry.progress ?? 'Sending…'}</p> : null}
      {open && entry.checkpoint ? <SavepointProgressView progress={entry.checkpoint} /> : null}
      {entry.checkpointNote ? (
        <p className="small" data-testid={testIds.operations.checkpointNote}>
          {entry.checkpointNote}
        </p>
      ) : null}
      {entry.resultPath ? <CopyablePath path={entry.resultPath} /> : null}
      {entry.shapeChanges ? <ShapeReport entry={entry} /> : entry.state === 'succeeded' && entry.progress ? <p className="small">{entry.progress}</p> : null}
      {!open ? <RescaleRecordView entry={entry} /> : null}
      {entry.newJobId ? (
        <p>
          The job now runs as{' '}
          <a href={hrefFor({ page: 'job', clusterId, jobId: entry.newJobId, vertexId: null })} className="mono">
            {entry.newJobId}
          </a>
          .
        </p>
      ) : null}
      {entry.failure ? (
        <div className="operation-status__failure" data-testid={testIds.operations.failure}>
          <p>{entry.failure}</p>
          {entry.failureDetail && !entry.failure.includes(entry.failureDetail) ? <p className="muted small mono">Flink: {entry.failureDetail}</p> : null}
        </div>
      ) : null}
      {!open ? (
        <p className="muted small">
          {entry.requests.trigger} request{entry.requests.trigger === 1 ? '' : 's'} to start it, {entry.requests.poll} to follow it.
        </p>
      ) : null}
    </div>
  );
}

/** The savepoint in flight as Flink reports it: acknowledged subtasks in all, and the vertices still to acknowledge. */
export function SavepointProgressView({ progress }: { progress: SavepointProgress }): ReactNode {
  const waiting = (progress.vertices ?? []).filter((v) => v.acknowledged < v.total);
  return (
    <div className="operation-status__savepoint" data-testid={testIds.operations.savepointProgress} data-acknowledged={progress.acknowledged} data-total={progress.total}>
      <label className="small">
        Savepoint {progress.checkpointId}: {progress.acknowledged} of {progress.total} subtasks acknowledged{' '}
        <progress max={progress.total} value={progress.acknowledged} aria-label={`Savepoint ${progress.checkpointId}: subtasks acknowledged`} />
      </label>
      {waiting.length > 0 ? (
        <ul className="muted small operation-status__waiting">
          {waiting.map((v) => (
            <li key={v.vertexId}>
              {v.name}: {v.acknowledged} of {v.total}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="muted small">As the JobManager reported it at {formatTimestamp(progress.readAt)}; under backpressure the barriers wait behind the queued records.</p>
    </div>
  );
}

/** A resubmit's new job beside the stopped run, as the journal keeps it. */
function ShapeReport({ entry }: { entry: JournalEntry }): ReactNode {
  const changes = entry.shapeChanges ?? [];
  if (changes.length === 0) {
    return (
      <p className="small" data-testid={testIds.operations.shapeReport}>
        The new job has the stopped run&apos;s shape: every vertex at its parallelism and max parallelism.
      </p>
    );
  }
  return (
    <div className="notice notice--warning" data-testid={testIds.operations.shapeReport}>
      <p>The new job differs from the stopped run:</p>
      <ul>
        {changes.map((c) => (
          <li key={`${c.vertexName}/${c.kind}`}>{c.words}</li>
        ))}
      </ul>
    </div>
  );
}

function CopyablePath({ path }: { path: string }): ReactNode {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () => {
    navigator.clipboard?.writeText(path).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <p className="operation-status__path">
      Savepoint: <code className="mono" data-testid={testIds.operations.resultPath}>{path}</code>{' '}
      <button type="button" className="button button--tiny" onClick={copy}>
        {copied === 'yes' ? 'Copied' : 'Copy path'}
      </button>
      {copied === 'no' ? <span className="muted small"> (select the path to copy it)</span> : null}
    </p>
  );
}
