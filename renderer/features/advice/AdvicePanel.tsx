import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { JobAdvice, RescaleAdvice, SaltingAdvice } from '../../../engine/contracts/advice';
import type { JobDiagnosis } from '../../../engine/contracts/diagnosis';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatTimestamp } from '../../components/format';
import { Panel } from '../../components/Panel';
import { testIds } from '../../testIds';
import { skewFindingOf } from '../diagnosis/finding';
import { formatBusy, formatRatio, formatRecords, spreadSentence } from './adviceFormat';
import { useAdviceApi } from './api';
import { RehearsalPanel } from '../rehearsal/RehearsalPanel';
import './advice.css';

const DEFAULT_FORMAT = '{key}#{i}';

export interface AdviceRequest {
  /** The hot key when the console knows it (the key lookup), else null: the operator types it. */
  key: string | null;
  /** Bumped on every open, so opening again with the same key asks again. */
  nonce: number;
  /** The key's rate (records/s) when measured elsewhere: a Kafka sample of the job's topic. */
  rate?: number;
  /** The keyed vertex the key was placed on there (the Kafka sample's); else the skew finding's. */
  vertexId?: string;
}

/**
 * The two fixes of a skewed key side by side, from the advice service: salting (buckets, where each salted key lands,
 * busy after, the costs) and a rescale (why it does not split the key, what it does to the others). Every figure is
 * the service's, only formatted here.
 */
export function AdvicePanel({ clusterId, jobId, diagnosis, request, onClose }: { clusterId: string; jobId: string; diagnosis: JobDiagnosis | null; request: AdviceRequest; onClose: () => void }): ReactNode {
  const adviceApi = useAdviceApi();
  const [key, setKey] = useState(request.key ?? '');
  const [format, setFormat] = useState(DEFAULT_FORMAT);
  const [buckets, setBuckets] = useState('');
  const [rate, setRate] = useState('');
  const [advice, setAdvice] = useState<JobAdvice | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);
  const top = useRef<HTMLDivElement>(null);
  const skew = skewFindingOf(diagnosis);
  // The vertex of the finding the operator opened the panel from: the service's own diagnosis reads a longer window
  // and may not name it yet (or any more).
  const skewVertexId = request.vertexId ?? skew?.vertexId ?? undefined;

  const ask = useCallback(
    async (hotKey: string, template: string, bucketsText: string, rateText: string) => {
      const call = ++asked.current;
      setLoading(true);
      setError(null);
      try {
        // The engine judges the numbers (and says what is wrong with them): the panel only passes them on.
        const n = bucketsText.trim() === '' ? undefined : Number(bucketsText);
        const r = rateText.trim() === '' ? undefined : Number(rateText);
        const answer = await adviceApi.advise(clusterId, jobId, {
          key: hotKey,
          format: template,
          ...(skewVertexId ? { vertexId: skewVertexId } : {}),
          ...(n === undefined ? {} : { buckets: n }),
          ...(r === undefined ? {} : { keyRecordsPerSecond: r }),
        });
        if (call === asked.current) setAdvice(answer);
      } catch (e) {
        if (call === asked.current) {
          setAdvice(null);
          setError(toErrorInfo(e));
        }
      } finally {
        if (call === asked.current) setLoading(false);
      }
    },
    [adviceApi, clusterId, jobId, skewVertexId],
  );

  // Opened from further down the page (the key lookup): brought into view. A block body: Chromium's scrollIntoView
  // returns a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, [request.nonce]);

  // Opened with a key the console knows: ask at once.
  useEffect(() => {
    if (request.key) {
      const measured = request.rate === undefined ? '' : String(Math.round(request.rate * 10) / 10);
      setKey(request.key);
      setRate(measured);
      void ask(request.key, DEFAULT_FORMAT, '', measured);
    }
  }, [request.key, request.rate, request.nonce, ask]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === '') {
      setAdvice(null);
      setError({ kind: 'invalid-input', message: 'Give the hot key: the console has no sample of the job\u2019s keys to take it from.' });
      return;
    }
    void ask(key, format, buckets, rate);
  };

  return (
    <div ref={top}>
      <Panel
        className="advice-panel"
        testId={testIds.advice.panel}
        title={<>Advice: fix the skew{advice ? <span className="muted small"> · {advice.vertexName}</span> : null}</>}
        actions={
          <button type="button" className="button button--small" onClick={onClose} data-testid={testIds.advice.close} aria-label="Close the advice">
            Close
          </button>
        }
      >
        <p className="muted small" data-testid={testIds.advice.status} data-state={loading ? 'loading' : error ? 'error' : advice ? 'done' : 'idle'}>
          {statusSentence({ loading, error, advice, skew: skew !== null, diagnosisKnown: diagnosis !== null })}
        </p>
        <form className="advice-form" onSubmit={onSubmit} data-testid={testIds.advice.form}>
          <label>
            <span className="muted small">Hot key</span>
            <input className="search" value={key} onChange={(e) => setKey(e.target.value)} placeholder="e.g. acme" aria-label="Hot key" />
          </label>
          <label>
            <span className="muted small">Salted key format</span>
            <input className="search" value={format} onChange={(e) => setFormat(e.target.value)} aria-label="Salted key format" title="With {key} and {i}" />
          </label>
          <label title="The key's demand when measured elsewhere (a Kafka sample, the source); empty: estimated from its subtask">
            <span className="muted small">Key's rate (records/s)</span>
            <input className="search advice-form__number" value={rate} onChange={(e) => setRate(e.target.value)} placeholder="estimated" aria-label="Key's rate" inputMode="decimal" />
          </label>
          <label>
            <span className="muted small">Buckets</span>
            <input className="search advice-form__number" value={buckets} onChange={(e) => setBuckets(e.target.value)} placeholder="by the rule" aria-label="Salt buckets" inputMode="numeric" />
          </label>
          <button type="submit" className="button button--small button--primary" disabled={loading}>
            {loading ? 'Advising…' : 'Advise'}
          </button>
        </form>
        {error ? <ErrorBanner error={error} context="The advice failed" testId={testIds.advice.error} /> : null}
        {advice ? (
          <>
            <KeyFacts advice={advice} />
            {advice.warnings.length > 0 ? (
              <ul className="notice notice--warning advice-warnings" data-testid={testIds.advice.warnings}>
                {advice.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            ) : null}
            <div className="advice-sides">
              <SaltingSide salting={advice.salting} />
              <RescaleSide rescale={advice.rescale} salting={advice.salting} />
            </div>
          </>
        ) : null}
        <footer className="advice-panel__footer">
          {advice ? (
            <span className="muted small">
              Load {advice.basis.load === 'history' ? 'from the job\u2019s history' : 'measured just now'}: {advice.basis.samples} samples, {formatTimestamp(advice.basis.from)} – {formatTimestamp(advice.basis.to)}.
            </span>
          ) : null}
        </footer>
        {advice ? <RehearsalPanel key={`${advice.vertexId}/${advice.salting.key}/${advice.salting.buckets ?? ''}`} clusterId={clusterId} jobId={jobId} vertexId={advice.vertexId} hotKey={advice.salting.key} buckets={advice.salting.buckets} /> : null}
      </Panel>
    </div>
  );
}

