import { useMemo, useState, type ReactNode } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryMarker, JobMetricsHistory, VertexMetricSeries } from '../../../engine/contracts/history';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import type { JobTabProps } from '../job-graph/JobTabs';
import { MetricWindowChoice, useMetricWindow } from './MetricWindowChoice';
import { readingsInWords } from './readingsInWords';
import { clockTime } from './windows';
import { useHistoryApi } from '../history/api';

/** Vertices charted before "show all": the busiest first. */
const FIRST_VERTICES = 12;

const LINES = [
  { key: 'busyMax', name: 'Busy, busiest subtask', color: '#f85149' },
  { key: 'busyAvg', name: 'Busy, average', color: '#f0883e', dash: '4 3' },
  { key: 'backPressuredMax', name: 'Back-pressured, most', color: '#5aa9ff' },
] as const;

/**
 * Busy time and backpressure per vertex over a time window, from the console's history: one small chart per vertex,
 * gaps in the samples drawn as gaps (shaded), restarts and JobManager failovers marked.
 */
export function MetricsHistoryTab({ clusterId, jobId, refresh }: JobTabProps): ReactNode {
  const historyApi = useHistoryApi();
  const chosen = useMetricWindow();
  const [showAll, setShowAll] = useState(false);
  const window = chosen.window;
  const poll = usePolling<JobMetricsHistory>(() => historyApi.metrics(clusterId, jobId, window.ms, chosen.end), window.follows ? refresh.intervalMs : null, {
    key: `${clusterId}/${jobId}/${chosen.key}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const data = poll.data;
  const vertices = useMemo(() => {
    const sorted = [...(data?.vertices ?? [])].sort((a, b) => (b.peakBusyMax ?? -1) - (a.peakBusyMax ?? -1));
    return showAll ? sorted : sorted.slice(0, FIRST_VERTICES);
  }, [data, showAll]);

  return (
    <Panel
      title="Busy time and backpressure over time"
      poll={poll}
      testId={testIds.metricsHistory.tab}
      actions={<MetricWindowChoice state={chosen} testId={testIds.metricsHistory.window} />}
    >
      <PollErrorBanner poll={poll} context="Reading the history failed" />
      {data ? (
        <p className="muted small">
          {window.follows ? 'Following the present: ' : 'A fixed window, '}
          {formatTimestamp(data.from)} → {formatTimestamp(data.to)} · {data.samples} samples{sourceInWords(data.samplesFrom)}
          {data.firstSampleAt != null ? ` · recorded since ${formatTimestamp(data.firstSampleAt)}` : ''}. Busy and back-pressured time in ms per second; shaded: no samples.
        </p>
      ) : null}
      {data && data.samples > 0 ? (
        <p className="muted small" data-testid={testIds.metricsHistory.readings}>
          {readingsInWords(data.readings)}
        </p>
      ) : null}
      {!data && !poll.error ? <p className="muted">Loading the history…</p> : null}
      {data && data.samples === 0 ? (
        <p className="empty" data-testid={testIds.metricsHistory.empty}>
          No samples of this job in this window{data.lastSampleAt != null ? ` (the last one is from ${formatTimestamp(data.lastSampleAt)})` : ''}.
        </p>
      ) : null}
      {data && data.samples > 0 ? (
        <>
          <ul className="chart-legend small">
            {LINES.map((l) => (
              <li key={l.key}>
                <span className="chart-legend__line" style={{ borderColor: l.color, borderStyle: 'dash' in l ? 'dashed' : 'solid' }} /> {l.name}
              </li>
            ))}
            <li>
              <span className="chart-legend__line" style={{ borderColor: '#f0883e', borderStyle: 'dashed' }} /> restart / failover
            </li>
          </ul>
          <div className="metric-charts">
            {vertices.map((v) => (
              <VertexChart key={v.vertexId} vertex={v} from={data.from} to={data.to} markers={data.markers} />
            ))}
          </div>
          <MarkerList markers={data.markers} />
          {data.vertices.length > FIRST_VERTICES ? (
            <button type="button" className="button button--small" onClick={() => setShowAll((s) => !s)}>
              {showAll ? `Show the ${FIRST_VERTICES} busiest` : `Show all ${data.vertices.length} vertices`}
            </button>
          ) : null}
        </>
      ) : null}
    </Panel>
  );
}

function VertexChart({ vertex, from, to, markers }: { vertex: VertexMetricSeries; from: number; to: number; markers: HistoryMarker[] }): ReactNode {
  const instants = markers.filter((m) => m.kind === 'restart' || m.kind === 'failover');
  const gaps = markers.filter((m) => m.kind === 'gap');
  return (
    <figure className="metric-chart" data-testid={testIds.metricsHistory.vertexChart(vertex.vertexId)} data-peak-busy={vertex.peakBusyMax ?? ''}>
      <figcaption className="metric-chart__title" title={vertex.name}>
        {vertex.name} <span className="muted small">· parallelism {vertex.parallelism}</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={120}>
        <LineChart data={vertex.points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#273142" vertical={false} />
          <XAxis dataKey="t" type="number" domain={[from, to]} tickFormatter={clockTime} tick={{ fill: '#98a4b5', fontSize: 10 }} stroke="#98a4b5" minTickGap={40} />
          <YAxis domain={[0, 1000]} ticks={[0, 500, 1000]} tick={{ fill: '#98a4b5', fontSize: 10 }} stroke="#98a4b5" width={36} />
          <Tooltip
            contentStyle={{ background: '#151b24', border: '1px solid #3a4658', fontSize: 12 }}
            labelFormatter={(t) => formatTimestamp(Number(t))}
            formatter={(v, name) => [v == null ? 'no sample' : `${Math.round(Number(v))} ms/s`, name]}
          />
          {gaps.map((g) => (
            <ReferenceArea key={`gap-${g.t}`} x1={Math.max(g.t, from)} x2={Math.min(g.until ?? to, to)} fill="#8b949e" fillOpacity={0.15} ifOverflow="hidden" />
          ))}
          {instants.map((m) => (
            <ReferenceLine key={`${m.kind}-${m.t}`} x={m.t} stroke="#f0883e" strokeDasharray="3 3" ifOverflow="hidden" />
          ))}
          {LINES.map((l) => (
            <Line
              key={l.key}
              type="linear"
              dataKey={l.key}
              name={l.name}
              stroke={l.color}
              strokeDasharray={'dash' in l ? l.dash : undefined}
              dot={false}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

const MARKER_LABEL: Record<HistoryMarker['kind'], string> = {
  gap: 'no samples',
  restart: 'restart',
  failover: 'JobManager failover',
  restored: 'restored',
  state: 'state',
  gone: 'job gone',
  watch: 'watch',
  store: 'metrics store',
};

/** What happened in the window, in words: the markers on the charts, listed. */
function MarkerList({ markers }: { markers: HistoryMarker[] }): ReactNode {
  const shown = markers.filter((m) => m.kind !== 'watch');
  if (shown.length === 0) return null;
  return (
    <section className="history-events" aria-label="Events in this window" data-testid={testIds.metricsHistory.events}>
      <h3 className="chart-title">Events in this window</h3>
      <ul className="small">
        {shown.map((m) => (
          <li key={`${m.kind}-${m.t}`} data-kind={m.kind}>
            <span className="mono">{clockTime(m.t)}</span>
            {m.kind === 'gap' ? ` → ${m.until == null ? 'now' : clockTime(m.until)}` : ''} <strong>{MARKER_LABEL[m.kind]}</strong>: {m.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Where the window's samples came from, said when the metrics store gave any. */
function sourceInWords({ jobManager, prometheus }: JobMetricsHistory['samplesFrom']): string {
  if (prometheus === 0) return '';
  return jobManager === 0 ? ' from the metrics store (Prometheus)' : ` (${prometheus} from the metrics store, ${jobManager} sampled from the JobManager while it was silent)`;
}
