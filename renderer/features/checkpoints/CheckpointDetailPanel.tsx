import { useMemo, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CheckpointDetail, CheckpointSubtaskView, CheckpointVertexView } from '../../../engine/contracts/history';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { DASH, formatBytes, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { checkpointKind, checkpointTone, formatMillis } from './checkpointFormat';
import { useHistoryApi } from '../history/api';

/** The parts of a subtask's end-to-end duration, stacked in the order they happen. */
const PARTS: Array<{ key: keyof CheckpointSubtaskView; name: string; color: string }> = [
  { key: 'startDelayMs', name: 'Start delay', color: '#f85149' },
  { key: 'alignmentDurationMs', name: 'Alignment', color: '#d29922' },
  { key: 'syncDurationMs', name: 'Sync', color: '#5aa9ff' },
  { key: 'asyncDurationMs', name: 'Async', color: '#a371f7' },
];

/**
 * One checkpoint: the subtask that stood out named in one sentence, per vertex its figures, and per subtask the
 * parts of its end-to-end duration (start delay, alignment, sync, async) as a chart and a table. Refreshed while its
 * details are still to come.
 */
export function CheckpointDetailPanel({
  clusterId,
  jobId,
  checkpointId,
  triggerTimestamp,
  refresh,
  onClose,
}: {
  clusterId: string;
  jobId: string;
  checkpointId: number;
  triggerTimestamp: number;
  refresh: ClusterRefresh;
  onClose: () => void;
}): ReactNode {
  const historyApi = useHistoryApi();
  const [pending, setPending] = useState(true);
  const poll = usePolling<CheckpointDetail>(
    async () => {
      const detail = await historyApi.checkpointDetail(clusterId, jobId, checkpointId, triggerTimestamp);
      setPending(detail.checkpoint.details === 'pending');
      return detail;
    },
    pending ? refresh.intervalMs : null,
    { key: `${clusterId}/${jobId}/${triggerTimestamp}/${checkpointId}`, paused: refresh.paused, refreshSignal: refresh.refreshSignal },
  );
  const detail = poll.data;
  const [chosenVertex, setChosenVertex] = useState<string | null>(null);
  const vertexId = chosenVertex ?? detail?.outliers[0]?.vertexId ?? detail?.vertices.find((v) => v.subtasks)?.vertexId ?? null;
  const vertex = detail?.vertices.find((v) => v.vertexId === vertexId) ?? null;
  const c = detail?.checkpoint;

  return (
    <Panel
      className="checkpoint-detail"
      testId={testIds.checkpoints.detail}
      poll={poll}
      title={
        <>
          Checkpoint #{checkpointId}
          {c ? (
            <span className="muted">
              {' '}
              · {checkpointKind(c)} · <span className={`badge badge--checkpoint-${checkpointTone(c)}`}>{c.status.replace('_', ' ')}</span> · triggered {formatTimestamp(triggerTimestamp)} ·
              end-to-end {formatMillis(c.endToEndDurationMs)} · full size {formatBytes(c.stateBytes)}
            </span>
          ) : null}
        </>
      }
      actions={
        <button type="button" className="button button--small" onClick={onClose} aria-label="Close the checkpoint's detail">
          Close
        </button>
      }
    >
      <PollErrorBanner poll={poll} context="Reading the checkpoint failed" />
      {!detail && !poll.error ? <p className="muted">Loading the checkpoint…</p> : null}
      {detail ? (
        <>
          <p className={`finding${detail.outliers.length > 0 ? ' finding--alert' : ''}`} data-testid={testIds.checkpoints.finding}>
            {detail.finding}
          </p>
          {detail.outliers.length > 1 ? (
            <ul className="finding-more small">
              {detail.outliers.slice(1, 5).map((o) => (
                <li key={`${o.vertexId}-${o.figure}`}>{o.sentence}</li>
              ))}
            </ul>
          ) : null}
          {c?.failureMessage ? (
            <p className="small">
              <strong>Failure:</strong> {c.failureMessage}
              {c.failureExplanation ? ` — ${c.failureExplanation}` : ''}
            </p>
          ) : null}
          {c?.externalPath ? <p className="small mono muted">{c.externalPath}</p> : null}
          {detail.vertices.length > 0 ? <VertexTable vertices={detail.vertices} selected={vertexId} onSelect={setChosenVertex} /> : null}
          {vertex ? <SubtaskDetail vertex={vertex} outlying={new Set(detail.outliers.filter((o) => o.vertexId === vertex.vertexId).flatMap((o) => o.subtasks))} /> : null}
        </>
      ) : null}
    </Panel>
  );
}

function VertexTable({ vertices, selected, onSelect }: { vertices: CheckpointVertexView[]; selected: string | null; onSelect: (id: string) => void }): ReactNode {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Vertex</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Acknowledged</th>
            <th scope="col">Latest ack</th>
            <th scope="col" className="num">End-to-end</th>
            <th scope="col" className="num">Checkpointed</th>
            <th scope="col" className="num">Full size</th>
            <th scope="col" className="num">Processed</th>
            <th scope="col" className="num">Persisted</th>
          </tr>
        </thead>
        <tbody>
          {vertices.map((v) => (
            <tr key={v.vertexId} className={`clickable${v.vertexId === selected ? ' is-selected' : ''}`} data-testid={testIds.checkpoints.vertexRow(v.vertexId)} onClick={() => onSelect(v.vertexId)}>
              <td>
                <button type="button" className="link-button" title={`Show the subtasks of ${v.name}`}>
                  {v.name}
                </button>
              </td>
              <td className="small">{v.status}</td>
              <td className="num">
                {v.numAcknowledgedSubtasks}/{v.numSubtasks}
              </td>
              <td className="nowrap small">{v.latestAckTimestamp == null ? DASH : formatTimestamp(v.latestAckTimestamp, true)}</td>
              <td className="num">{formatMillis(v.endToEndDurationMs)}</td>
              <td className="num">{formatBytes(v.checkpointedBytes)}</td>
              <td className="num">{formatBytes(v.stateBytes)}</td>
              <td className="num">{formatBytes(v.processedBytes)}</td>
              <td className="num">{formatBytes(v.persistedBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SubtaskDetail({ vertex, outlying }: { vertex: CheckpointVertexView; outlying: Set<number> }): ReactNode {
  const rows = useMemo(
    () => (vertex.subtasks ?? []).map((s) => ({ ...s, label: String(s.index), outlier: outlying.has(s.index) })),
    [vertex, outlying],
  );
  if (!vertex.subtasks) return <p className="muted small">Subtasks of {vertex.name}: {vertex.subtasksUnavailable ?? 'not stored.'}</p>;
  return (
    <section className="checkpoint-subtasks" aria-label={`Subtasks of ${vertex.name}`}>
      <h3 className="chart-title">
        Subtasks of {vertex.name}: where the end-to-end time went
      </h3>
      <ResponsiveContainer width="100%" height={180}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="#273142" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: '#98a4b5', fontSize: 10 }} stroke="#98a4b5" interval="preserveStartEnd" />
          <YAxis tickFormatter={(v: number) => formatMillis(v)} tick={{ fill: '#98a4b5', fontSize: 11 }} stroke="#98a4b5" width={64} />
          <Tooltip
            contentStyle={{ background: '#151b24', border: '1px solid #3a4658', fontSize: 12 }}
            labelFormatter={(label) => `Subtask ${String(label)}`}
            formatter={(v, name) => [formatMillis(Number(v)), name]}
          />
          {PARTS.map((part) => (
            <Bar key={part.key} dataKey={part.key} name={part.name} stackId="parts" fill={part.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <ul className="chart-legend small">
        {PARTS.map((part) => (
          <li key={part.key}>
            <span className="chart-legend__swatch" style={{ background: part.color }} /> {part.name.toLowerCase()}
          </li>
        ))}
      </ul>
      <div className="table-wrap checkpoint-subtask-table">
        <table className="table" data-testid={testIds.checkpoints.subtaskTable}>
          <thead>
            <tr>
              <th scope="col" className="num">#</th>
              <th scope="col">Ack time</th>
              <th scope="col" className="num">End-to-end</th>
              <th scope="col" className="num">Start delay</th>
              <th scope="col" className="num">Alignment</th>
              <th scope="col" className="num" title="Alignment buffered / processed / persisted in-flight data">Buffered</th>
              <th scope="col" className="num">Sync</th>
              <th scope="col" className="num">Async</th>
              <th scope="col" className="num">Checkpointed</th>
              <th scope="col" className="num">Full size</th>
              <th scope="col">Unaligned</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.index} className={s.outlier ? 'is-outlier' : undefined} data-testid={testIds.checkpoints.subtaskRow(s.index)} data-outlier={s.outlier ? 'true' : undefined}>
                <td className="num">{s.index}</td>
                <td className="nowrap small">{s.status === 'completed' ? formatTimestamp(s.ackTimestamp, true) : 'not acknowledged'}</td>
                <td className="num">{formatMillis(s.endToEndDurationMs)}</td>
                <td className="num">{formatMillis(s.startDelayMs)}</td>
                <td className="num">{formatMillis(s.alignmentDurationMs)}</td>
                <td className="num small">
                  {formatBytes(s.alignmentBufferedBytes)} / {formatBytes(s.alignmentProcessedBytes)} / {formatBytes(s.alignmentPersistedBytes)}
                </td>
                <td className="num">{formatMillis(s.syncDurationMs)}</td>
                <td className="num">{formatMillis(s.asyncDurationMs)}</td>
                <td className="num">{formatBytes(s.checkpointedBytes)}</td>
                <td className="num">{formatBytes(s.stateBytes)}</td>
                <td className="small">{s.unaligned == null ? DASH : s.unaligned ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