function statusSentence({ loading, error, advice, skew, diagnosisKnown }: { loading: boolean; error: ErrorInfo | null; advice: JobAdvice | null; skew: boolean; diagnosisKnown: boolean }): string {
  if (loading) return 'Asking the advice service: the vertex\u2019s load per subtask, where the salted keys land, the rescale plans…';
  if (error) return 'No advice: the reason is below.';
  if (advice) return `Advice for ${advice.salting.key} on ${advice.vertexName}, salting and a rescale side by side.`;
  if (!diagnosisKnown) return 'The diagnosis is not known yet: give the hot key, and the vertex is the one the diagnosis finds skewed once it has.';
  if (!skew) return 'The diagnosis finds no skew finding on a keyed vertex over this window: the advice has no vertex to split a key of.';
  return 'Give the hot key (the key lookup on the Skew tab fills it in), then Advise.';
}

function KeyFacts({ advice }: { advice: JobAdvice }): ReactNode {
  const s = advice.salting;
  const hot = advice.hotSubtask === null ? '' : advice.hotSubtask === s.subtask ? ' (the hot subtask)' : ` (the hot subtask is ${advice.hotSubtask})`;
  const rate = s.keyRateIsLowerBound ? `${formatRecords(s.keyRecordsPerSecond)} got through (its subtask is saturated: the demand is higher)` : `${formatRecords(s.keyRecordsPerSecond)}${advice.basis.rate === 'option' ? ' (given)' : ''}`;
  return (
    <p className="small advice-key" data-key={s.key} data-key-group={s.keyGroup} data-subtask={s.subtask}>
      <code>{s.key}</code>: key group {s.keyGroup} of {s.maxParallelism}, subtask {s.subtask} of {s.parallelism}
      {hot}; {rate}.{' '}
      {s.capacity
        ? `One subtask sustains about ${formatRecords(s.capacity.recordsPerSecond)} (subtask ${s.capacity.subtask} at ${formatBusy(s.capacity.busyTimeMsPerSecond)} busy).`
        : 'What one subtask sustains is not known.'}
    </p>
  );
}

