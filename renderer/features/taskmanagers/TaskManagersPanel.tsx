import { useRef, useState, type ReactNode } from 'react';
import type { ErrorInfo, TaskManagerView } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';

/**
 * The cluster's TaskManagers. On the bundled local engine each can be killed, to rehearse a machine loss: the jobs
 * with tasks on it fail over through their restart strategy, exactly as on Flink.
 */
export function TaskManagersPanel({ clusterId, canKill, refresh }: { clusterId: string; canKill: boolean; refresh: ClusterRefresh }): ReactNode {
  const { api } = useEngine();
  const poll = usePolling<TaskManagerView[]>(() => api.listTaskManagers(clusterId), refresh.intervalMs, {
    key: clusterId,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const [outcome, setOutcome] = useState<string | null>(null);

  return (
    <Panel title="TaskManagers" poll={poll} testId={testIds.taskManagers.panel}>
      <PollErrorBanner poll={poll} context="Loading the TaskManagers failed" />
      {outcome ? (
        <p className="notice" role="status" data-testid={testIds.taskManagers.outcome}>
          {outcome}
        </p>
      ) : null}
      {poll.data ? (
        <div className={`table-wrap${poll.stale ? ' is-stale' : ''}`}>
          <table className="table" data-testid={testIds.taskManagers.table}>
            <thead>
              <tr>
                <th scope="col">TaskManager</th>
                <th scope="col">Address</th>
                <th scope="col" className="num">
                  Slots free / total
                </th>
                <th scope="col">Last heartbeat</th>
                {canKill ? <th scope="col">Rehearse a failure</th> : null}
              </tr>
            </thead>
            <tbody>
              {poll.data.map((tm) => (
                <tr key={tm.id} data-testid={testIds.taskManagers.row(tm.id)}>
                  <td>
                    <code className="mono small">{tm.id}</code>
                  </td>
                  <td className="mono small">{tm.address ?? '—'}</td>
                  <td className="num">
                    {tm.slotsFree} / {tm.slotsTotal}
                  </td>
                  <td className="nowrap">{tm.lastHeartbeat ? formatTimestamp(tm.lastHeartbeat) : '—'}</td>
                  {canKill ? (
                    <td>
                      <KillTaskManager
                        clusterId={clusterId}
                        taskManager={tm}
                        onKilled={(message) => {
                          setOutcome(message);
                          poll.refresh();
                        }}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : !poll.error ? (
        <p className="muted">Loading TaskManagers…</p>
      ) : null}
    </Panel>
  );
}

/** Kill asks first, says what will happen, and cannot fire twice: the button is gone while the call runs. */
function KillTaskManager({
  clusterId,
  taskManager,
  onKilled,
}: {
  clusterId: string;
  taskManager: TaskManagerView;
  onKilled: (message: string) => void;
}): ReactNode {
  const { api } = useEngine();
  const [confirming, setConfirming] = useState(false);
  const [killing, setKilling] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  // A ref, not state: a second click in the same frame must see the first one at once.
  const inFlight = useRef(false);
  const busySlots = taskManager.slotsTotal - taskManager.slotsFree;

  const onKill = async (): Promise<void> => {
    if (inFlight.current) return;
    inFlight.current = true;
    setKilling(true);
    setError(null);
    try {
      const { message } = await api.killTaskManager(clusterId, taskManager.id);
      setConfirming(false);
      onKilled(message);
    } catch (e) {
      setError(toErrorInfo(e));
    } finally {
      inFlight.current = false;
      setKilling(false);
    }
  };

  if (!confirming) {
    return (
      <button type="button" className="button button--tiny" onClick={() => setConfirming(true)} aria-label={`Kill TaskManager ${taskManager.id}`}>
        Kill…
      </button>
    );
  }
  return (
    <div className="confirm" role="alertdialog" aria-label={`Kill TaskManager ${taskManager.id}?`} data-testid={testIds.taskManagers.confirmKill}>
      <p>
        Kill this TaskManager, as <code>kill -9</code> would? {busySlots > 0 ? `The tasks in its ${busySlots} busy slot${busySlots === 1 ? '' : 's'} fail` : 'It runs no task now'}
        ; each job with tasks on it restarts from its latest checkpoint if its restart strategy allows, and fails otherwise.
      </p>
      <div className="confirm__actions">
        <button type="button" className="button button--tiny button--danger" disabled={killing} onClick={() => void onKill()}>
          {killing ? 'Killing…' : 'Kill TaskManager'}
        </button>
        <button type="button" className="button button--tiny" disabled={killing} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
      {error ? <ErrorBanner error={error} context="Not killed" /> : null}
    </div>
  );
}
