import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { STATE_SUSPECT_LABEL, type JobState, type StateVertexView } from '../../../engine/contracts/state';
import { PollErrorBanner } from '../../components/ErrorBanner';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { DASH, formatBytes, formatCount, formatPercent, formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { usePolling } from '../../components/usePolling';
import { WindowChoice } from '../../components/WindowChoice';
import { testIds } from '../../testIds';
import type { JobTabProps } from '../job-graph/JobTabs';
import { useStateApi } from './api';
import { StateCharts } from './StateCharts';
import { formatGrowth, TREND_WORD, verticesInOrder } from './stateFormat';
import { parseCapacity, parseKeyCount, STATE_WINDOWS } from './stateInputs';
import './state.css';

/** Flink answers a job without checkpointing this way (404 on /checkpoints): the tab says what to turn on instead. */
function checkpointingOff(error: ErrorInfo | null): boolean {
  return error !== null && /checkpointing has not been enabled/i.test(error.message);
}

/**
 * Where the job's state lives, how fast it grows, and the likeliest reason why: the one sentence, then per stateful
 * vertex its total, trend and growth, each subtask's share and key groups, and the state over time. Sizes are known only
 * at checkpoints (Flink has no state-size gauge), so this refreshes with the page but moves only when a checkpoint completes.
 */
export function StateTab({ clusterId, jobId, vertexId, refresh, onNavigate }: JobTabProps): ReactNode {
  const api = useStateApi();
  const [windowMs, setWindowMs] = useState(STATE_WINDOWS[0].ms);
  const [options, setOptions] = useState<{ capacityBytes: number | null; keyCount: number | null }>({ capacityBytes: null, keyCount: null });
  const poll = usePolling<JobState>(() => api.jobState(clusterId, jobId, windowMs, options), refresh.intervalMs, {
    key: `${clusterId}/${jobId}/${windowMs}/${options.capacityBytes}/${options.keyCount}`,
    paused: refresh.paused,
    refreshSignal: refresh.refreshSignal,
    stopWhen: checkpointingOff,
  });
  const state = poll.data;
  const marked = vertexId ?? state?.vertexId ?? null;
  return (
    <Panel
      title="State"
      poll={poll}
      testId={testIds.state.tab}
      actions={
        <WindowChoice label="State window" options={STATE_WINDOWS.map((w) => ({ key: w.ms, label: w.label }))} chosen={windowMs} onChoose={setWindowMs} testId={testIds.state.window} />
      }
    >
      <StateInputs onApply={setOptions} />
      {checkpointingOff(poll.error) ? (
        <p className="hint" data-testid={testIds.state.empty}>
          Checkpointing is not enabled for this job. Flink knows a subtask&apos;s state only at its checkpoints (it has no state-size gauge), so there is nothing to show: set
          <code> execution.checkpointing.interval</code> to see where the state lives and how fast it grows.
        </p>
      ) : (
        <PollErrorBanner poll={poll} context={state ? 'Refreshing the state failed; the figures below are from the last answer' : 'Loading the state failed'} />
      )}
      {state ? (
        <div className={poll.stale ? 'is-stale' : undefined} data-stale={poll.stale ? 'true' : 'false'}>
          <StateSentence state={state} />
          {state.vertices.length === 0 ? (
            <p className="hint" data-testid={testIds.state.empty}>
              {state.window.checkpoints === 0
                ? 'No completed checkpoint of this job in the window yet: sizes appear with the first one (the console records each as it completes while the job is watched).'
                : 'No vertex of this job reports state in its checkpoints.'}
            </p>
          ) : (
            verticesInOrder(state.vertices, state.vertexId).map((v) => (
              <ErrorBoundary key={v.vertexId} panel={`The state of ${v.name}`} resetKey={v.vertexId}>
                <VertexState
                  vertex={v}
                  marked={v.vertexId === marked}
                  scrollTo={v.vertexId === vertexId}
                  onOpenVertex={() => onNavigate({ page: 'job', clusterId, jobId, vertexId: v.vertexId, tab: 'state' }, { replace: true })}
                />
              </ErrorBoundary>
            ))
          )}
        </div>
      ) : !poll.error ? (
        <p className="muted">Loading the state…</p>
      ) : null}
    </Panel>
  );
}

/** Capacity and key count: optional, applied together, each refused with a sentence that says what it should look like. */
function StateInputs({ onApply }: { onApply: (options: { capacityBytes: number | null; keyCount: number | null }) => void }): ReactNode {
  const [capacity, setCapacity] = useState('');
  const [keys, setKeys] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const c = parseCapacity(capacity);
    const k = parseKeyCount(keys);
    const problems = [c.ok ? null : c.message, k.ok ? null : k.message].filter((m): m is string => m !== null);
    if (problems.length > 0 || !c.ok || !k.ok) {
      setError(problems.join(' '));
      return;
    }
    setError(null);
    onApply({ capacityBytes: c.value, keyCount: k.value });
  };
  return (
    <form className="state-inputs" onSubmit={submit} data-testid={testIds.state.inputs} noValidate>
      <label title="The size a subtask's state must not reach: the projection's target, before what Flink reports">
        <span className="muted small">Capacity per subtask</span>
        <input className="search" value={capacity} onChange={(e) => setCapacity(e.target.value)} placeholder="e.g. 8GiB" aria-label="Capacity per subtask" aria-invalid={error !== null && !parseCapacity(capacity).ok} data-testid={testIds.state.capacity} />
      </label>
      <label title="How many keys the job holds, for bytes per key when RocksDB's estimate-num-keys is off">
        <span className="muted small">Keys</span>
        <input className="search" value={keys} onChange={(e) => setKeys(e.target.value)} placeholder="e.g. 2,000,000" aria-label="Key count" aria-invalid={error !== null && !parseKeyCount(keys).ok} data-testid={testIds.state.keyCount} />
      </label>
      <button type="submit" className="button button--small">
        Apply
      </button>
      {error ? (
        <span className="state-inputs__error" role="alert" data-testid={testIds.state.inputError}>
          {error}
        </span>
      ) : null}
    </form>
  );
}

