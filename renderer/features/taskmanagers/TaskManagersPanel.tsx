import { useRef, useState, type ReactNode } from 'react';
import type { TaskManagerView } from '../../../engine/contracts/clusters';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBanner, PollErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { DASH, formatAgo, formatBytes, formatCount, formatPercent, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { useNow } from '../../components/useNow';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useClustersApi } from '../clusters/api';
import { ProcessFiguresPanel } from '../inspect/ProcessFiguresPanel';
import { LogsPanel } from '../logs/LogsPanel';
import { ProfilerPanel } from '../profiler/ProfilerPanel';
import { ErrorBoundary } from '../../components/ErrorBoundary';

/**
 * The cluster's TaskManagers. On the bundled local engine each can be killed, to rehearse a machine loss: the jobs
 * with tasks on it fail over through their restart strategy, exactly as on Flink.
 */
export function TaskManagersPanel({ clusterId, canKill, refresh }: { clusterId: string; canKill: boolean; refresh: ClusterRefresh }): ReactNode {
  const clustersApi = useClustersApi();
  const poll = usePolling<TaskManagerView[]>(() => clustersApi.taskManagers(clusterId), refresh.intervalMs, {
    key: clusterId,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const [outcome, setOutcome] = useState<string | null>(null);
  // One process's memory at a time, read (2 requests a refresh) only while it is open.
  const [process, setProcess] = useState<string | null>(null);
  // One process's logs and thread dump at a time, read only when asked.
  const [logsOf, setLogsOf] = useState<string | null>(null);

  return (
    <>
    <Panel
      title="TaskManagers"
      poll={poll}
      testId={testIds.taskManagers.panel}
      actions={
        <>
          <button type="button" className="button button--small" onClick={() => setLogsOf('jobmanager')} data-testid={testIds.logs.open('jobmanager')}>
            JobManager logs
          </button>
          <button type="button" className="button button--small" onClick={() => setProcess('jobmanager')} data-testid={testIds.inspect.processButton('jobmanager')}>
            JobManager memory
          </button>
        </>
      }
    >
      <PollErrorBanner poll={poll} context="Loading the TaskManagers failed" />
      {outcome ? (
        <p className="notice" role="status" data-testid={testIds.taskManagers.outcome}>
          {outcome}
        </p>
      ) : null}
      {poll.data ? (
        <div className={`table-wrap${poll.stale ? ' is-stale' : ''}`}>
          <table className="table taskmanagers-table" data-testid={testIds.taskManagers.table}>
            <thead>
              <tr>
                <th scope="col">TaskManager</th>
                <th scope="col" title="host:data port, as the subtasks tables show where a subtask runs">
                  Endpoint
                </th>
                <th scope="col" className="num">
                  Slots used / total
                </th>
                <th scope="col" className="num" title="JVM heap in use, of the maximum">
                  Heap used / max
                </th>
                <th scope="col" className="num" title="Flink managed memory in use (RocksDB, batch operators), of the total">
                  Managed memory
                </th>
                <th scope="col" className="num" title="Recent CPU load of the TaskManager's JVM, of all its machine's cores">
                  CPU load
                </th>
                <th scope="col" className="num" title="Network buffers (memory segments) in use, of all">
                  Network buffers
                </th>
                <th scope="col">Heartbeat</th>
                <th scope="col">Memory, GC</th>
                <th scope="col">Logs, threads</th>
                {canKill ? <th scope="col">Rehearse a failure</th> : null}
              </tr>
            </thead>
            <tbody>
              {poll.data.map((tm) => (
                <tr key={tm.id} data-testid={testIds.taskManagers.row(tm.id)}>
                  <td>
                    <code className="mono small truncate taskmanager-id" title={tm.id}>
                      {tm.id}
                    </code>
                  </td>
                  <td className="mono small" title={tm.address ? `RPC address ${tm.address}` : undefined}>
                    {tm.endpoint ?? tm.address ?? DASH}
                  </td>
                  <td className="num">
                    <UsedOf used={tm.slotsTotal - tm.slotsFree} total={tm.slotsTotal} format={String} alarming={false} />
                  </td>
                  <td className="num">
                    <UsedOf used={tm.metrics?.heapUsed} total={tm.metrics?.heapMax} format={formatBytes} />
                  </td>
                  <td className="num">
                    <UsedOf used={tm.metrics?.managedMemoryUsed} total={tm.metrics?.managedMemoryTotal} format={formatBytes} />
                  </td>
                  <td className="num">{formatPercent(tm.metrics?.cpuLoad)}</td>
                  <td className="num">
                    <UsedOf used={tm.metrics?.networkBuffersUsed} total={tm.metrics?.networkBuffersTotal} format={formatCount} />
                  </td>
                  <td className="nowrap" title={tm.lastHeartbeat ? formatTimestamp(tm.lastHeartbeat) : undefined}>
                    {tm.lastHeartbeat ? <Ago at={tm.lastHeartbeat} /> : DASH}
                  </td>
                  <td>
                    <button type="button" className="button button--tiny" onClick={() => setProcess(tm.id)} aria-label={`Memory of TaskManager ${tm.id}`} data-testid={testIds.inspect.processButton(tm.id)}>
                      Details
                    </button>
                  </td>
                  <td>
                    <button type="button" className="button button--tiny" onClick={() => setLogsOf(tm.id)} aria-label={`Logs of TaskManager ${tm.id}`} data-testid={testIds.logs.open(tm.id)}>
                      Logs
                    </button>
                  </td>
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
    {logsOf ? <LogsPanel key={logsOf} clusterId={clusterId} processId={logsOf} onClose={() => setLogsOf(null)} /> : null}
    {process ? <ProcessFiguresPanel key={process} clusterId={clusterId} processId={process} refresh={refresh} onClose={() => setProcess(null)} /> : null}
    {process ? (
      <ErrorBoundary panel="The profiler" resetKey={process}>
        <ProfilerPanel key={`profiler/${process}`} clusterId={clusterId} processId={process} />
      </ErrorBoundary>
    ) : null}
    </>
  );
}

/** `3s ago`, ticking: its own component, so the shared clock re-renders this cell only. */
function Ago({ at }: { at: number }): ReactNode {
  return formatAgo(at, useNow());
}

/** `used / total` with a thin bar of the share (red from 90% where that is alarming); a dash when either is unknown. */
function UsedOf({
  used,
  total,
  format,
  alarming = true,
}: {
  used: number | null | undefined;
  total: number | null | undefined;
  format: (n: number) => string;
  alarming?: boolean;
}): ReactNode {
  if (used == null || total == null) return DASH;
  const share = total > 0 ? Math.min(1, Math.max(0, used / total)) : 0;
  return (
    <span className="used-of" title={`${Math.round(share * 100)}% in use`}>
      <span className="nowrap">
        {format(used)} / {format(total)}
      </span>
      <span className={`used-of__bar${alarming && share >= 0.9 ? ' used-of__bar--high' : ''}`} aria-hidden="true">
        <span style={{ width: `${share * 100}%` }} />
      </span>
    </span>
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
  const clustersApi = useClustersApi();
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
      const { message } = await clustersApi.killTaskManager(clusterId, taskManager.id);
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
        The outcome below says which, from each job's restart strategy.
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
