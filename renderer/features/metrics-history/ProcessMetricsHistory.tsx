import type { ReactNode } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ProcessMetricPoint, ProcessMetricsHistory as History } from '../../../engine/contracts/history';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { DASH, formatBytes, formatCount, formatInterval, formatMillis, formatTimestamp } from '../../components/format';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { useHistoryApi } from '../history/api';
import { MetricWindowChoice, useMetricWindow } from './MetricWindowChoice';
import { clockTime } from './windows';

const AXIS = { fill: '#98a4b5', fontSize: 10 };
const TOOLTIP = { contentStyle: { background: '#151b24', border: '1px solid #3a4658', fontSize: 12 } };

type Figure = keyof Omit<ProcessMetricPoint, 't'>;
interface ChartLine {
  key: Figure;
  name: string;
  color: string;
  dash?: string;
  /** TaskManagers only (the JobManager has no managed memory or network buffers). */
  taskManagerOnly?: boolean;
}

const MEMORY: ChartLine[] = [
  { key: 'heapUsed', name: 'Heap used', color: '#f85149' },
  { key: 'heapMax', name: 'Heap max', color: '#f85149', dash: '4 3' },
  { key: 'nonHeapUsed', name: 'Non-heap used', color: '#5aa9ff' },
  { key: 'directUsed', name: 'Direct used', color: '#a371f7' },
  { key: 'managedUsed', name: 'Managed used', color: '#3fb950', taskManagerOnly: true },
];
const NETWORK: ChartLine[] = [
  { key: 'networkSegmentsUsed', name: 'In use', color: '#d29922' },
  { key: 'networkSegmentsTotal', name: 'Total', color: '#98a4b5', dash: '4 3' },
];

/**
 * A process's memory, network buffers and garbage collection over a time window, from the console's history (sampled
 * every minute while a job of the cluster is watched), with the windows of the job's metrics charts; gaps drawn as gaps.
 */
