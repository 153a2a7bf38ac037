import type { ReactNode } from 'react';
import type { Accumulator, VertexInspection } from '../../../engine/contracts/inspect';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { isNotFound } from '../../components/errors';
import { DASH, formatBytes, formatCount, formatDuration, formatMillis, formatTimestamp, formatWatermark } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useInspectApi } from './api';
import { TIMELINE_STATES, timelineBars } from './timelineBars';

/**
 * A vertex as the Web UI's Watermarks, Accumulators, TaskManagers and Timeline tabs show it, in one panel: 5 requests
 * a refresh, only while it is open (the graph's refresh does not include them).
 */
export function VertexInspectPanel({ clusterId, jobId, vertexId, refresh }: { clusterId: string; jobId: string; vertexId: string; refresh: ClusterRefresh }): ReactNode {
  const api = useInspectApi();
  const poll = usePolling<VertexInspection>(() => api.vertex(clusterId, jobId, vertexId), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${vertexId}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: isNotFound,
  });
  const view = poll.data;
  return (
    <Panel
      title={<>Vertex {view ? <span title={view.name}>{view.name}</span> : null}</>}
      poll={poll}
      testId={testIds.inspect.vertexPanel}
      actions={view ? <span className="muted small" title="This refresh's cost: REST requests to the cluster">{view.requestCount} requests this refresh</span> : null}
    >
      <PollErrorBanner poll={poll} context={isNotFound(poll.error) ? 'This vertex is no longer part of the job' : 'Loading the vertex failed'} />
      {view ? (
        <div className={poll.stale ? 'is-stale' : undefined}>
          <Watermarks view={view} />
          <Timeline view={view} />
          <Accumulators view={view} />
          <TaskManagers view={view} />
        </div>
      ) : !poll.error ? (
        <p className="muted">Loading the vertex…</p>
      ) : null}
    </Panel>
  );
}

