import { useEffect, useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { FLAME_GRAPH_TYPES, type FlameGraphType, type FlameGraphView } from '../../../engine/contracts/flame-graph';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { testIds } from '../../testIds';
import { useInspectApi } from './api';
import { FlameExplorer } from './FlameBars';

const TYPE_LABEL: Record<FlameGraphType, string> = { full: 'All threads', 'on-cpu': 'On-CPU', 'off-cpu': 'Off-CPU' };

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

  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    api
      .flameGraph(clusterId, jobId, vertexId, { type, ...(subtask === null ? {} : { subtask }) })
      .then((view) => {
        if (!current) return;
        setState({ view, error: null, loading: false });
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
      </div>
      {error ? <ErrorBanner error={error} context="Reading the flame graph failed" stale={view !== null} /> : null}
      <p className="flame-sentence" data-testid={testIds.inspect.flameSentence} data-status={view?.status ?? (loading ? 'loading' : 'error')}>
        {view ? view.sentence : loading ? 'Asking Flink to sample the task threads (about 5 s)…' : null}
      </p>
      {view?.root ? <FlameExplorer key={view.sampledAt ?? 0} graph={view} /> : null}
    </Panel>
  );
}
