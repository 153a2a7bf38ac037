import { useMemo, useState, type ReactNode } from 'react';
import { SKEW_METRIC_LABEL, SKEW_METRICS, SKEW_METRIC_UNIT, type HeatmapRow, type JobDiagnosis, type SkewHeatmap, type SkewMetric } from '../../../engine/contracts/diagnosis';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { DASH } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { formatMetricValue, formatPercent, formatTimes } from './format';
import { Heatmap } from './Heatmap';
import { arrangeRows, DEFAULT_FILTER, type RowFilter, type RowOrder } from './heatmapModel';
import { skewFindingOf } from './finding';
import { KeyLookup, type KeyedVertex } from './KeyLookup';
import { nextSkewSort, skewTableRows, type SkewColumn, type SkewSort } from './skewTable';
import { SubtaskBars } from './SubtaskBars';
import './diagnosis.css';
import { useDiagnosisApi } from './api';

const PATTERN_LABEL: Record<JobDiagnosis['vertices'][number]['pattern'], string> = {
  hot: 'hot subtask',
  'few-keys': 'fewer keys than subtasks',
  even: 'even',
  idle: 'idle',
  unknown: 'no figures',
};

const TABLE_COLUMNS: Array<{ column: SkewColumn; label: string; title?: string; numeric?: boolean }> = [
  { column: 'name', label: 'Vertex' },
  { column: 'parallelism', label: 'P', numeric: true, title: 'Parallelism' },
  { column: 'pattern', label: 'Load', title: 'How the load spreads: a hot subtask (skew), fewer active keys than subtasks (not skew), even' },
  { column: 'dataSkewPercent', label: 'Flink skew', numeric: true, title: "Flink's own Data Skew: mean absolute deviation / mean × 100, capped at 100" },
  { column: 'maxOverMean', label: 'max/mean', numeric: true },
  { column: 'maxOverMedian', label: 'max/median', numeric: true },
  { column: 'max', label: 'Max', numeric: true },
  { column: 'hot', label: 'Hot subtasks', title: 'Above mean + 3 × MAD of the others and far above them (index @ TaskManager)' },
];

/**
 * Per-subtask skew over the diagnosis window: the heatmap of every vertex × subtask for a metric, bars for one
 * vertex, the skew table with Flink's figures, and the key lookup. Its own feature; the job page only places it.
 */
