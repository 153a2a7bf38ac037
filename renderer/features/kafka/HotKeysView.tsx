import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { HotKeySample } from '../../../engine/contracts/kafka';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatCount, formatRate } from '../../components/format';
import { testIds } from '../../testIds';
import type { KeyedVertex } from './keyedVertices';
import { useKafkaApi } from './api';

/**
 * Hot keys on demand: reads the last N seconds of the topic (never in the job's group, nothing committed), keys each
 * JSON value by a path, and shows the top keys with their share and rate — and, for the chosen keyed vertex, the key
 * group and the subtask each lands on at its current parallelism (Flink's assignment).
 */
export function HotKeysView({ clusterId, defaultTopic, vertices, defaultVertex, onAdvise }: { clusterId: string; defaultTopic: string; vertices: KeyedVertex[]; defaultVertex: KeyedVertex | null; onAdvise?: (key: string, measured: { rate: number; vertexId: string | null }) => void }): ReactNode {
  const kafkaApi = useKafkaApi();
  const id = useId();
  const [topic, setTopic] = useState(defaultTopic);
  const [keyPath, setKeyPath] = useState('tenant_id');
  const [seconds, setSeconds] = useState('60');
  const [vertexId, setVertexId] = useState(defaultVertex?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [sample, setSample] = useState<HotKeySample | null>(null);
  const [failure, setFailure] = useState<ErrorInfo | null>(null);
  const vertex = vertices.find((v) => v.id === vertexId) ?? null;
  // The keyed vertex the sample placed its keys on: what the advice of one of them is about.
  const [sampledOn, setSampledOn] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    const secs = Number(seconds);
    if (topic.trim() === '' || keyPath.trim() === '' || !(secs > 0)) {
      setFailure({ kind: 'invalid-input', message: 'Name the topic, a key path (e.g. tenant_id) and a positive number of seconds.' });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      setSampledOn(vertex?.id ?? null);
      setSample(
        await kafkaApi.sampleHotKeys(clusterId, {
          topic: topic.trim(),
          keyPath: keyPath.trim(),
          seconds: secs,
          ...(vertex ? { keyedVertex: { maxParallelism: vertex.maxParallelism, parallelism: vertex.parallelism } } : {}),
        }),
      );
    } catch (error) {
      setFailure(toErrorInfo(error));
    } finally {
      setBusy(false);
    }
  };

  const placed = sample?.keyedVertex !== undefined;
  const busiest = sample?.subtaskShares?.[0];
  return (
    <div className="hot-keys" data-testid={testIds.kafka.hotKeys}>
      <h3>Hot keys</h3>
      <form className="hot-keys__form" onSubmit={onSubmit} aria-label="Sample hot keys">
        <div className="field">
          <label htmlFor={`${id}-topic`}>Topic</label>
          <input id={`${id}-topic`} value={topic} onChange={(e) => setTopic(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-path`}>Key path</label>
          <input id={`${id}-path`} value={keyPath} onChange={(e) => setKeyPath(e.target.value)} placeholder="tenant_id" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-seconds`}>Last seconds</label>
          <input id={`${id}-seconds`} value={seconds} onChange={(e) => setSeconds(e.target.value)} inputMode="numeric" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-vertex`}>Keyed vertex</label>
          <select id={`${id}-vertex`} value={vertexId} onChange={(e) => setVertexId(e.target.value)}>
            <option value="">none</option>
            {vertices.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} ({v.parallelism} of {v.maxParallelism})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Sampling…' : 'Sample'}
        </button>
      </form>
      {failure ? <ErrorBanner error={failure} context="Sampling the topic failed" /> : null}
      {sample ? (
        <>
          {sample.partial ? (
            <p className="notice notice--warning" data-testid={testIds.kafka.hotKeysPartial}>
              Partial sample: {sample.partialReason}. The shares cover only what was read.
            </p>
          ) : null}
          <p className="muted small" data-testid={testIds.kafka.hotKeysSummary}>
            {formatCount(sample.records)} records from {sample.partitions} partitions over {Math.round((sample.to - sample.from) / 1000)} s; {formatCount(sample.keyed)} keyed by{' '}
            <code>{sample.keyPath}</code>, {sample.distinctKeys} distinct keys
            {sample.notJson > 0 ? `, ${formatCount(sample.notJson)} not JSON` : ''}
            {sample.missingKey > 0 ? `, ${formatCount(sample.missingKey)} without the key` : ''}.
            {busiest && sample.keyedVertex
              ? ` At parallelism ${sample.keyedVertex.parallelism}, subtask ${busiest.subtask} would get ${(busiest.share * 100).toFixed(1)}% of the keyed records (even: ${(100 / sample.keyedVertex.parallelism).toFixed(1)}%).`
              : ''}
          </p>
          <div className="table-wrap">
            <table className="table" data-testid={testIds.kafka.hotKeysTable}>
              <thead>
                <tr>
                  <th>Key</th>
                  <th className="num">Records</th>
                  <th>Share</th>
                  <th className="num">Rate</th>
                  {placed ? <th className="num">Key group</th> : null}
                  {placed ? <th className="num">Subtask</th> : null}
                  {onAdvise ? <th /> : null}
                </tr>
              </thead>
              <tbody>
                {sample.keys.map((k) => (
                  <tr key={k.key} data-testid={testIds.kafka.hotKeyRow(k.key)}>
                    <td className="mono">{k.key}</td>
                    <td className="num">{formatCount(k.count)}</td>
                    <td>
                      <span className="share">
                        <span className="share__bar" style={{ width: `${Math.round(k.share * 100)}%` }} />
                        <span className="share__value">{(k.share * 100).toFixed(1)}%</span>
                      </span>
                    </td>
                    <td className="num">{formatRate(k.ratePerSecond)}</td>
                    {placed ? <td className="num">{k.keyGroup}</td> : null}
                    {placed ? <td className="num">{k.subtask}</td> : null}
                    {onAdvise ? (
                      <td>
                        <button type="button" className="button button--tiny" onClick={() => onAdvise(k.key, { rate: k.ratePerSecond, vertexId: sampledOn })} data-testid={testIds.kafka.adviseKey(k.key)} title="Salting beside a rescale for this key, sized by its sampled rate">
                          Advise
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
