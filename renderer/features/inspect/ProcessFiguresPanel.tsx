import type { ReactNode } from 'react';
import type { MemoryFigure, ProcessFigures } from '../../../engine/contracts/inspect';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { DASH, formatBytes, formatCount, formatMillis, formatPercent } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { ProcessMetricsHistory } from '../metrics-history/ProcessMetricsHistory';
import { useInspectApi } from './api';

/**
 * A process's memory and garbage collection, as the Web UI's TaskManager and JobManager metrics (2 requests, while
 * open), and over time from the history.
 */
export function ProcessFiguresPanel({ clusterId, processId, refresh, onClose }: { clusterId: string; processId: string; refresh: ClusterRefresh; onClose: () => void }): ReactNode {
  const api = useInspectApi();
  const poll = usePolling<ProcessFigures>(() => api.process(clusterId, processId), refresh.intervalMs, {
    key: `${clusterId}/${processId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const f = poll.data;
  return (
    <Panel
      title={processId === 'jobmanager' ? 'JobManager memory' : <>TaskManager <code className="mono small">{processId}</code> memory</>}
      poll={poll}
      testId={testIds.inspect.processPanel}
      actions={
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      }
    >
      <PollErrorBanner poll={poll} context={isNotFound(poll.error) ? 'This TaskManager is no longer registered' : 'Loading the memory figures failed'} />
      {f ? (
        <>
          {f.note ? <p className="hint">{f.note}</p> : null}
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Memory</th>
                <th scope="col" className="num">Used</th>
                <th scope="col" className="num">Committed</th>
                <th scope="col" className="num">Max</th>
              </tr>
            </thead>
            <tbody>
              <MemoryRow label="Heap" figure={f.heap} />
              <MemoryRow label="Non-heap" figure={f.nonHeap} />
              <MemoryRow label="Metaspace" figure={f.metaspace} />
              <MemoryRow label={`Direct${f.direct.buffers !== null ? ` (${formatCount(f.direct.buffers)} buffers)` : ''}`} figure={f.direct} />
              {f.kind === 'taskmanager' ? <MemoryRow label="Managed" figure={f.managed} /> : null}
              {f.kind === 'taskmanager' ? (
                <tr>
                  <th scope="row">Network buffers</th>
                  <td className="num">{f.network.segmentsUsed === null ? DASH : `${formatCount(f.network.segmentsUsed)} segments`}{f.network.bytesUsed !== null ? ` (${formatBytes(f.network.bytesUsed)})` : ''}</td>
                  <td className="num">{DASH}</td>
                  <td className="num">{f.network.segmentsTotal === null ? DASH : `${formatCount(f.network.segmentsTotal)} segments`}{f.network.bytesTotal !== null ? ` (${formatBytes(f.network.bytesTotal)})` : ''}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
          <p>
            CPU load {f.cpuLoad === null ? DASH : formatPercent(f.cpuLoad)} · threads {formatCount(f.threads)} · GC time now {f.gcTimeMsPerSecond === null ? DASH : `${formatMillis(f.gcTimeMsPerSecond)}/s`}
          </p>
          {f.garbageCollectors.length > 0 ? (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Garbage collector</th>
                  <th scope="col" className="num">Collections</th>
                  <th scope="col" className="num">Total time</th>
                </tr>
              </thead>
              <tbody>
                {f.garbageCollectors.map((gc) => (
                  <tr key={gc.name}>
                    <td className="mono small">{gc.name}</td>
                    <td className="num">{formatCount(gc.count)}</td>
                    <td className="num">{formatMillis(gc.timeMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No garbage collector figures reported.</p>
          )}
          {f.memoryConfiguration ? (
            <details>
              <summary>Memory configuration</summary>
              <dl className="facts">
                {Object.entries(f.memoryConfiguration).map(([name, bytes]) => (
                  <div key={name}>
                    <dt>{name}</dt>
                    <dd>{formatBytes(bytes)}</dd>
                  </div>
                ))}
              </dl>
            </details>
          ) : null}
        </>
      ) : !poll.error ? (
        <p className="muted">Loading the memory figures…</p>
      ) : null}
      <ProcessMetricsHistory clusterId={clusterId} processId={processId} refresh={refresh} />
    </Panel>
  );
}

function MemoryRow({ label, figure }: { label: string; figure: MemoryFigure }): ReactNode {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="num">{formatBytes(figure.used)}</td>
      <td className="num">{formatBytes(figure.committed)}</td>
      <td className="num">{figure.max === null ? 'no limit / not reported' : formatBytes(figure.max)}</td>
    </tr>
  );
}
