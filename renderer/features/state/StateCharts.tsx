import type { ReactNode } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StateVertexView } from '../../../engine/contracts/state';
import { formatBytes, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { chartedSubtasks, subtaskChartRows } from './stateFormat';

const AXIS = { stroke: '#98a4b5', fontSize: 11 };
const GRID = '#273142';
const TOOLTIP = { contentStyle: { background: '#151b24', border: '1px solid #3a4658', fontSize: 12 }, labelStyle: { color: '#e6edf3' } };
const COLORS = ['#ff7b72', '#2f81f7', '#d29922', '#a371f7', '#3fb950'];
const TOP_SUBTASKS = 4;

/** A vertex's state over its checkpoints: the total, and the top few subtasks (hot first) with the rest summed. */
export function StateCharts({ vertex }: { vertex: StateVertexView }): ReactNode {
  const charted = chartedSubtasks(vertex, TOP_SUBTASKS);
  const rows = subtaskChartRows(vertex.series, charted);
  const hasRest = vertex.subtasks.length > charted.length;
  const time = (t: unknown) => formatTimestamp(Number(t));
  return (
    <div className="state-charts" data-testid={testIds.state.chart(vertex.vertexId)} data-points={vertex.series.length}>
      <div>
        <h4 className="chart-title">Vertex total</h4>
        <ResponsiveContainer width="100%" height={160}>
          <LineChart data={vertex.series} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid stroke={GRID} vertical={false} />
            <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tickFormatter={time} tick={AXIS} stroke={AXIS.stroke} minTickGap={24} />
            <YAxis tickFormatter={(v: number) => formatBytes(v)} tick={AXIS} stroke={AXIS.stroke} width={72} />
            <Tooltip {...TOOLTIP} labelFormatter={time} formatter={(v) => [formatBytes(Number(v)), 'Total']} />
            <Line dataKey="totalBytes" name="Total" stroke="#5aa9ff" dot={false} isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div>
        <h4 className="chart-title">Per subtask</h4>
        <ResponsiveContainer width="100%" height={160}>
          <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid stroke={GRID} vertical={false} />
            <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tickFormatter={time} tick={AXIS} stroke={AXIS.stroke} minTickGap={24} />
            <YAxis tickFormatter={(v: number) => formatBytes(v)} tick={AXIS} stroke={AXIS.stroke} width={72} />
            <Tooltip {...TOOLTIP} labelFormatter={time} formatter={(v, name) => [formatBytes(Number(v)), name]} />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            {charted.map((k, i) => (
              <Line key={k} dataKey={`s${k}`} name={`Subtask ${k}${vertex.hotSubtasks.includes(k) ? ' (hot)' : ''}`} stroke={COLORS[i % COLORS.length]} dot={false} isAnimationActive={false} connectNulls />
            ))}
            {hasRest ? <Line dataKey="rest" name={`The other ${vertex.subtasks.length - charted.length} (sum)`} stroke="#98a4b5" strokeDasharray="4 3" dot={false} isAnimationActive={false} connectNulls /> : null}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
