import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryMarker } from '../../../engine/contracts/history';
import { formatBytes, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { TONE_COLOR, formatMillis, type CheckpointChartRow } from './checkpointFormat';

const AXIS = { stroke: '#98a4b5', fontSize: 11 };
const GRID = '#273142';
const TOOLTIP = { contentStyle: { background: '#151b24', border: '1px solid #3a4658', fontSize: 12 }, labelStyle: { color: '#e6edf3' } };

const SIZE_LINES: Array<{ key: keyof CheckpointChartRow; name: string; color: string; dash?: string }> = [
  { key: 'checkpointedBytes', name: 'Checkpointed size', color: '#5aa9ff' },
  { key: 'stateBytes', name: 'Full size', color: '#e6edf3', dash: '4 3' },
  { key: 'processedBytes', name: 'Processed in-flight data', color: '#d29922' },
  { key: 'persistedBytes', name: 'Persisted in-flight data', color: '#f0883e', dash: '2 2' },
];

/**
 * The recent checkpoints over two small charts sharing the x axis (one bar per checkpoint, oldest left): end-to-end
 * duration (failed red, savepoints purple, in progress grey) and sizes (checkpointed and full, processed and persisted
 * in-flight data). Restarts and JobManager failovers are marked where they fell between checkpoints. A bar opens the
 * checkpoint's detail.
 */
export function CheckpointCharts({
  rows,
  markers,
  selectedKey,
  onSelect,
}: {
  rows: CheckpointChartRow[];
  markers: HistoryMarker[];
  selectedKey: string | null;
  onSelect: (row: CheckpointChartRow) => void;
}): ReactNode {
  const lines = markerLines(rows, markers);
  const label = (key: unknown) => rows.find((r) => r.key === key)?.label ?? String(key);
  const tooltipTitle = (key: unknown) => {
    const row = rows.find((r) => r.key === key);
    return row ? `${row.label} · ${formatTimestamp(row.triggerTimestamp)}` : String(key);
  };
  return (
    <div className="checkpoint-charts" data-testid={testIds.checkpoints.chart}>
      <h3 className="chart-title">End-to-end duration</h3>
      <ResponsiveContainer width="100%" height={170}>
        <BarChart data={rows} syncId="checkpoints" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="key" tickFormatter={label} tick={AXIS} stroke={AXIS.stroke} minTickGap={12} />
          <YAxis tickFormatter={(v: number) => formatMillis(v)} tick={AXIS} stroke={AXIS.stroke} width={64} />
          <Tooltip {...TOOLTIP} labelFormatter={tooltipTitle} formatter={(v) => [formatMillis(Number(v)), 'End-to-end']} cursor={{ fill: 'rgba(90,169,255,0.08)' }} />
          {lines.map((m) => (
            <ReferenceLine key={`${m.kind}-${m.t}`} x={m.key} stroke="#f0883e" strokeDasharray="3 3" label={{ value: m.label, fill: '#f0883e', fontSize: 10, position: 'insideTopLeft' }} />
          ))}
          <Bar dataKey="endToEndDurationMs" name="End-to-end" isAnimationActive={false} onClick={(_, index) => onSelect(rows[index])} cursor="pointer">
            {rows.map((row) => (
              <Cell
                key={row.key}
                fill={TONE_COLOR[row.tone]}
                stroke={row.key === selectedKey ? '#e6edf3' : undefined}
                strokeWidth={row.key === selectedKey ? 2 : 0}
                data-tone={row.tone}
              />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
      <h3 className="chart-title">Sizes</h3>
      <ResponsiveContainer width="100%" height={170}>
        <LineChart data={rows} syncId="checkpoints" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="key" tickFormatter={label} tick={AXIS} stroke={AXIS.stroke} minTickGap={12} />
          <YAxis tickFormatter={(v: number) => formatBytes(v)} tick={AXIS} stroke={AXIS.stroke} width={64} />
          <Tooltip {...TOOLTIP} labelFormatter={tooltipTitle} formatter={(v, name) => [formatBytes(Number(v)), name]} />
          {SIZE_LINES.map((line) => (
            <Line
              key={line.key}
              dataKey={line.key}
              name={line.name}
              stroke={line.color}
              strokeDasharray={line.dash}
              dot={rows.length <= 40 ? { r: 2 } : false}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <ul className="chart-legend small">
        <li><span className="chart-legend__swatch" style={{ background: TONE_COLOR.completed }} /> completed</li>
        <li><span className="chart-legend__swatch" style={{ background: TONE_COLOR.savepoint }} /> savepoint</li>
        <li><span className="chart-legend__swatch" style={{ background: TONE_COLOR.failed }} /> failed</li>
        <li><span className="chart-legend__swatch" style={{ background: TONE_COLOR['in-progress'] }} /> in progress</li>
        {SIZE_LINES.map((line) => (
          <li key={line.key}>
            <span className="chart-legend__line" style={{ borderColor: line.color, borderStyle: line.dash ? 'dashed' : 'solid' }} /> {line.name.toLowerCase()}
          </li>
        ))}
        {lines.length > 0 ? <li><span className="chart-legend__line" style={{ borderColor: '#f0883e', borderStyle: 'dashed' }} /> restart / failover</li> : null}
      </ul>
    </div>
  );
}

/** Restarts and failovers, placed at the first checkpoint triggered after them. */
function markerLines(rows: CheckpointChartRow[], markers: HistoryMarker[]): Array<HistoryMarker & { key: string; label: string }> {
  const out: Array<HistoryMarker & { key: string; label: string }> = [];
  const used = new Set<string>();
  for (const marker of markers) {
    if (marker.kind !== 'restart' && marker.kind !== 'failover') continue;
    const after = rows.find((r) => r.triggerTimestamp >= marker.t);
    if (!after || after === rows[0] || used.has(after.key)) continue;
    used.add(after.key);
    out.push({ ...marker, key: after.key, label: marker.kind === 'failover' ? 'JobManager failover' : 'restart' });
  }
  return out;
}
