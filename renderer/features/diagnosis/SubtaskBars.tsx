import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Bar, BarChart, Cell, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HeatmapRow, KeyGroupRangeView, SkewHeatmap } from '../../../engine/contracts/diagnosis';
import { testIds } from '../../testIds';
import { formatMetricValue, formatPercent, formatTimes } from './format';
import { useDiagnosisApi } from './api';

interface Datum {
  subtask: number;
  value: number | null;
  hot: boolean;
  taskManager: string;
  keyGroups: string | null;
}

/** One vertex's subtasks as bars: the skew at a glance, hot ones red, the mean as a line, key groups in the tooltip. */
export function SubtaskBars({ heatmap, row, onSelectSubtask }: { heatmap: SkewHeatmap; row: HeatmapRow; onSelectSubtask: (subtask: number) => void }): ReactNode {
  const diagnosisApi = useDiagnosisApi();
  const [ranges, setRanges] = useState<KeyGroupRangeView[] | null>(null);
  useEffect(() => {
    let live = true;
    setRanges(null);
    if (row.keyed && row.maxParallelism) {
      diagnosisApi.keyGroupRanges(row.maxParallelism, row.parallelism).then(
        (r) => live && setRanges(r),
        () => live && setRanges(null),
      );
    }
    return () => {
      live = false;
    };
  }, [diagnosisApi, row.keyed, row.maxParallelism, row.parallelism]);

  const data = useMemo<Datum[]>(
    () =>
      row.values.map((value, subtask) => {
        const tm = heatmap.taskManagers[row.taskManagers[subtask]];
        const range = ranges?.[subtask];
        return {
          subtask,
          value,
          hot: row.hot.includes(subtask),
          taskManager: tm ? (tm.endpoint ?? tm.id) : 'unknown',
          keyGroups: range ? `${range.startKeyGroup}–${range.endKeyGroup}` : null,
        };
      }),
    [row, heatmap.taskManagers, ranges],
  );
  const counted = row.values.filter((v): v is number => v !== null);
  const mean = counted.length > 0 ? counted.reduce((a, b) => a + b, 0) / counted.length : null;

  return (
    <div className="subtask-bars" data-testid={testIds.diagnosis.bars} data-vertex={row.vertexId}>
      <div className="subtask-bars__title">
        <strong>{row.name}</strong>
        <span className="muted small">
          {' '}
          · parallelism {row.parallelism}
          {row.keyed && row.maxParallelism ? ` · ${row.maxParallelism} key groups` : ''} · Flink skew {formatPercent(row.dataSkewPercent)} · max/mean {formatTimes(row.maxOverMean)}
        </span>
      </div>
      <ResponsiveContainer width="100%" height={170}>
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} barCategoryGap={row.parallelism > 64 ? 0 : '15%'}>
          <XAxis dataKey="subtask" tick={{ fill: '#98a4b5', fontSize: 11 }} interval="preserveStartEnd" minTickGap={12} />
          <YAxis tick={{ fill: '#98a4b5', fontSize: 11 }} width={56} domain={heatmap.unit === 'ms/s' ? [0, 1000] : [0, 'auto']} />
          <Tooltip
            cursor={{ fill: 'rgba(255,255,255,0.06)' }}
            contentStyle={{ background: '#151b24', border: '1px solid #3a4658', fontSize: 12 }}
            labelFormatter={(subtask) => `Subtask ${subtask}`}
            formatter={(value, _name, item) => {
              const d = (item as { payload: Datum }).payload;
              return [`${formatMetricValue(value as number | null, heatmap.unit)} · ${d.taskManager}${d.keyGroups ? ` · key groups ${d.keyGroups}` : ''}`, d.hot ? 'hot' : ''];
            }}
          />
          {mean !== null ? <ReferenceLine y={mean} stroke="#98a4b5" strokeDasharray="4 3" /> : null}
          <Bar dataKey="value" isAnimationActive={false} onClick={(d: { payload?: Datum }) => d.payload && onSelectSubtask(d.payload.subtask)} cursor="pointer">
            {data.map((d) => (
              <Cell key={d.subtask} fill={d.hot ? '#f85149' : '#5aa9ff'} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
