import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { CheckpointFigures, Rehearsal, RehearsalOptions } from '../../../engine/contracts/rehearsal';
import type { LoadFigures } from '../../../engine/contracts/rescale';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatBytes, formatMillis, formatRate } from '../../components/format';
import { testIds } from '../../testIds';
import { useRehearsalApi } from './api';

/**
 * "Rehearse" a fix on the local engine before touching production: the job's observed traffic mix on its current shape
 * (the baseline, which must match production), then on the proposal (salting with N buckets, or a new parallelism),
 * side by side with what production shows. Figures are the service's (engine/contracts/rehearsal.ts) as they come.
 * A rehearsal runs for up to two minutes on the engine's machine: it can be cancelled.
 */
export function RehearsalPanel({ clusterId, jobId, vertexId, hotKey, buckets }: { clusterId: string; jobId: string; vertexId: string; hotKey: string; buckets: number | null }): ReactNode {
  const api = useRehearsalApi();
  const [parallelism, setParallelism] = useState('');
  const [running, setRunning] = useState<string | null>(null);
  const [result, setResult] = useState<Rehearsal | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const rehearse = async (proposal: Pick<RehearsalOptions, 'salt' | 'parallelism'>, what: string) => {
    setRunning(what);
    setError(null);
    try {
      setResult(await api.rehearse(clusterId, jobId, { key: hotKey, vertexId, ...proposal }));
    } catch (e) {
      const info = toErrorInfo(e);
      // A cancel the user asked for is not an error to show.
      if (info.kind !== 'cancelled') setError(info);
    } finally {
      setRunning(null);
    }
  };
  const p = Number(parallelism);
  const validParallelism = /^\d{1,5}$/.test(parallelism) && p >= 1;

  return (
    <section className="rehearsal" data-testid={testIds.rehearsal.panel} aria-label="Rehearsal">
      <h3>Rehearse on the local engine</h3>
      <p className="muted small">The local engine replays this job's observed key mix at its virtual clock, first as the job runs now, then with the change; nothing reaches the cluster.</p>
      <div className="flame-controls">
        {buckets !== null ? (
          <button type="button" className="button button--small button--primary" disabled={running !== null} onClick={() => void rehearse({ salt: buckets }, 'salt')} data-testid={testIds.rehearsal.salt}>
            Rehearse salting ({buckets} buckets)
          </button>
        ) : null}
        <label>
          or rescale to{' '}
          <input type="number" min={1} value={parallelism} onChange={(e) => setParallelism(e.target.value)} style={{ width: '5rem' }} aria-label="Parallelism to rehearse" data-testid={testIds.rehearsal.parallelism} />
        </label>
        <button type="button" className="button button--small" disabled={running !== null || !validParallelism} onClick={() => void rehearse({ parallelism: p }, 'rescale')} data-testid={testIds.rehearsal.rescale}>
          Rehearse rescale
        </button>
        {running !== null ? (
          <>
            <span className="muted small" data-testid={testIds.rehearsal.running}>
              Rehearsing ({running === 'salt' ? 'salting' : 'rescale'}): the baseline, then the change…
            </span>
            <button type="button" className="button button--small" onClick={() => void api.cancel(clusterId, jobId).catch((e: unknown) => setError(toErrorInfo(e)))} data-testid={testIds.rehearsal.cancel}>
              Cancel
            </button>
          </>
        ) : null}
      </div>
      {error ? <ErrorBanner error={error} context="The rehearsal failed" /> : null}
      {result ? <RehearsalResult result={result} /> : null}
    </section>
  );
}

function RehearsalResult({ result }: { result: Rehearsal }): ReactNode {
  const { observed, baseline, proposed, match } = result;
  const proposal = result.proposal.kind === 'salt' ? `salted, ${result.proposal.buckets} buckets` : `parallelism ${result.proposal.parallelism}`;
  const rows: Array<[string, string, string, string]> = [
    ['Throughput (records/s)', formatRate(observed.throughputRecordsPerSecond), formatRate(baseline.throughputRecordsPerSecond), proposed ? formatRate(proposed.throughputRecordsPerSecond) : '—'],
    ['Busy max/mean', ratio(observed.busy), ratio(baseline.busy), proposed ? ratio(proposed.busy) : '—'],
    ['Busiest subtask', String(observed.hotSubtask), String(baseline.hotSubtask), proposed ? String(proposed.hotSubtask) : '—'],
    ['Busy max (ms/s)', String(Math.round(observed.busy.max)), String(Math.round(baseline.busy.max)), proposed ? String(Math.round(proposed.busy.max)) : '—'],
    ['Back-pressure upstream (ms/s)', ms(observed.upstreamBackPressuredTimeMsPerSecond), ms(baseline.upstreamBackPressuredTimeMsPerSecond), proposed ? ms(proposed.upstreamBackPressuredTimeMsPerSecond) : '—'],
    ['Watermark lag', formatMillis(observed.watermarkLagMs), formatMillis(baseline.watermarkLagMs), proposed ? formatMillis(proposed.watermarkLagMs) : '—'],
    ['Checkpoint duration', checkpoint(observed.checkpoint, 'd'), checkpoint(baseline.checkpoint, 'd'), proposed ? checkpoint(proposed.checkpoint, 'd') : '—'],
    ['State size', checkpoint(observed.checkpoint, 's'), checkpoint(baseline.checkpoint, 's'), proposed ? checkpoint(proposed.checkpoint, 's') : '—'],
  ];
  return (
    <div data-testid={testIds.rehearsal.result} data-matches={String(match.matches)} data-proposal={result.proposal.kind}>
      <p className="finding__sentence" data-testid={testIds.rehearsal.sentence}>
        {result.sentence}
      </p>
      <table className="table table--compact" data-testid={testIds.rehearsal.table}>
        <thead>
          <tr>
            <th>{result.vertexName}</th>
            <th className="num">Production (observed)</th>
            <th className="num">Twin, as it runs now</th>
            <th className="num">Twin, {proposal}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, ...cells]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {cells.map((c, i) => (
                <td key={i} className="num">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {!match.matches ? (
        <ul className="muted small" data-testid={testIds.rehearsal.mismatch}>
          {match.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      {result.notes.length > 0 ? (
        <ul className="muted small">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function ratio(load: LoadFigures): string {
  return load.maxOverMean === null ? '—' : `${load.maxOverMean.toFixed(1)}×`;
}

function ms(value: number | null): string {
  return value === null ? '—' : String(Math.round(value));
}

function checkpoint(figures: CheckpointFigures | null, which: 'd' | 's'): string {
  if (!figures) return '—';
  return which === 'd' ? formatMillis(figures.durationMs) : formatBytes(figures.stateSizeBytes);
}
