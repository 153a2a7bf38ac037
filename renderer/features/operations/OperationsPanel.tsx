import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry, OperationKind, OperationsContext } from '../../../engine/contracts/operations';
import { useHashRoute } from '../../app/useHashRoute';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { CancelDialog } from './CancelDialog';
import { OperationStatus } from './OperationStatus';
import { isOpen, KIND_LABEL } from './operations';
import { RescaleDialog } from './RescaleDialog';
import { BeforeAfterView, hasBeforeAfter } from './BeforeAfterView';
import { RescaleOutcomeView } from './RescaleOutcomeView';
import { ResubmitDialog } from './ResubmitDialog';
import { SavepointDialog } from './SavepointDialog';
import { useJournalEntry } from './useStartOperation';
import { useOperationsApi } from './api';

const ACTIONS: Array<{ kind: OperationKind; label: string; needsRunning: boolean }> = [
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
 * every button is disabled. It costs the cluster nothing until an action is opened: the job's state comes from the
 * page, open operations from the journal, and the cluster's facts are read when a form opens.
 */
export function OperationsPanel({
  clusterId,
  jobId,
  jobState,
  refresh,
  resubmitFrom,
  onResubmitFromHandled,
  onSettled,
  onJournalChanged,
}: {
  clusterId: string;
  jobId: string;
  /** The job's state as the page last read it; null until then. */
  jobState: string | null;
  refresh: ClusterRefresh;
  /** A savepoint picked in the savepoints list: opens the resubmit form with it. */
  resubmitFrom: string | null;
  onResubmitFromHandled: () => void;
  /** An operation started here ended. */
  onSettled: () => void;
  /** An operation started here, or its entry changed state. */
  onJournalChanged: () => void;
}): ReactNode {
  const operationsApi = useOperationsApi();
  const [tracked, setTracked] = useState<JournalEntry | null>(null);
  const entry = useJournalEntry(tracked);
  const [action, setAction] = useState<OperationKind | null>(null);
  const [context, setContext] = useState<OperationsContext | null>(null);
  const [contextError, setContextError] = useState<ErrorInfo | null>(null);
  const mine = entry !== null && isOpen(entry);
  // Open operations of this job started elsewhere (another window, the CLI): read from the journal, not the cluster.
  const journal = usePolling<JournalEntry[]>(() => operationsApi.journal({ clusterId, jobId, limit: 20 }), mine ? null : refresh.intervalMs === null ? 5_000 : Math.min(refresh.intervalMs, 5_000), {
    key: `${clusterId}/${jobId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const elsewhere = journal.data?.find((e) => isOpen(e) && e.parentId === null && e.id !== entry?.id) ?? null;
  // A job the page followed here from its resubmit: that resubmit's outcome (and shape report) stays in view.
  const startedThisRun = journal.data?.find((e) => e.kind === 'resubmit' && e.parentId === null && e.newJobId === jobId) ?? null;
  const shown = entry ?? elsewhere ?? startedThisRun;
  const busy = mine || elsewhere !== null;
  const openAction: OperationKind | null = resubmitFrom ? 'resubmit' : action;

  // The journal panel shows the entry as soon as it exists, and each change of state as it happens.
  useEffect(() => {
    if (entry) onJournalChanged();
  }, [entry?.id, entry?.state]);

  const settled = entry !== null && !isOpen(entry);
  useEffect(() => {
    if (!settled) return;
    journal.refresh();
    onSettled();
  }, [settled]);

  // After a resubmit the page follows the new job, once the cluster has taken it (the entry names it).
  const [, navigate] = useHashRoute();
  const followed = useRef<string | null>(null);
  const newJob = entry?.kind === 'resubmit' && entry.newJobId && entry.newJobId !== jobId && ['in-progress', 'succeeded', 'failed'].includes(entry.state) ? entry.newJobId : null;
  useEffect(() => {
    if (!newJob || followed.current === entry!.id) return;
    followed.current = entry!.id;
    navigate({ page: 'job', clusterId, jobId: newJob, vertexId: null });
  }, [newJob]);

  // The cluster's facts for the form, read when it opens (a form shows what holds now).
  useEffect(() => {
    if (!openAction) return;
    let live = true;
    setContext(null);
    setContextError(null);
    operationsApi.context(clusterId, jobId).then(
      (c) => live && setContext(c),
      (e: unknown) => live && setContextError(toErrorInfo(e)),
    );
    return () => {
      live = false;
    };
  }, [operationsApi, clusterId, jobId, openAction]);

  const onStarted = (started: JournalEntry) => {
    setTracked(started);
    setAction(null);
    onResubmitFromHandled();
  };
  const close = () => {
    setAction(null);
    onResubmitFromHandled();
  };

  return (
    <Panel title="Operations" poll={journal} testId={testIds.operations.panel} className="operations-panel">
      <PollErrorBanner poll={journal} context="Reading the journal failed" />
      <div className="operations-panel__actions" role="toolbar" aria-label="Operations">
        {ACTIONS.map((a) => {
          const state = jobState ?? '';
          const disabled = jobState === null || busy || (a.needsRunning && state !== 'RUNNING') || (a.kind === 'cancel' && TERMINAL.has(state));
          return (
            <button
              key={a.kind}
              type="button"
              className={`button button--small${openAction === a.kind ? ' button--primary' : ''}`}
              disabled={disabled}
              title={busy ? 'An operation of this job is in flight' : a.needsRunning && state !== 'RUNNING' ? `The job is ${state || 'not known yet'}` : undefined}
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
      {openAction && !busy ? (
        <div className="operations-panel__dialog" data-testid={testIds.operations.dialog}>
          {contextError ? <ErrorBanner error={contextError} context="Reading what this job allows failed" /> : null}
          {!context && !contextError ? <p className="muted">Reading the job and its cluster…</p> : null}
          {context && (openAction === 'savepoint' || openAction === 'stop') ? <SavepointDialog key={openAction} context={context} kind={openAction} onStarted={onStarted} onClose={close} /> : null}
          {context && openAction === 'cancel' ? <CancelDialog context={context} onStarted={onStarted} onClose={close} /> : null}
          {context && openAction === 'rescale' ? <RescaleDialog context={context} onStarted={onStarted} onClose={close} /> : null}
          {context && openAction === 'resubmit' ? <ResubmitDialog key={resubmitFrom ?? ''} context={context} savepointPath={resubmitFrom ?? ''} onStarted={onStarted} onClose={close} /> : null}
        </div>
      ) : null}
      {shown ? <OperationStatus entry={shown} clusterId={clusterId} /> : null}
      {shown?.kind === 'rescale' && shown.state === 'succeeded' ? <RescaleOutcomeView entry={shown} /> : null}
      {shown && hasBeforeAfter(shown) ? <BeforeAfterView entry={shown} /> : null}
    </Panel>
  );
}
