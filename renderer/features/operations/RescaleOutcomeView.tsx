import { useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JournalEntry } from '../../../engine/contracts/operations';
import type { RescaleOutcome } from '../../../engine/contracts/rescale';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatRate, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { useOperationsApi } from './api';

/** After a rescale: the plan's prediction beside the load the job carries now, per keyed vertex and subtask. */
export function RescaleOutcomeView({ entry }: { entry: JournalEntry }): ReactNode {
  const operationsApi = useOperationsApi();
  const [outcome, setOutcome] = useState<RescaleOutcome | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  if (!entry.plan || entry.plan.vertices.length === 0) return null;

  const onCompare = async () => {
    setLoading(true);
    setError(null);
    try {
      setOutcome(await operationsApi.rescaleOutcome(entry.id));
    } catch (e) {
      setError(toErrorInfo(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="rescale-outcome" data-testid={testIds.operations.outcome}>
      <button type="button" className="button button--small" disabled={loading} onClick={() => void onCompare()}>
        {loading ? 'Measuring the load…' : outcome ? 'Measure again' : 'Compare the prediction with what happened'}
      </button>
      {error ? <ErrorBanner error={error} context="No comparison" /> : null}
      {outcome ? (
        <>
          <p className="muted small">
            Measured {outcome.load.source === 'history' ? 'from the history' : 'just now'} on job {outcome.jobId}: {outcome.load.samples} samples, {formatTimestamp(outcome.load.from)} –{' '}
            {formatTimestamp(outcome.load.to)}.
          </p>
          {outcome.vertices.map((v) => (
            <section key={v.vertexId} className="rescale-plan__vertex">
              <h4>{v.vertexName}</h4>
              <table className="table table--compact">
                <thead>
                  <tr>
                    <th scope="col" />
                    <th scope="col" className="num">
                      max records/s per subtask
                    </th>
                    <th scope="col" className="num">
                      mean
                    </th>
                    <th scope="col" className="num">
                      max/mean
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <th scope="row">predicted</th>
                    <td className="num">{formatRate(v.predicted.max)}</td>
                    <td className="num">{formatRate(v.predicted.mean)}</td>
                    <td className="num">{v.predicted.maxOverMean?.toFixed(2) ?? '—'}×</td>
                  </tr>
                  <tr>
                    <th scope="row">observed</th>
                    <td className="num">{formatRate(v.observed?.max)}</td>
                    <td className="num">{formatRate(v.observed?.mean)}</td>
                    <td className="num">{v.observed?.maxOverMean?.toFixed(2) ?? '—'}×</td>
                  </tr>
                </tbody>
              </table>
              <ResponsiveContainer width="100%" height={160}>
                <BarChart data={v.subtasks.map((s) => ({ subtask: s.subtask, predicted: s.predicted ?? 0, observed: s.observed ?? 0 }))}>
                  <CartesianGrid stroke="#30363d" vertical={false} />
                  <XAxis dataKey="subtask" tick={{ fill: '#8b949e', fontSize: 10 }} />
                  <YAxis tick={{ fill: '#8b949e', fontSize: 10 }} width={44} />
                  <Tooltip contentStyle={{ background: '#161b22', border: '1px solid #30363d', fontSize: 12 }} formatter={(value) => formatRate(Number(value))} />
                  <Legend wrapperStyle={{ fontSize: 11 }} />
                  <Bar dataKey="predicted" fill="#58a6ff" isAnimationActive={false} />
                  <Bar dataKey="observed" fill="#3fb950" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </section>
          ))}
        </>
      ) : null}
    </div>
  );
}
