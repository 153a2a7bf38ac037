import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { BeforeAfter } from '../../../engine/contracts/before-after';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { useOperationsApi } from './api';
import { formatChange, formatFigure } from './beforeAfterFormat';

/** Operations whose before/after is worth showing: a finished rescale or resubmit (a salted job deployed is one). */
export function hasBeforeAfter(entry: JournalEntry): boolean {
  return (entry.kind === 'rescale' || entry.kind === 'resubmit') && entry.state === 'succeeded' && entry.parentId === null;
}

/**
 * Before vs after a rescale or resubmit: skew, the busiest subtask, throughput, checkpoint durations and state size,
 * from the history before the operation and once the job ran again. The journal's copy once complete, else asked.
 */
export function BeforeAfterView({ entry, auto = true }: { entry: JournalEntry; /** Ask at once (the job page); else on a click (a journal of many rows). */ auto?: boolean }): ReactNode {
  const operationsApi = useOperationsApi();
  const kept = entry.beforeAfter?.complete ? entry.beforeAfter : null;
  const [figures, setFigures] = useState<BeforeAfter | null>(kept);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setFigures(await operationsApi.beforeAfter(entry.id));
    } catch (e) {
      setError(toErrorInfo(e));
    } finally {
      setLoading(false);
    }
  }, [operationsApi, entry.id]);

  useEffect(() => {
    if (!kept && auto) void load();
  }, [kept, auto, load]);

  if (!figures && !error && !loading && !auto) {
    return (
      <button type="button" className="button button--small" onClick={() => void load()} data-testid={testIds.operations.beforeAfter}>
        Before / after
      </button>
    );
  }

  return (
    <div className="before-after" data-testid={testIds.operations.beforeAfter} data-complete={figures ? String(figures.complete) : ''}>
      <h4 className="before-after__title">Before / after</h4>
      {error ? <ErrorBanner error={error} context="No before/after" /> : null}
      {!figures && !error ? <p className="muted small">Reading the job{'\u2019'}s history before and after the {entry.kind}…</p> : null}
      {figures ? (
        <>
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col" />
                <th scope="col" className="num">
                  before
                </th>
                <th scope="col" className="num">
                  after
                </th>
                <th scope="col" className="num">
                  change
                </th>
              </tr>
            </thead>
            <tbody>
              {figures.rows.map((r) => (
                <tr key={r.figure} data-testid={testIds.operations.beforeAfterRow(r.figure)} data-before={r.before ?? ''} data-after={r.after ?? ''}>
                  <th scope="row">{r.label}</th>
                  <td className="num">{formatFigure(r.unit, r.before)}</td>
                  <td className="num">{formatFigure(r.unit, r.after)}</td>
                  <td className="num">{formatChange(r.change)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            {figures.before ? `Before: ${figures.before.samples} samples, ${formatTimestamp(figures.before.from)} – ${formatTimestamp(figures.before.to)}` : 'Before: no samples'}
            {figures.before?.skew ? ` (most skewed: ${figures.before.skew.vertexName})` : ''}.{' '}
            {figures.after ? `After: ${figures.after.samples} samples, ${formatTimestamp(figures.after.from)} – ${formatTimestamp(figures.after.to)}` : 'After: no samples yet'}
            {figures.after?.skew ? ` (most skewed: ${figures.after.skew.vertexName})` : ''}.
          </p>
          {figures.prediction ? <Prediction prediction={figures.prediction} figures={figures} /> : null}
          {figures.notes.map((n) => (
            <p key={n} className="muted small">
              {n}
            </p>
          ))}
          {!figures.complete ? (
            <button type="button" className="button button--small" disabled={loading} onClick={() => void load()}>
              {loading ? 'Reading…' : 'Read again'}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** The rehearsal's prediction beside what happened: the keyed vertex's skew and throughput, the twin's and the job's. */
function Prediction({ prediction, figures }: { prediction: NonNullable<BeforeAfter['prediction']>; figures: BeforeAfter }): ReactNode {
  const change = prediction.proposal.kind === 'salt' ? `salting into ${prediction.proposal.buckets} buckets` : `parallelism ${prediction.proposal.parallelism}`;
  const ratio = (v: number | null) => (v === null ? '—' : `${v.toFixed(2)}×`);
  const observed = figures.rows.find((r) => r.figure === 'skew');
  return (
    <p className="small" data-testid={testIds.operations.beforeAfterPrediction}>
      Rehearsed {formatTimestamp(prediction.rehearsedAt)} ({change} of {prediction.vertexName}): the twin predicted busy max/mean {ratio(prediction.baseline.busyMaxOverMean)} →{' '}
      {ratio(prediction.predicted.busyMaxOverMean)} and {Math.round(prediction.baseline.throughputRecordsPerSecond)} → {Math.round(prediction.predicted.throughputRecordsPerSecond)} records/s; the job
      went {ratio(observed?.before ?? null)} → {ratio(observed?.after ?? null)} (its most skewed vertex).
    </p>
  );
}