export function SkewPanel({
  clusterId,
  jobId,
  windowMs,
  diagnosis,
  refresh,
  highlight,
  onOpenSubtask,
  onOpenState,
  onOpenAdvice,
}: {
  clusterId: string;
  jobId: string;
  windowMs: number;
  diagnosis: JobDiagnosis | null;
  refresh: ClusterRefresh;
  /** The finding's subtask, outlined until the operator looks a key up or picks a cell. */
  highlight: { vertexId: string; subtask: number } | null;
  onOpenSubtask: (vertexId: string, subtask: number, metric: SkewMetric) => void;
  /** The checkpointed-state metric's way to the State tab, on that vertex (null: the vertex the sentence names). */
  onOpenState?: (vertexId: string | null) => void;
  /** The Advice panel (salting beside a rescale), with the key looked up if any. */
  onOpenAdvice?: (key: string | null) => void;
}): ReactNode {
  const diagnosisApi = useDiagnosisApi();
  const [metric, setMetric] = useState<SkewMetric>('busyTimeMsPerSecond');
  const [aggregate, setAggregate] = useState<'mean' | 'max'>('mean');
  const [filter, setFilter] = useState<RowFilter>(DEFAULT_FILTER);
  const [perRow, setPerRow] = useState(false);
  const [picked, setPicked] = useState<{ vertexId: string; subtask: number } | null>(null);
  const [barsVertex, setBarsVertex] = useState<string | null>(null);
  const [tableSort, setTableSort] = useState<SkewSort>({ column: 'dataSkewPercent', direction: 'desc' });

  const poll = usePolling<SkewHeatmap>(() => diagnosisApi.skewHeatmap(clusterId, jobId, windowMs, metric, aggregate), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${windowMs}/${metric}/${aggregate}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
  });
  const heatmap = poll.data;
  const rows = useMemo(() => (heatmap ? arrangeRows(heatmap.rows, filter) : []), [heatmap, filter]);
  const mark = picked ?? highlight;
  const barsRow = heatmap?.rows.find((r) => r.vertexId === (barsVertex ?? mark?.vertexId)) ?? rows.find((r) => r.hot.length > 0) ?? null;
  // The State tab opens on the vertex the bars show, else on the one holding the most state.
  const stateRow = barsRow ?? largestRow(rows);
  const tableRows = useMemo(() => (diagnosis ? skewTableRows(diagnosis.vertices, metric, filter, tableSort) : []), [diagnosis, metric, filter, tableSort]);
  // Keyed vertices for the key lookup, the hot ones first: that is where an operator looks a key up.
  const keyed = useMemo<KeyedVertex[]>(
    () =>
      (diagnosis?.vertices ?? [])
        .filter((v) => v.keyed && v.maxParallelism)
        .sort((a, b) => Number(b.pattern === 'hot') - Number(a.pattern === 'hot'))
        .map((v) => ({ vertexId: v.vertexId, name: v.name, parallelism: v.parallelism, maxParallelism: v.maxParallelism! })),
    [diagnosis],
  );

  const openCell = (vertexId: string, subtask: number) => {
    setPicked({ vertexId, subtask });
    setBarsVertex(vertexId);
    onOpenSubtask(vertexId, subtask, metric);
  };

  return (
    <Panel
      className="skew-panel"
      testId={testIds.diagnosis.skewPanel}
      title={
        <>
          Per-subtask skew <span className="muted small">· {heatmap ? `${heatmap.window.samples} samples` : '…'}</span>
        </>
      }
      poll={poll}
    >
      <PollErrorBanner poll={poll} context="Loading the heatmap failed" />
      <div className="skew-controls">
        <label>
          <span className="muted small">Metric</span>
          <select value={metric} onChange={(e) => setMetric(e.target.value as SkewMetric)} aria-label="Heatmap metric">
            {SKEW_METRICS.map((m) => (
              <option key={m} value={m}>
                {SKEW_METRIC_LABEL[m]} ({SKEW_METRIC_UNIT[m]})
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted small">Over the window</span>
          <select value={aggregate} onChange={(e) => setAggregate(e.target.value as 'mean' | 'max')} aria-label="Aggregate">
            <option value="mean">mean</option>
            <option value="max">max of samples</option>
          </select>
        </label>
        <label>
          <span className="muted small">Rows</span>
          <select value={filter.order} onChange={(e) => setFilter({ ...filter, order: e.target.value as RowOrder })} aria-label="Row order">
            <option value="graph">graph order</option>
            <option value="skew">Flink skew, worst first</option>
            <option value="maxOverMean">max/mean, worst first</option>
            <option value="name">name</option>
          </select>
        </label>
        <label>
          <span className="muted small">Filter</span>
          <input className="search" value={filter.text} onChange={(e) => setFilter({ ...filter, text: e.target.value })} placeholder="vertex name" aria-label="Filter vertices" />
        </label>
        <label className="skew-controls__check">
          <input type="checkbox" checked={filter.hotOnly} onChange={(e) => setFilter({ ...filter, hotOnly: e.target.checked })} /> hot only
        </label>
        <label className="skew-controls__check">
          <input type="checkbox" checked={filter.keyedOnly} onChange={(e) => setFilter({ ...filter, keyedOnly: e.target.checked })} /> keyed only
        </label>
        <label className="skew-controls__check" title="Colour each vertex on its own scale, so a quiet vertex's skew shows too">
          <input type="checkbox" checked={perRow} onChange={(e) => setPerRow(e.target.checked)} /> scale per vertex
        </label>
        {metric === 'checkpointedStateBytes' && onOpenState ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => onOpenState(stateRow?.vertexId ?? null)}
            title="Each subtask's state over time, its growth and key groups, and the likeliest reason why"
            data-testid={testIds.state.openFromHeatmap}
          >
            State of {stateRow ? stateRow.name : 'the job'} →
          </button>
        ) : null}
        {onOpenAdvice && skewFindingOf(diagnosis) !== null ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => onOpenAdvice(null)}
            title="Salting beside a rescale for the hot key of the skewed vertex"
            data-testid={testIds.advice.openFromSkew}
          >
            Advise on a fix →
          </button>
        ) : null}
      </div>

      {heatmap && rows.length > 0 ? (
        <Heatmap heatmap={heatmap} rows={rows} perRow={perRow} highlight={mark} onSelectCell={openCell} />
      ) : heatmap ? (
        <p className="muted">{heatmap.rows.length === 0 ? 'No samples of this job yet: the heatmap fills while this page is open.' : 'No vertex matches the filter.'}</p>
      ) : !poll.error ? (
        <p className="muted">Loading the heatmap…</p>
      ) : null}

      {heatmap && barsRow ? <SubtaskBars heatmap={heatmap} row={barsRow} onSelectSubtask={(k) => openCell(barsRow.vertexId, k)} /> : null}

      {diagnosis ? (
        <div className="table-wrap">
          <table className="table skew-table" data-testid={testIds.diagnosis.skewTable}>
            <thead>
              <tr>
                {TABLE_COLUMNS.map((c) => {
                  const active = tableSort.column === c.column;
                  return (
                    <th key={c.column} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={active ? (tableSort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                      <button type="button" className="sort-button" title={c.title} onClick={() => setTableSort((s) => nextSkewSort(s, c.column))}>
                        {c.label}
                        <span className="sort-button__arrow" aria-hidden="true">
                          {active ? (tableSort.direction === 'asc' ? '▲' : '▼') : ''}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {tableRows.map(({ vertex, figures }) => (
                <tr
                  key={vertex.vertexId}
                  data-testid={testIds.diagnosis.skewRow(vertex.vertexId)}
                  data-pattern={vertex.pattern}
                  className={barsRow?.vertexId === vertex.vertexId ? 'is-selected' : undefined}
                  onClick={() => setBarsVertex(vertex.vertexId)}
                >
                  <td className="skew-table__name" title={vertex.name}>
                    {vertex.name}
                    {vertex.keyed ? <span className="muted small"> · keyed</span> : null}
                  </td>
                  <td className="num">{vertex.parallelism}</td>
                  <td>
                    <span className={`diag-pattern diag-pattern--${vertex.pattern}`}>{vertex.unavailable ? vertex.unavailable : PATTERN_LABEL[vertex.pattern]}</span>
                  </td>
                  <td className="num">{formatPercent(figures?.dataSkewPercent)}</td>
                  <td className="num">{formatTimes(figures?.maxOverMean)}</td>
                  <td className="num">{formatTimes(figures?.maxOverMedian)}</td>
                  <td className="num">{figures?.max == null ? DASH : formatMetricValue(figures.max, SKEW_METRIC_UNIT[metric])}</td>
                  <td>
                    {figures && figures.hot.length > 0
                      ? figures.hot.map((h) => (
                          <button
                            key={h.subtask}
                            type="button"
                            className="button button--tiny diag-hot-button"
                            title={`${formatMetricValue(h.value, SKEW_METRIC_UNIT[metric])}, ${formatTimes(h.timesMean)} the mean · ${h.endpoint ?? h.taskManagerId ?? 'TaskManager unknown'}`}
                            onClick={(e) => {
                              e.stopPropagation();
                              openCell(vertex.vertexId, h.subtask);
                            }}
                          >
                            {h.subtask} @ {h.endpoint ?? h.taskManagerId ?? '?'}
                          </button>
                        ))
                      : DASH}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <h3 className="skew-panel__subtitle">Which subtask owns a key?</h3>
      <KeyLookup
        vertices={keyed}
        onLocated={(vertexId, subtask) => {
          setPicked({ vertexId, subtask });
          setBarsVertex(vertexId);
        }}
        onAdvise={onOpenAdvice && skewFindingOf(diagnosis) !== null ? (key) => onOpenAdvice(key) : undefined}
      />
    </Panel>
  );
}

function largestRow(rows: HeatmapRow[]): HeatmapRow | null {
  let best: { row: HeatmapRow; sum: number } | null = null;
  for (const row of rows) {
    const sum = row.values.reduce<number>((total, v) => total + (v ?? 0), 0);
    if (sum > 0 && (!best || sum > best.sum)) best = { row, sum };
  }
  return best?.row ?? null;
}
