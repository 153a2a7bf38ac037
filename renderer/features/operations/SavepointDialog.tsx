import { useState, type ReactNode } from 'react';
import type { JournalEntry, OperationsContext, SavepointFormat } from '../../../engine/contracts/operations';
import { flinkSpelling } from '../../../engine/contracts/flink-path';
import { ErrorBanner } from '../../components/ErrorBanner';
import { testIds } from '../../testIds';
import { DRAIN_EXPLANATION } from './operations';
import { useStartOperation } from './useStartOperation';

/**
 * Savepoint, or stop-with-savepoint: where (the cluster's default folder, or one to type), which format, and for a
 * stop whether to drain. Then a confirmation that names the job, the target, drain, and what happens to the job.
 */
export function SavepointDialog({
  context,
  kind,
  onStarted,
  onClose,
}: {
  context: OperationsContext;
  kind: 'savepoint' | 'stop';
  onStarted: (entry: JournalEntry) => void;
  onClose: () => void;
}): ReactNode {
  const [target, setTarget] = useState(context.savepointDirectory?.value ?? '');
  const [format, setFormat] = useState<SavepointFormat>('canonical');
  const [drain, setDrain] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { start, starting, error } = useStartOperation();
  const missingTarget = target.trim() === '';
  // Shown as Flink will answer with it (file:/…, the savepoint's path starts so); sent as typed.
  const folder = flinkSpelling(target);
  const title = kind === 'stop' ? 'Stop with savepoint' : 'Take a savepoint';

  const onConfirm = async () => {
    const entry = await start({ kind, clusterId: context.clusterId, jobId: context.jobId, targetDirectory: target.trim(), format, ...(kind === 'stop' ? { drain } : {}) } as Parameters<typeof start>[0]);
    if (entry) onStarted(entry);
  };

  if (confirming) {
    return (
      <div className="confirm confirm--operation" role="alertdialog" aria-label={`${title}?`} data-testid={testIds.operations.confirm}>
        <p>
          {kind === 'stop' ? 'Stop' : 'Take a savepoint of'} job <strong>{context.jobName}</strong> <code className="mono small">{context.jobId}</code>
          {kind === 'stop' ? ' with a savepoint' : ''} into <code className="mono" data-testid={testIds.operations.targetFolder}>{folder}</code> ({format}).
        </p>
        {kind === 'stop' ? (
          <>
            <p>
              {drain ? <strong>With drain. </strong> : <strong>Without drain. </strong>}
              Flink takes the savepoint, then the sources stop{drain ? ', the watermark jumps to the end and every event-time window fires,' : ''} and the job ends
              FINISHED. It does not run again until you resubmit it from this savepoint.
            </p>
            {drain ? <p className="notice notice--warning">{DRAIN_EXPLANATION}</p> : null}
          </>
        ) : (
          <p>The job keeps running; the savepoint is a copy of its state you can restore from later.</p>
        )}
        {context.recentCheckpoints ? (
          <p className="small" data-testid={testIds.operations.checkpointDurations}>
            {context.recentCheckpoints.sentence}
            {kind === 'stop' ? ` ${context.recentCheckpoints.stopNote}` : ''}
          </p>
        ) : null}
        <div className="confirm__actions">
          <button type="button" className={`button button--small ${kind === 'stop' ? 'button--danger' : 'button--primary'}`} disabled={starting} onClick={() => void onConfirm()} data-testid={testIds.operations.confirmButton}>
            {starting ? 'Sending…' : kind === 'stop' ? 'Stop the job' : 'Take the savepoint'}
          </button>
          <button type="button" className="button button--small" disabled={starting} onClick={() => setConfirming(false)}>
            Back
          </button>
        </div>
        {error ? <ErrorBanner error={error} context="Not started" /> : null}
      </div>
    );
  }

  return (
    <form
      className="operation-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        if (!missingTarget) setConfirming(true);
      }}
    >
      <h3 className="operation-form__title">{title}</h3>
      <div className={`field${missingTarget ? ' field--invalid' : ''}`}>
        <label htmlFor="savepoint-target">Target directory</label>
        <input id="savepoint-target" value={target} onChange={(e) => setTarget(e.target.value)} placeholder="s3://bucket/savepoints" spellCheck={false} />
        <span className="field__hint">
          {context.savepointDirectory
            ? `The cluster's default, from ${context.savepointDirectory.key}. The JobManager writes there, not this machine.`
            : 'Required: this cluster has no default savepoint folder (execution.checkpointing.savepoint-dir / state.savepoints.dir). The JobManager writes there.'}
          {folder !== target.trim() ? <> Flink spells it <code className="mono">{folder}</code>.</> : null}
        </span>
      </div>
      <fieldset className="form-fieldset">
        <legend>Format</legend>
        <div className="radio-row">
          {(['canonical', 'native'] as const).map((f) => (
            <label key={f} className="radio">
              <input type="radio" name="savepoint-format" checked={format === f} onChange={() => setFormat(f)} /> {f}
            </label>
          ))}
        </div>
        <span className="field__hint">Canonical restores into any state backend; native is faster to take and restore, but only into the same backend.</span>
      </fieldset>
      {kind === 'stop' ? (
        <label className="radio">
          <input type="checkbox" checked={drain} onChange={(e) => setDrain(e.target.checked)} /> Drain
          <span className="field__hint"> — {DRAIN_EXPLANATION}</span>
        </label>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary button--small" disabled={missingTarget}>
          {kind === 'stop' ? 'Stop…' : 'Take savepoint…'}
        </button>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
