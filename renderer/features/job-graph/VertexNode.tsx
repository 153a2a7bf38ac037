import { Handle, Position, useStore, type Node, type NodeProps } from '@xyflow/react';
import { memo, type ReactNode } from 'react';
import type { VertexView } from '../../../engine/contracts/engine-api';
import { formatMsPerSecond, formatRate } from '../../components/format';
import { testIds } from '../../testIds';
import { BACKPRESSURE_LABEL, paintVertex } from './colors';

export interface VertexNodeData extends Record<string, unknown> {
  vertex: VertexView;
  selected: boolean;
  /** The job's state when it is not RUNNING: the node then shows no figures, only that there are none. */
  jobNotRunning: string | null;
  /** The diagnosis names this vertex as the cause. */
  marked?: boolean;
}

export type VertexFlowNode = Node<VertexNodeData, 'vertex'>;


/** Below this zoom a vertex shows only its name, large enough to read on an overview of 200 vertices. */
export const COMPACT_ZOOM = 0.55;

const zoomIsCompact = (s: { transform: [number, number, number] }): boolean => s.transform[2] < COMPACT_ZOOM;

function VertexNodeView({ data }: NodeProps<VertexFlowNode>): ReactNode {
  const { vertex, selected, marked, jobNotRunning } = data;
  // Few keys over lightly loaded subtasks reads 3-4× too: only a busy hot subtask is an alarm (see busySkewIsAlarm).
  const skewAlarm = vertex.busySkewAlarm === true;
  const compact = useStore(zoomIsCompact);
  const paint = paintVertex(vertex);
  const busyMax = vertex.busyTimeMsPerSecond?.max ?? null;
  const bpMax = vertex.backPressuredTimeMsPerSecond?.max ?? null;
  const level = vertex.backpressureLevel;
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
            `Busy max ${formatMsPerSecond(busyMax)}, back-pressured max ${formatMsPerSecond(bpMax)}`,
            ...(vertex.busySkew !== null ? [`Busy skew (max/avg over subtasks) ${vertex.busySkew.toFixed(1)}×`] : []),
          ]),
    ...(vertex.metricsFetchedAt !== undefined ? [`Metrics sampled at ${new Date(vertex.metricsFetchedAt).toLocaleTimeString()} (a large job's vertices are sampled in turns)`] : []),
    'Click for subtasks',
  ].join('\n');

  return (
    <div
      className={`vertex${selected ? ' vertex--selected' : ''}${marked ? ' vertex--marked' : ''}${compact ? ' vertex--compact' : ''}${unavailable ? ' vertex--no-metrics' : ''}`}
      style={{ background: paint.fill }}
      data-testid={testIds.jobGraph.vertex(vertex.id)}
      data-busy={busyMax ?? ''}
      data-backpressure={level ?? ''}
      data-skew={vertex.busySkew ?? ''}
      data-metrics={unavailable ? 'unavailable' : vertex.metricsFetchedAt !== undefined ? 'earlier-sample' : 'current'}
      data-skew-alarm={skewAlarm ? 'true' : 'false'}
      data-marked={marked ? 'true' : 'false'}
      title={title}
    >
      {paint.hatch > 0 ? <div className="vertex__hatch" style={{ width: `${paint.hatch * 100}%` }} aria-hidden="true" /> : null}
      <Handle type="target" position={Position.Left} isConnectable={false} className="vertex__handle" />
      <div className="vertex__content">
        <div className="vertex__name" data-testid={testIds.jobGraph.vertexName}>
          {vertex.name}
        </div>
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
                <div className="vertex__row vertex__metrics">
                  <span>in {formatRate(vertex.recordsInPerSecond)}</span>
                  <span>out {formatRate(vertex.recordsOutPerSecond)}</span>
                </div>
                <div className="vertex__row vertex__metrics">
                  <span>busy max {formatMsPerSecond(busyMax)}</span>
                  <span className={`bp bp--${level ?? 'none'}`}>BP {level ? BACKPRESSURE_LABEL[level] : '—'}</span>
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
