import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type Edge, type EdgeProps } from '@xyflow/react';
import { memo, type ReactNode } from 'react';
import type { Point } from './layout';
import { showsEdgeLabels } from './levelOfDetail';

export interface ShipEdgeData extends Record<string, unknown> {
  strategy: string;
  /** ELK's route: start, bends, end. Empty = draw a bezier between the handles. */
  points: Point[];
  label: Point | null;
}

export type ShipFlowEdge = Edge<ShipEdgeData, 'ship'>;

/** Orthogonal route with rounded corners through ELK's points. */
export function roundedPath(points: readonly Point[], radius = 10): string {
  if (points.length === 0) return '';
  let d = `M ${points[0].x} ${points[0].y}`;
  for (let i = 1; i < points.length - 1; i += 1) {
    const prev = points[i - 1];
    const cur = points[i];
    const next = points[i + 1];
    const inLen = Math.hypot(cur.x - prev.x, cur.y - prev.y);
    const outLen = Math.hypot(next.x - cur.x, next.y - cur.y);
    const r = Math.min(radius, inLen / 2, outLen / 2);
    if (r <= 0.5) {
      d += ` L ${cur.x} ${cur.y}`;
      continue;
    }
    const a = { x: cur.x - ((cur.x - prev.x) / inLen) * r, y: cur.y - ((cur.y - prev.y) / inLen) * r };
    const b = { x: cur.x + ((next.x - cur.x) / outLen) * r, y: cur.y + ((next.y - cur.y) / outLen) * r };
    d += ` L ${a.x} ${a.y} Q ${cur.x} ${cur.y} ${b.x} ${b.y}`;
  }
  const last = points[points.length - 1];
  return `${d} L ${last.x} ${last.y}`;
}

const showLabels = (s: { transform: [number, number, number] }): boolean => showsEdgeLabels(s.transform[2]);

function ShipEdgeView(props: EdgeProps<ShipFlowEdge>): ReactNode {
  const { data, markerEnd, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition } = props;
  const labelsVisible = useStore(showLabels);
  let path: string;
  let labelX: number;
  let labelY: number;
  if (data && data.points.length >= 2) {
    path = roundedPath(data.points);
    const mid = data.label ?? data.points[Math.floor(data.points.length / 2)];
    labelX = mid.x;
    labelY = mid.y;
  } else {
    [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  }
  const strategy = data?.strategy ?? '';
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={markerEnd} className={`ship-edge ship-edge--${strategyClass(strategy)}`} />
      {labelsVisible && strategy ? (
        <EdgeLabelRenderer>
          <div
            className={`edge-label edge-label--${strategyClass(strategy)}`}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={`Ship strategy: ${strategy}`}
          >
            {strategy}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export function strategyClass(strategy: string): string {
  const s = strategy.toUpperCase();
  if (s.startsWith('FORWARD')) return 'forward';
  if (s.startsWith('HASH')) return 'hash';
  if (s.startsWith('REBALANCE')) return 'rebalance';
  if (s.startsWith('RESCALE')) return 'rescale';
  if (s.startsWith('BROADCAST')) return 'broadcast';
  return 'other';
}

export const ShipEdge = memo(ShipEdgeView);
