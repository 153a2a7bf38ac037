import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { FLAME_GRAPH_TYPES, type FlameGraphType, type FlameGraphView } from '../../../engine/contracts/flame-graph';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { testIds } from '../../testIds';
import { useInspectApi } from './api';
import { flameBars } from './flameLayout';

const TYPE_LABEL: Record<FlameGraphType, string> = { full: 'All threads', 'on-cpu': 'On-CPU', 'off-cpu': 'Off-CPU' };
const ROW_PX = 18;

/**
 * Flink's flame graph of the vertex or one subtask, asked for when the panel opens or the choice changes (each ask
 * makes Flink sample the task threads, so it is not polled). Frames are drawn as text by React, never as HTML: their
 * names come from the cluster. A click zooms on a frame; the search marks frames and sums their samples.
 */
export function FlameGraphPanel({ clusterId, jobId, vertexId, parallelism, initialSubtask }: { clusterId: string; jobId: string; vertexId: string; parallelism: number; initialSubtask: number | null }): ReactNode {
  const api = useInspectApi();
  const [type, setType] = useState<FlameGraphType>('full');
  const [subtask, setSubtask] = useState<number | null>(initialSubtask !== null && initialSubtask < parallelism ? initialSubtask : null);
  const [asked, setAsked] = useState(0);
  const [state, setState] = useState<{ view: FlameGraphView | null; error: ErrorInfo | null; loading: boolean }>({ view: null, error: null, loading: true });
  const [focus, setFocus] = useState('0');
  const [search, setSearch] = useState('');

  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    api
      .flameGraph(clusterId, jobId, vertexId, { type, ...(subtask === null ? {} : { subtask }) })
      .then((view) => {
        if (!current) return;
        setState({ view, error: null, loading: false });
        setFocus('0');
      })
      .catch((error: unknown) => {
        if (current) setState((s) => ({ ...s, error: toErrorInfo(error), loading: false }));
      });
    return () => {
      current = false;
    };
  }, [api, clusterId, jobId, vertexId, type, subtask, asked]);

  const { view, error, loading } = state;
  return (
    <Panel
      title="Flame graph"
      testId={testIds.inspect.flameGraph}
      actions={view ? <span className="muted small">sampled {view.sampledAt ? formatTimestamp(view.sampledAt) : '—'} · {view.requestCount} {view.requestCount === 1 ? 'request' : 'requests'}</span> : null}
    >
      <div className="flame-controls">
        <label>
          Threads{' '}
          <select value={type} onChange={(e) => setType(e.target.value as FlameGraphType)} data-testid={testIds.inspect.flameType}>
            {FLAME_GRAPH_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABEL[t]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Subtask{' '}
          <select value={subtask ?? ''} onChange={(e) => setSubtask(e.target.value === '' ? null : Number(e.target.value))} data-testid={testIds.inspect.flameSubtask}>
            <option value="">All {parallelism}</option>
            {Array.from({ length: parallelism }, (_, i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button--small" onClick={() => setAsked((n) => n + 1)} disabled={loading}>
          {loading ? 'Sampling…' : 'Sample again'}
        </button>
        {view?.root ? (
          <>
            <input type="search" placeholder="Search frames" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Search frames" data-testid={testIds.inspect.flameSearch} />
            <button type="button" className="button button--small" onClick={() => setFocus('0')} disabled={focus === '0'}>
              Reset zoom
            </button>
          </>
        ) : null}
      </div>
      {error ? <ErrorBanner error={error} context="Reading the flame graph failed" stale={view !== null} /> : null}
      <p className="flame-sentence" data-testid={testIds.inspect.flameSentence} data-status={view?.status ?? (loading ? 'loading' : 'error')}>
        {view ? view.sentence : loading ? 'Asking Flink to sample the task threads (about 5 s)…' : null}
      </p>
      {view?.root ? <FlameBars view={view} focus={focus} search={search} onFocus={setFocus} /> : null}
      {view && view.hotFrames.length > 0 ? <HotFrames view={view} /> : null}
    </Panel>
  );
}

function FlameBars({ view, focus, search, onFocus }: { view: FlameGraphView; focus: string; search: string; onFocus: (path: string) => void }): ReactNode {
  const { bars, matchedSamples } = useMemo(() => flameBars(view.root!, focus, search), [view.root, focus, search]);
  const depth = bars.reduce((d, b) => Math.max(d, b.depth), 0) + 1;
  return (
    <>
      {search.trim() !== '' ? (
        <p className="muted small" data-testid={testIds.inspect.flameMatches}>
          “{search.trim()}”: {matchedSamples} of {view.samples} samples ({view.samples > 0 ? Math.round((matchedSamples / view.samples) * 100) : 0}%)
        </p>
      ) : null}
      <div className="flame" style={{ height: depth * ROW_PX }} role="tree" aria-label="Flame graph: the root on top, callees below; click a frame to zoom">
        {bars.map((bar) => (
          <button
            type="button"
            key={bar.path}
            className={`flame__bar${bar.matched ? ' flame__bar--matched' : ''}`}
            style={{ left: `${bar.x * 100}%`, width: `${bar.width * 100}%`, top: bar.depth * ROW_PX }}
            title={`${bar.name}\n${bar.value} samples (${((bar.value / Math.max(1, view.samples)) * 100).toFixed(1)}%)`}
            onClick={() => onFocus(bar.path)}
            data-testid={testIds.inspect.flameBar(bar.path)}
            data-name={bar.name}
          >
            {bar.name}
          </button>
        ))}
      </div>
      {view.truncated ? <p className="muted small">The graph was larger than the console keeps: its deepest or last frames are left out.</p> : null}
    </>
  );
}

function HotFrames({ view }: { view: FlameGraphView }): ReactNode {
  return (
    <table className="table table--compact" data-testid={testIds.inspect.flameHotFrames}>
      <caption className="muted small">Most own time (the frame at the top of the stack)</caption>
      <thead>
        <tr>
          <th>Frame</th>
          <th className="num">Own</th>
          <th className="num">On stack</th>
        </tr>
      </thead>
      <tbody>
        {view.hotFrames.slice(0, 10).map((f) => (
          <tr key={f.name}>
            <td className="mono">{f.name}</td>
            <td className="num">{(f.selfShare * 100).toFixed(1)}%</td>
            <td className="num">{f.totalSamples}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
