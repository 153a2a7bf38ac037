import { Handle, NodeToolbar, Position, useStore, type Node, type NodeProps } from '@xyflow/react';
import { memo, type ReactNode } from 'react';
import type { VertexView } from '../../../engine/contracts/jobs';
import { formatMsPerSecond, formatRate } from '../../components/format';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL, paintVertex } from './colors';
import { detailLevel, showsCallout, type DetailLevel } from './levelOfDetail';

/** Why the graph leads the eye to a vertex: the hottest one, or the one the caller focuses (the diagnosis's). */
export type VertexMark = 'hottest' | 'focus';

export interface VertexNodeData extends Record<string, unknown> {
  vertex: VertexView;
  selected: boolean;
  /** The job's state when it is not RUNNING: the node then shows no figures, only that there are none. */
  jobNotRunning: string | null;
  mark: VertexMark | null;
}

export type VertexFlowNode = Node<VertexNodeData, 'vertex'>;


/** The node re-renders only when the zoom crosses a level (see levelOfDetail.ts), not on every zoom step. */
const levelOf = (s: { transform: [number, number, number] }): DetailLevel => detailLevel(s.transform[2]);

const MARK_LABEL: Record<VertexMark, string> = { hottest: 'Hottest', focus: 'Diagnosis' };

function VertexNodeView({ data }: NodeProps<VertexFlowNode>): ReactNode {
  const { vertex, selected, jobNotRunning, mark } = data;
  // Few keys over lightly loaded subtasks reads 3-4× too: only a busy hot subtask is an alarm (see busySkewIsAlarm).
  const skewAlarm = vertex.busySkewAlarm === true;
  const level = useStore(levelOf);
  const compact = level !== 'figures';
  const paint = paintVertex(vertex);
  const busyMax = vertex.busyTimeMsPerSecond?.max ?? null;
  const bpMax = vertex.backPressuredTimeMsPerSecond?.max ?? null;
  const bpLevel = vertex.backpressureLevel;
  const unavailable = vertex.metricsUnavailable;
  const title = [
    vertex.name,
    `Parallelism ${vertex.parallelism}${vertex.maxParallelism ? ` (max ${vertex.maxParallelism})` : ''}`,
    `Status ${vertex.status}`,
    ...(jobNotRunning
      ? [`No rates: the job is ${jobNotRunning}`]
      : unavailable
        ? [`Metrics unavailable: ${unavailable}`]
        : [
            `Flink's latest figures (not a window): busy max ${formatMsPerSecond(busyMax)}, back-pressured max ${formatMsPerSecond(bpMax)}`,
            ...(vertex.busySkew !== null ? [`Busy skew (max/avg over subtasks) ${vertex.busySkew.toFixed(1)}×`] : []),
            ...(vertex.dataSkewPercent != null ? [`Data Skew ${formatDataSkew(vertex.dataSkewPercent)} (Flink's, of records in, as its Web UI shows it)`] : []),
          ]),
    ...(vertex.metricsFetchedAt !== undefined ? [`Metrics sampled at ${new Date(vertex.metricsFetchedAt).toLocaleTimeString()} (a large job's vertices are sampled in turns)`] : []),
    'Click for subtasks',
  ].join('\n');

  return (
    <div
      className={`vertex vertex--lod-${level}${selected ? ' vertex--selected' : ''}${compact ? ' vertex--compact' : ''}${unavailable ? ' vertex--no-metrics' : ''}${mark ? ` vertex--${mark}` : ''}`}
      style={{ background: paint.fill }}
      data-testid={testIds.jobGraph.vertex(vertex.id)}
      data-lod={level}
      data-mark={mark ?? undefined}
      data-busy={busyMax ?? ''}
      data-backpressure={bpLevel ?? ''}
      data-skew={vertex.busySkew ?? ''}
      data-data-skew={vertex.dataSkewPercent ?? ''}
      data-metrics={unavailable ? 'unavailable' : vertex.metricsFetchedAt !== undefined ? 'earlier-sample' : 'current'}
      data-skew-alarm={skewAlarm ? 'true' : 'false'}
      data-marked={mark === 'focus' ? 'true' : 'false'}
      title={title}
    >
      {paint.hatch > 0 ? <div className="vertex__hatch" style={{ width: `${paint.hatch * 100}%` }} aria-hidden="true" /> : null}
      <Handle type="target" position={Position.Left} isConnectable={false} className="vertex__handle" />
      {mark ? (
        <NodeToolbar isVisible={showsCallout(level)} position={Position.Top} offset={6} className={`vertex-callout vertex-callout--${mark}`}>
          <span className="vertex-callout__mark">{MARK_LABEL[mark]}</span> {vertex.name}
          {busyMax != null ? <span className="vertex-callout__figure"> · busy {formatMsPerSecond(busyMax)}</span> : null}
        </NodeToolbar>
      ) : null}
      <div className="vertex__content">
        {level === 'colour' ? null : (
          <div className="vertex__name" data-testid={testIds.jobGraph.vertexName}>
            {vertex.name}
          </div>
        )}
        {compact ? null : (
          <>
            <div className="vertex__row">
              <span className="vertex__chip" data-testid={testIds.jobGraph.vertexParallelism} data-parallelism={vertex.parallelism}>
                Parallelism: {vertex.parallelism}
              </span>
              <span className="vertex__chip" data-testid={testIds.jobGraph.vertexStatus}>
                {vertex.status}
              </span>
            </div>
            {jobNotRunning ? (
              // Same three rows as the figures, so the node keeps the height the layout gave it.
              <>
                <div className="vertex__row vertex__metrics vertex__no-rates" data-testid={testIds.jobGraph.vertexNoRates}>
                  no rates: the job is {jobNotRunning}
                </div>
                <div className="vertex__row vertex__metrics" aria-hidden="true">&nbsp;</div>
                <div className="vertex__row vertex__metrics" aria-hidden="true">&nbsp;</div>
              </>
            ) : (
              <>
                <div className="vertex__row vertex__metrics" title="Flink's latest figures, not a window">
                  <span className="vertex__when">now</span>
                  <span>in {formatRate(vertex.recordsInPerSecond)}</span>
                  <span>out {formatRate(vertex.recordsOutPerSecond)}</span>
                </div>
                <div className="vertex__row vertex__metrics">
                  <span>busy max {formatMsPerSecond(busyMax)}</span>
                  <span className={`bp bp--${bpLevel ?? 'none'}`}>BP {bpLevel ? BACKPRESSURE_LABEL[bpLevel] : '—'}</span>
                </div>
                {/* Always drawn, so a node keeps the height the layout gave it when metrics arrive or go. */}
                <div className="vertex__row vertex__metrics">
                  {unavailable ? (
                    <span className="vertex__unavailable" data-testid={testIds.jobGraph.vertexMetricsUnavailable} title={unavailable}>
                      ⚠ metrics unavailable
                    </span>
                  ) : (
                    <span
                      className={skewAlarm ? 'vertex__skew--hot' : 'vertex__skew--calm'}
                      title={
                        skewAlarm
                          ? 'Busy skew: the busiest subtask is busy and far above the average (a hot key shows as many ×)'
                          : 'Busy skew: the busiest subtask over the average. Not an alarm: no subtask is busy (fewer keys than subtasks reads high too)'
                      }
                    >
                      skew max/avg {vertex.busySkew === null ? '—' : `${vertex.busySkew.toFixed(1)}×`}
                      {vertex.dataSkewPercent != null ? (
                        <span data-testid={testIds.jobGraph.vertexDataSkew}> · Data Skew {formatDataSkew(vertex.dataSkewPercent)}</span>
                      ) : null}
                    </span>
                  )}
                </div>
              </>
            )}
          </>
        )}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} className="vertex__handle" />
    </div>
  );
}

export const VertexNode = memo(VertexNodeView);

/** As Flink's Web UI prints it: a whole percent. */
function formatDataSkew(percent: number): string {
  return `${Math.round(percent)}%`;
}