export function ProcessMetricsHistory({ clusterId, processId, refresh }: { clusterId: string; processId: string; refresh: ClusterRefresh }): ReactNode {
  const historyApi = useHistoryApi();
  const chosen = useMetricWindow();
  const poll = usePolling<History>(() => historyApi.processMetrics(clusterId, processId, chosen.window.ms, chosen.end), chosen.window.follows ? refresh.intervalMs : null, {
    key: `${clusterId}/${processId}/${chosen.key}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const data = poll.data;
  const taskManager = processId !== 'jobmanager';

  return (
    <section className="process-history" aria-label="Over time" data-testid={testIds.processHistory.panel}>
      <div className="process-history__head">
        <h3 className="chart-title">Over time</h3>
        <MetricWindowChoice state={chosen} testId={testIds.processHistory.window} />
      </div>
      <PollErrorBanner poll={poll} context="Reading the history failed" />
      {!data && !poll.error ? <p className="muted">Loading the history…</p> : null}
      {data ? (
        <p className="muted small">
          {formatTimestamp(data.from)} → {formatTimestamp(data.to)} · {data.samples} sample{data.samples === 1 ? '' : 's'}, one every {formatInterval(data.cadenceMs)} while a job of this cluster is watched
          {data.recording ? '' : ' (none is now: open a job page, or pin a job, to record)'}.
        </p>
      ) : null}
      {data && data.samples === 0 ? (
        <p className="empty" data-testid={testIds.processHistory.empty}>
          No samples of this process in this window{data.lastSampleAt !== null ? ` (the last one is from ${formatTimestamp(data.lastSampleAt)})` : ''}.
        </p>
      ) : null}
      {data && data.latest ? <Latest point={data.latest} taskManager={taskManager} /> : null}
      {data && data.samples > 0 ? (
        <div className="metric-charts">
          <ProcessChart title="Memory" points={data.points} from={data.from} to={data.to} lines={MEMORY.filter((l) => taskManager || !l.taskManagerOnly)} format={formatBytes} testId={testIds.processHistory.chart('memory')} />
          {taskManager ? <ProcessChart title="Network buffers (segments)" points={data.points} from={data.from} to={data.to} lines={NETWORK} format={formatCount} testId={testIds.processHistory.chart('network')} /> : null}
          <GcChart points={data.points} from={data.from} to={data.to} />
        </div>
      ) : null}
    </section>
  );
}

/** The window's newest sample in words: what the charts end on. */
function Latest({ point, taskManager }: { point: ProcessMetricPoint; taskManager: boolean }): ReactNode {
  const of = (used: number | null, max: number | null, format: (n: number) => string) => (used === null ? DASH : `${format(used)}${max === null ? '' : ` of ${format(max)}`}`);
  return (
    <p
      className="small"
      data-testid={testIds.processHistory.latest}
      data-t={point.t}
      data-heap-max={point.heapMax ?? ''}
      data-managed-total={point.managedTotal ?? ''}
      data-network-total={point.networkSegmentsTotal ?? ''}
      data-gc-count={point.gcCount ?? ''}
    >
      At {clockTime(point.t)}: heap {of(point.heapUsed, point.heapMax, formatBytes)} · non-heap {of(point.nonHeapUsed, null, formatBytes)} · direct {of(point.directUsed, point.directMax, formatBytes)}
      {taskManager ? <> · managed {of(point.managedUsed, point.managedTotal, formatBytes)} · network buffers {of(point.networkSegmentsUsed, point.networkSegmentsTotal, formatCount)}</> : null}
      {' '}· GC {point.gcCount === null ? DASH : `${formatCount(point.gcCount)} collections, ${formatMillis(point.gcTimeMs)} in all`}
      {point.gcTimeMsPerSecond !== null ? `, ${formatMillis(point.gcTimeMsPerSecond)}/s lately` : ''}
    </p>
  );
}

function ProcessChart({ title, points, from, to, lines, format, testId }: { title: string; points: ProcessMetricPoint[]; from: number; to: number; lines: ChartLine[]; format: (n: number) => string; testId: string }): ReactNode {
  return (
    <figure className="metric-chart" data-testid={testId} data-points={points.length}>
      <figcaption className="metric-chart__title">{title}</figcaption>
      <ResponsiveContainer width="100%" height={140}>
        <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#273142" vertical={false} />
          <XAxis dataKey="t" type="number" domain={[from, to]} tickFormatter={clockTime} tick={AXIS} stroke={AXIS.fill} minTickGap={40} />
          <YAxis tickFormatter={(v: number) => format(v)} tick={AXIS} stroke={AXIS.fill} width={64} />
          <Tooltip {...TOOLTIP} labelFormatter={(t) => formatTimestamp(Number(t))} formatter={(v, name) => [v == null ? 'no sample' : format(Number(v)), name]} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {lines.map((l) => (
            <Line key={l.key} type="linear" dataKey={l.key} name={l.name} stroke={l.color} strokeDasharray={l.dash} dot={points.length < 3} isAnimationActive={false} connectNulls={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Time in GC per second (left axis) and collections per minute (right), between samples. */
function GcChart({ points, from, to }: { points: ProcessMetricPoint[]; from: number; to: number }): ReactNode {
  return (
    <figure className="metric-chart" data-testid={testIds.processHistory.chart('gc')} data-points={points.length}>
      <figcaption className="metric-chart__title">Garbage collection</figcaption>
      <ResponsiveContainer width="100%" height={140}>
        <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#273142" vertical={false} />
          <XAxis dataKey="t" type="number" domain={[from, to]} tickFormatter={clockTime} tick={AXIS} stroke={AXIS.fill} minTickGap={40} />
          <YAxis yAxisId="time" tick={AXIS} stroke={AXIS.fill} width={40} />
          <YAxis yAxisId="count" orientation="right" tick={AXIS} stroke={AXIS.fill} width={40} />
          <Tooltip
            {...TOOLTIP}
            labelFormatter={(t) => formatTimestamp(Number(t))}
            formatter={(v, name, item) => [v == null ? 'no rate' : item.dataKey === 'gcTimeMsPerSecond' ? `${formatMillis(Number(v))}/s` : `${Number(v).toFixed(1)}/min`, name]}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Line yAxisId="time" type="linear" dataKey="gcTimeMsPerSecond" name="Time in GC (ms/s)" stroke="#f0883e" dot={points.length < 3} isAnimationActive={false} connectNulls={false} />
          <Line yAxisId="count" type="linear" dataKey="gcPerMinute" name="Collections per minute" stroke="#5aa9ff" strokeDasharray="4 3" dot={points.length < 3} isAnimationActive={false} connectNulls={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