function StateSentence({ state }: { state: JobState }): ReactNode {
  // RocksDB's status has its own line above: not said twice.
  const notKnown = state.notKnown.filter((s) => s !== state.rocksdb.sentence);
  return (
    <section className="state-sentence" aria-label="The likeliest suspect">
      <p>
        <span className={`state-suspect state-suspect--${state.suspect}`} data-testid={testIds.state.suspect} data-suspect={state.suspect}>
          {STATE_SUSPECT_LABEL[state.suspect]}
        </span>{' '}
        <span data-testid={testIds.state.sentence}>{state.sentence}</span>
      </p>
      <p className="muted small" data-testid={testIds.state.confidence}>
        Confidence: {state.confidence.level}
        {state.confidence.reasons.length > 0 ? ` (${state.confidence.reasons.join('; ')})` : null}
        {' · '}
        {state.window.checkpoints} checkpoint{state.window.checkpoints === 1 ? '' : 's'} in the window
        {state.window.from !== null && state.window.to !== null ? `, ${formatTimestamp(state.window.from)} to ${formatTimestamp(state.window.to)}` : null}
      </p>
      {state.alsoSeen.length > 0 ? (
        <ul className="state-also-seen">
          {state.alsoSeen.map((s) => (
            <li key={s}>Also seen: {s}</li>
          ))}
        </ul>
      ) : null}
      {state.projection ? <p data-testid={testIds.state.projection}>{state.projection.sentence}</p> : null}
      <p className="muted small" data-testid={testIds.state.rocksdb} data-status={state.rocksdb.status}>
        {state.rocksdb.sentence}
      </p>
      {notKnown.length > 0 ? (
        <ul className="muted small state-not-known" data-testid={testIds.state.notKnown}>
          {notKnown.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function VertexState({ vertex, marked, scrollTo, onOpenVertex }: { vertex: StateVertexView; marked: boolean; scrollTo: boolean; onOpenVertex: () => void }): ReactNode {
  const ref = useRef<HTMLElement>(null);
  // Opened from the heatmap or a link: bring that vertex into view once.
  useEffect(() => {
    if (scrollTo) ref.current?.scrollIntoView?.({ block: 'start' });
  }, [scrollTo]);
  const hot = new Set(vertex.hotSubtasks);
  return (
    <section
      ref={ref}
      className={`state-vertex${marked ? ' state-vertex--marked' : ''}`}
      aria-label={`State of ${vertex.name}`}
      data-testid={testIds.state.vertex(vertex.vertexId)}
      data-marked={marked ? 'true' : 'false'}
      data-checkpoint={vertex.series.at(-1)?.checkpointId ?? ''}
    >
      <h3>
        <button type="button" className="link-button" onClick={onOpenVertex} title="Mark this vertex (the link can be shared)">
          {vertex.name}
        </button>{' '}
        <span className="muted small">
          parallelism {vertex.parallelism}
          {vertex.maxParallelism !== null ? `, max ${vertex.maxParallelism}` : ''}
          {vertex.keyed ? ', keyed' : ''}
          {vertex.broadcastInput ? ', broadcast input' : ''}
        </span>
      </h3>
      <dl className="state-figures">
        <div>
          <dt>Total</dt>
          <dd data-figure="total">{formatBytes(vertex.totalBytes)}</dd>
        </div>
        <div>
          <dt>Trend</dt>
          <dd data-figure="trend">{TREND_WORD[vertex.trend]}</dd>
        </div>
        <div>
          <dt title="Least-squares slope over the window">Growth (window)</dt>
          <dd data-figure="growth">{formatGrowth(vertex.growthPerHour)}</dd>
        </div>
        <div>
          <dt title="Over the whole history kept, between restores and rescales">Growth (history)</dt>
          <dd data-figure="history-growth">{formatGrowth(vertex.historyGrowthPerHour)}</dd>
        </div>
        <div>
          <dt title="Flink's data skew (mean absolute deviation over the mean) of the subtasks' state">State skew</dt>
          <dd data-figure="skew">{vertex.stateSkewPercent === null ? DASH : `${Math.round(vertex.stateSkewPercent)}%`}</dd>
        </div>
        <div>
          <dt title={vertex.keyCountSource === 'rocksdb' ? "Over RocksDB's estimate-num-keys" : vertex.keyCountSource === 'operator' ? 'Over the key count entered above' : 'Needs RocksDB\'s estimate-num-keys or a key count entered above'}>Bytes per key</dt>
          <dd data-figure="bytes-per-key">
            {vertex.bytesPerKey === null ? DASH : formatBytes(vertex.bytesPerKey)}
            {vertex.keyCount !== null ? <span className="muted small"> ({formatCount(vertex.keyCount)} keys, {vertex.keyCountSource === 'rocksdb' ? 'RocksDB' : 'entered'})</span> : null}
          </dd>
        </div>
      </dl>
      {vertex.series.length > 0 ? <StateCharts vertex={vertex} /> : <p className="muted small">No checkpoint in the window reported this vertex&apos;s sizes.</p>}
      <div className="table-wrap">
        <table className="table state-subtasks">
          <thead>
            <tr>
              <th scope="col" className="num">Subtask</th>
              <th scope="col" className="num" title="Full state in the newest checkpoint that reported it">State size</th>
              <th scope="col" className="num" title="What that checkpoint wrote (incremental size; the full size without incremental checkpoints)">Checkpointed</th>
              <th scope="col" className="num">Share</th>
              <th scope="col" className="num" title="Over the window">Growth</th>
              <th scope="col" className="num" title="Over the whole history kept">History</th>
              <th scope="col">Trend</th>
              <th scope="col">Key groups</th>
            </tr>
          </thead>
          <tbody>
            {vertex.subtasks.map((s) => (
              <tr key={s.index} data-testid={testIds.state.subtaskRow(vertex.vertexId, s.index)} data-hot={hot.has(s.index) ? 'true' : 'false'} className={hot.has(s.index) ? 'is-marked' : undefined}>
                <td className="num">
                  {s.index}
                  {hot.has(s.index) ? <span className="state-hot"> hot</span> : null}
                </td>
                <td className="num" data-figure="state">{formatBytes(s.stateBytes)}</td>
                <td className="num" data-figure="checkpointed">{formatBytes(s.checkpointedBytes)}</td>
                <td className="num">{formatPercent(s.share)}</td>
                <td className="num">{formatGrowth(s.growthPerHour)}</td>
                <td className="num">{formatGrowth(s.historyGrowthPerHour)}</td>
                <td>{TREND_WORD[s.trend]}</td>
                <td className="mono small">{s.keyGroups ? `${s.keyGroups.start}–${s.keyGroups.end}` : DASH}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
