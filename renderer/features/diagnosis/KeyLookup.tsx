import { useState, type FormEvent, type ReactNode } from 'react';
import { KEY_TYPES, type KeyLocation, type KeyType } from '../../../engine/contracts/diagnosis';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { useDiagnosisApi } from './api';

export interface KeyedVertex {
  vertexId: string;
  name: string;
  parallelism: number;
  maxParallelism: number;
}

/**
 * "Which subtask owns key X?": Flink's key-group assignment (String.hashCode, Integer, Long, then murmur) for a
 * keyed vertex, and where a rescale would move the key.
 */
export function KeyLookup({
  vertices,
  onLocated,
  onAdvise,
}: {
  vertices: KeyedVertex[];
  onLocated: (vertexId: string, subtask: number) => void;
  /** The Advice panel for a String key looked up (the advice splits String keys). */
  onAdvise?: (key: string) => void;
}): ReactNode {
  const diagnosisApi = useDiagnosisApi();
  const [key, setKey] = useState('');
  const [keyType, setKeyType] = useState<KeyType>('string');
  const [vertexId, setVertexId] = useState<string>('');
  const [rescaleTo, setRescaleTo] = useState('');
  const [result, setResult] = useState<{ location: KeyLocation; vertex: KeyedVertex } | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const vertex = vertices.find((v) => v.vertexId === vertexId) ?? vertices[0];

  if (vertices.length === 0) {
    return (
      <div className="key-lookup" data-testid={testIds.diagnosis.keyLookup}>
        <p className="muted small">No keyed vertex (one reading a keyBy input) in this job: there is no key to look up.</p>
      </div>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const targets = rescaleTo
      .split(/[\s,]+/)
      .filter((s) => s !== '')
      .map(Number);
    const defaults = [Math.max(1, Math.floor(vertex.parallelism / 2)), Math.min(vertex.maxParallelism, vertex.parallelism * 2)];
    try {
      const location = await diagnosisApi.locateKey({
        key,
        keyType,
        maxParallelism: vertex.maxParallelism,
        parallelism: vertex.parallelism,
        rescaleTo: targets.length > 0 ? targets : defaults,
      });
      setResult({ location, vertex });
      onLocated(vertex.vertexId, location.subtask);
    } catch (e) {
      setResult(null);
      setError(toErrorInfo(e));
    }
  };

  return (
    <div className="key-lookup" data-testid={testIds.diagnosis.keyLookup}>
      <form className="key-lookup__form" onSubmit={onSubmit}>
        <label>
          <span className="muted small">Key</span>
          <input className="search" value={key} onChange={(e) => setKey(e.target.value)} placeholder="e.g. acme" aria-label="Key" />
        </label>
        <label>
          <span className="muted small">Type</span>
          <select value={keyType} onChange={(e) => setKeyType(e.target.value as KeyType)} aria-label="Key type">
            {KEY_TYPES.map((t) => (
              <option key={t} value={t}>
                {t === 'string' ? 'String' : t === 'int' ? 'Integer' : 'Long'}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted small">Keyed vertex</span>
          <select value={vertex.vertexId} onChange={(e) => setVertexId(e.target.value)} aria-label="Keyed vertex">
            {vertices.map((v) => (
              <option key={v.vertexId} value={v.vertexId}>
                {v.name} ({v.parallelism}/{v.maxParallelism})
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted small">Rescale to</span>
          <input className="search" value={rescaleTo} onChange={(e) => setRescaleTo(e.target.value)} placeholder={`${Math.max(1, Math.floor(vertex.parallelism / 2))}, ${Math.min(vertex.maxParallelism, vertex.parallelism * 2)}`} aria-label="Rescale to" />
        </label>
        <button type="submit" className="button button--small">
          Find owner
        </button>
      </form>
      {error ? <ErrorBanner error={error} context="The key lookup failed" /> : null}
      {result ? (
        <div className="key-lookup__result" data-testid={testIds.diagnosis.keyLocation} data-subtask={result.location.subtask} data-key-group={result.location.keyGroup}>
          <p>
            <code>{result.location.key}</code> ({result.location.keyType}, hashCode {result.location.hashCode}) is in key group <strong>{result.location.keyGroup}</strong> of{' '}
            {result.location.maxParallelism}: <strong>{result.vertex.name} subtask {result.location.subtask}</strong> owns it (key groups {result.location.range.startKeyGroup}–
            {result.location.range.endKeyGroup}).
          </p>
          {onAdvise && result.location.keyType === 'string' ? (
            <button type="button" className="button button--small" onClick={() => onAdvise(result.location.key)} data-testid={testIds.advice.openFromKey}>
              Advise on {result.location.key} →
            </button>
          ) : null}
          {result.location.rescale.length > 0 ? (
            <ul className="small">
              {result.location.rescale.map((r) => (
                <li key={r.parallelism}>
                  At parallelism {r.parallelism}: subtask {r.subtask} (key groups {r.range.startKeyGroup}–{r.range.endKeyGroup})
                  {r.moves ? ', so its state moves' : ', same range: its state stays'}.
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