function SaltingSide({ salting: s }: { salting: SaltingAdvice }): ReactNode {
  const landed = s.predicted.filter((p) => p.saltedKeys.length > 0);
  return (
    <section className="advice-side" data-testid={testIds.advice.salting} data-verdict={s.verdict} data-buckets={s.buckets ?? ''}>
      <h3>Salting</h3>
      <p data-testid={testIds.advice.saltingSentence}>{s.sentence}</p>
      {s.verdict === 'salt' ? (
        <>
          <p className="small">
            {s.buckets} buckets of {s.format}: {formatRecords(s.perBucketRecordsPerSecond)} each.
          </p>
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col">Salted key</th>
                <th scope="col" className="num">
                  Key group
                </th>
                <th scope="col" className="num">
                  Subtask
                </th>
              </tr>
            </thead>
            <tbody>
              {s.saltedKeys.map((k) => (
                <tr key={k.bucket} data-testid={testIds.advice.saltedKey(k.bucket)} data-key={k.key} data-key-group={k.keyGroup} data-subtask={k.subtask}>
                  <td>
                    <code>{k.key}</code>
                  </td>
                  <td className="num">{k.keyGroup}</td>
                  <td className="num">{k.subtask}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small" data-testid={testIds.advice.spread} data-distinct={s.distinctSubtasks ?? ''} data-expected={s.expectedDistinctSubtasks ?? ''}>
            {spreadSentence(s.saltedKeys.length, s.parallelism, s.distinctSubtasks, s.expectedDistinctSubtasks)}
          </p>
          <h4>Busy after, where the buckets land</h4>
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col" className="num">
                  Subtask
                </th>
                <th scope="col">Salted keys</th>
                <th scope="col" className="num">
                  Records/s
                </th>
                <th scope="col" className="num">
                  Busy
                </th>
              </tr>
            </thead>
            <tbody>
              {landed.map((p) => (
                <tr key={p.subtask} data-testid={testIds.advice.predicted(p.subtask)}>
                  <td className="num">{p.subtask}</td>
                  <td>{p.saltedKeys.join(', ')}</td>
                  <td className="num">{formatRecords(p.recordsPerSecond)}</td>
                  <td className="num">{formatBusy(p.busyTimeMsPerSecond)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small" data-testid={testIds.advice.busyMaxOverMean}>
            Busy max/mean: <strong>{formatRatio(s.before.maxOverMean)}</strong> now (max {formatBusy(s.before.max)}) → <strong>{formatRatio(s.after?.maxOverMean)}</strong> after (max{' '}
            {formatBusy(s.after?.max)}).
          </p>
          {s.notes.map((n) => (
            <p key={n} className="muted small">
              {n}
            </p>
          ))}
          <h4>What it costs</h4>
          <ul className="small" data-testid={testIds.advice.costs}>
            {s.costs.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function RescaleSide({ rescale, salting }: { rescale: RescaleAdvice; salting: SaltingAdvice }): ReactNode {
  return (
    <section className="advice-side" data-testid={testIds.advice.rescale}>
      <h3>Rescale</h3>
      <p data-testid={testIds.advice.rescaleSentence}>{rescale.sentence}</p>
      {rescale.plans.map((plan) => {
        const key = plan.hotKeys.find((k) => k.key === salting.key);
        const busy = plan.predicted.map((p) => p.busyTimeMsPerSecond).filter((b): b is number => b !== null);
        return (
          <div key={plan.to} className="advice-rescale-plan" data-testid={testIds.advice.rescalePlan(plan.to)} data-key-subtask={key?.subtaskAfter ?? ''}>
            <h4>
              At parallelism {plan.to} <span className="muted small">(from {plan.from})</span>
            </h4>
            <p className="small">
              Records max/mean {formatRatio(plan.before.maxOverMean)} → {formatRatio(plan.after.maxOverMean)}
              {busy.length > 0 ? `, busiest subtask ${formatBusy(Math.max(...busy))}` : ''}
              {key ? `; ${salting.key} on subtask ${key.subtaskAfter}${key.overCapacity ? ', still over one subtask\u2019s capacity' : ''}` : ''}.
            </p>
            <ul className="small">
              {plan.findings.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
