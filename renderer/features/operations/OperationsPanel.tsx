import { useEffect, useState, type ReactNode } from 'react';
import type { JournalEntry, OperationKind, OperationsContext } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { CancelDialog } from './CancelDialog';
import { OperationStatus } from './OperationStatus';
import { isOpen, KIND_LABEL } from './operations';
import { RescaleDialog } from './RescaleDialog';
import { RescaleOutcomeView } from './RescaleOutcomeView';
import { ResubmitDialog } from './ResubmitDialog';
import { SavepointDialog } from './SavepointDialog';
import { useJournalEntry } from './useStartOperation';

type Action = Exclude<OperationKind, 'resubmit'> | 'resubmit';

const ACTIONS: Array<{ kind: Action; label: string; needsRunning: boolean }> = [
  { kind: 'savepoint', label: 'Savepoint…', needsRunning: true },
  { kind: 'stop', label: 'Stop with savepoint…', needsRunning: true },
  { kind: 'cancel', label: 'Cancel…', needsRunning: false },
  { kind: 'rescale', label: 'Rescale…', needsRunning: true },
  { kind: 'resubmit', label: 'Resubmit…', needsRunning: false },
];

const TERMINAL = new Set(['FINISHED', 'CANCELED', 'FAILED', 'SUSPENDED']);

/**
 * A job's Operations area: savepoint, stop, cancel, rescale and resubmit, each asked for, confirmed with its impact,
 * and followed to its outcome. While an operation of the job is open (from this page, another window or the CLI),
 * every button is disabled.
 */
export function OperationsPanel({
  clusterId,
  jobId,
  refresh,
  resubmitFrom,
  onResubmitFromHandled,
}: {
  clusterId: string;
  jobId: string;
  refresh: ClusterRefresh;
  /** A savepoint picked in the savepoints list: opens the resubmit form with it. */
  resubmitFrom: string | null;
  onResubmitFromHandled: () => void;
}): ReactNode {
  const { api } = useEngine();
  const [tracked, setTracked] = useState<JournalEntry | null>(null);
  const entry = useJournalEntry(tracked);
  const [action, setAction] = useState<Action | null>(null);
  const poll = usePolling<OperationsContext>(() => api.getOperationsContext(clusterId, jobId), entry && isOpen(entry) ? 2_000 : refresh.intervalMs, {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const context = poll.data;
  // An operation of this job that another window or the CLI runs (ours is followed more closely through `entry`).
  const elsewhere = context?.inFlight && context.inFlight.id !== entry?.id ? context.inFlight : null;
  const shown = entry ?? elsewhere;
  const busy = (entry !== null && isOpen(entry)) || elsewhere !== null;
  // Once ours settles, read the job's state again (a stop finished it, a resubmit started another).
  const settled = entry !== null && !isOpen(entry);
  useEffect(() => {
    if (settled) poll.refresh();
  }, [settled]);
  const openAction: Action | null = resubmitFrom ? 'resubmit' : action;

  const onStarted = (started: JournalEntry) => {
    setTracked(started);
    setAction(null);
    onResubmitFromHandled();
    poll.refresh();
  };
  const close = () => {
    setAction(null);
    onResubmitFromHandled();
  };

  return (
    <Panel title="Operations" poll={poll} testId={testIds.operations.panel} className="operations-panel">
      <PollErrorBanner poll={poll} context="Reading what this job allows failed" />
      <div className="operations-panel__actions" role="toolbar" aria-label="Operations">
        {ACTIONS.map((a) => {
          const jobState = context?.jobState ?? '';
          const disabled = !context || busy || (a.needsRunning && jobState !== 'RUNNING') || (a.kind === 'cancel' && TERMINAL.has(jobState));
          return (
            <button
              key={a.kind}
              type="button"
              className={`button button--small${openAction === a.kind ? ' button--primary' : ''}`}
              disabled={disabled}
              title={busy ? 'An operation of this job is in flight' : a.needsRunning && jobState !== 'RUNNING' ? `The job is ${jobState || 'not known yet'}` : undefined}
              onClick={() => setAction(openAction === a.kind ? null : a.kind)}
              data-testid={testIds.operations.action(a.kind)}
            >
              {a.label}
            </button>
          );
        })}
      </div>
      {elsewhere ? (
        <p className="muted small">
          A {KIND_LABEL[elsewhere.kind].toLowerCase()} of this job started from the {elsewhere.origin === 'cli' ? 'CLI' : 'app'} is in flight: the buttons wait for its outcome.
        </p>
      ) : null}
      {context && openAction && !busy ? (
        <div className="operations-panel__dialog" data-testid={testIds.operations.dialog}>
          {openAction === 'savepoint' || openAction === 'stop' ? <SavepointDialog key={openAction} context={context} kind={openAction} onStarted={onStarted} onClose={close} /> : null}
          {openAction === 'cancel' ? <CancelDialog context={context} onStarted={onStarted} onClose={close} /> : null}
          {openAction === 'rescale' ? <RescaleDialog context={context} onStarted={onStarted} onClose={close} /> : null}
          {openAction === 'resubmit' ? <ResubmitDialog key={resubmitFrom ?? ''} context={context} savepointPath={resubmitFrom ?? ''} onStarted={onStarted} onClose={close} /> : null}
        </div>
      ) : null}
      {shown ? <OperationStatus entry={shown} clusterId={clusterId} /> : null}
      {shown?.kind === 'rescale' && shown.state === 'succeeded' ? <RescaleOutcomeView entry={shown} /> : null}
    </Panel>
  );
}