function Watermarks({ view }: { view: VertexInspection }): ReactNode {
  const { low, subtasks, spreadMs, withoutWatermark } = view.watermarks;
  return (
    <section aria-label="Watermarks" data-testid={testIds.inspect.watermarks}>
      <h3>Watermarks</h3>
      <p data-testid={testIds.inspect.lowWatermark}>
        {low === null
          ? 'No subtask has a watermark yet: event time has not started here (or the vertex has no event time).'
          : `Subtask ${low.index} holds the vertex's watermark: ${formatWatermark(low.watermark, view.now)}, ${formatMillis(low.lagMs)} behind the JobManager's clock.`}
        {spreadMs !== null ? ` Spread over the subtasks: ${formatMillis(spreadMs)}.` : null}
        {low !== null && withoutWatermark.length > 0 ? ` Subtask${withoutWatermark.length > 1 ? 's' : ''} ${withoutWatermark.join(', ')} ha${withoutWatermark.length > 1 ? 've' : 's'} none yet.` : null}
      </p>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col" className="num">Subtask</th>
              <th scope="col">Input watermark</th>
              <th scope="col" className="num" title="The JobManager's clock minus the watermark">Lag to the wall clock</th>
            </tr>
          </thead>
          <tbody>
            {subtasks.map((s) => (
              <tr key={s.index} data-testid={testIds.inspect.watermarkRow(s.index)} className={low?.index === s.index ? 'is-marked' : undefined}>
                <td className="num">{s.index}</td>
                <td className="mono small">{s.watermark === null ? 'none yet' : formatWatermark(s.watermark, view.now)}</td>
                <td className="num">{s.lagMs === null ? DASH : formatMillis(s.lagMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Timeline({ view }: { view: VertexInspection }): ReactNode {
  const rows = timelineBars(view.timeline);
  const last = view.timeline.lastRunning;
  return (
    <section aria-label="Timeline" data-testid={testIds.inspect.timeline}>
      <h3>Timeline of the last (re)start</h3>
      <p className="muted small">
        {view.timeline.from !== null ? `From ${formatTimestamp(view.timeline.from, true)} to now. ` : null}
        {last ? `Subtask ${last.index} reached RUNNING last, at ${formatTimestamp(last.at, true)}.` : 'Not every subtask runs yet.'}
        {' '}
        {TIMELINE_STATES.map((state) => (
          <span key={state} className={`timeline-legend timeline-bar--${state.toLowerCase()}`}>{state.toLowerCase()}</span>
        ))}
      </p>
      <div className="timeline">
        {rows.map((row) => (
          <div key={row.index} className="timeline-row">
            <span className="timeline-row__label num">{row.index}</span>
            <div className="timeline-row__track">
              {row.bars.map((bar) => (
                <span
                  key={`${bar.state}-${bar.leftPercent}`}
                  className={`timeline-bar timeline-bar--${(TIMELINE_STATES as readonly string[]).includes(bar.state) ? bar.state.toLowerCase() : 'other'}`}
                  style={{ left: `${bar.leftPercent}%`, width: `${bar.widthPercent}%` }}
                  title={`Subtask ${row.index}: ${bar.state} for ${formatDuration(bar.durationMs)}`}
                />
              ))}
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

function Accumulators({ view }: { view: VertexInspection }): ReactNode {
  const { vertex, subtasks } = view.accumulators;
  const names = [...new Set(subtasks.flatMap((s) => s.accumulators.map((a) => a.name)))].sort();
  return (
    <section aria-label="Accumulators" data-testid={testIds.inspect.accumulators}>
      <h3>Accumulators</h3>
      {vertex.length === 0 && names.length === 0 ? (
        <p className="muted">The job registers no accumulators on this vertex.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Subtask</th>
                {names.map((name) => (
                  <th key={name} scope="col" className="num" title={typeOf(vertex, name)}>{name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr className="is-total">
                <td>all (merged)</td>
                {names.map((name) => (
                  <td key={name} className="num mono">{vertex.find((a) => a.name === name)?.value ?? DASH}</td>
                ))}
              </tr>
              {subtasks.map((s) => (
                <tr key={s.index}>
                  <td title={s.endpoint ?? undefined}>{s.index}{s.attempt > 0 ? ` (attempt ${s.attempt})` : ''}</td>
                  {names.map((name) => (
                    <td key={name} className="num mono">{s.accumulators.find((a) => a.name === name)?.value ?? DASH}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function typeOf(list: Accumulator[], name: string): string | undefined {
  return list.find((a) => a.name === name)?.type;
}

function TaskManagers({ view }: { view: VertexInspection }): ReactNode {
  return (
    <section aria-label="TaskManagers of the vertex" data-testid={testIds.inspect.taskManagers}>
      <h3>TaskManagers</h3>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">TaskManager</th>
              <th scope="col">Status</th>
              <th scope="col">Subtasks</th>
              <th scope="col" className="num">Records in</th>
              <th scope="col" className="num">Records out</th>
              <th scope="col" className="num">Bytes in</th>
              <th scope="col" className="num">Bytes out</th>
              <th scope="col" className="num">Duration</th>
            </tr>
          </thead>
          <tbody>
            {view.taskManagers.map((tm) => (
              <tr key={tm.taskManagerId ?? tm.endpoint ?? ''}>
                <td className="mono small" title={tm.taskManagerId ?? undefined}>{tm.endpoint ?? tm.taskManagerId ?? DASH}</td>
                <td>{tm.status}</td>
                <td className="small">{Object.entries(tm.statusCounts).map(([state, n]) => `${n} ${state.toLowerCase()}`).join(', ') || DASH}</td>
                <td className="num">{formatCount(tm.recordsIn)}</td>
                <td className="num">{formatCount(tm.recordsOut)}</td>
                <td className="num">{formatBytes(tm.bytesIn)}</td>
                <td className="num">{formatBytes(tm.bytesOut)}</td>
                <td className="num">{formatDuration(tm.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
