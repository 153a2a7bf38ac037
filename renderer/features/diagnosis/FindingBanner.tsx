import { memo, useState, type ReactNode } from 'react';
import type { Finding, JobDiagnosis } from '../../../engine/contracts/diagnosis';
import { PollErrorBanner } from '../../components/ErrorBanner';
import type { Polled } from '../../components/usePolling';
import { testIds } from '../../testIds';
import { WINDOWS } from './format';
import { WindowSelect } from './WindowSelect';
import './diagnosis.css';

const SEVERITY_LABEL: Record<Finding['severity'], string> = {
  critical: 'Root cause',
  warning: 'Watch out',
  ok: 'All clear',
  unknown: 'Not yet known',
};

/**
 * The one sentence at the top of the job page: why the job is slow (or that it is not), with the evidence a click
 * away and, one more click, the reasoning, the confidence and what could not be known. Memoized: the job page
 * re-renders on each of its polls' start and end, the banner only on the diagnosis's.
 */
export const FindingBanner = memo(function FindingBanner({
  poll,
  windowMs,
  onWindowChange,
  onShowEvidence,
  onShowFlameGraph,
  onOpenLog,
  onAdvise,
}: {
  poll: Polled<JobDiagnosis>;
  windowMs: number;
  onWindowChange: (ms: number) => void;
  onShowEvidence: (finding: Finding) => void;
  /** Where the finding names a subtask: Flink's flame graph of it (the Inspect tab). */
  onShowFlameGraph: (finding: Finding) => void;
  /** Where the finding names a subtask: its TaskManager's log filtered to its task, or its thread in a fresh dump. */
  onOpenLog?: (finding: Finding, tab: 'log' | 'threads') => void;
  /** A skew finding's way to the Advice panel (salting beside a rescale). */
  onAdvise?: () => void;
}): ReactNode {
  const [open, setOpen] = useState(false);
  const d = poll.data;
  const finding = d?.finding;
  return (
    <section
      className={`finding finding--${finding?.severity ?? 'unknown'}${poll.stale ? ' is-stale' : ''}`}
      data-testid={testIds.diagnosis.finding}
      data-kind={finding?.kind ?? ''}
      data-severity={finding?.severity ?? ''}
      data-vertex={finding?.vertexId ?? ''}
      aria-label="Diagnosis"
      aria-live="polite"
    >
      <div className="finding__main">
        <span className="finding__label">{finding ? (d?.basis?.source === 'flink-now' && finding.severity !== 'unknown' ? `${SEVERITY_LABEL[finding.severity]} · Flink now` : SEVERITY_LABEL[finding.severity]) : 'Diagnosis'}</span>
        <p className="finding__sentence" data-testid={testIds.diagnosis.sentence}>
          {finding ? finding.sentence : poll.error ? 'The diagnosis could not be computed.' : 'Reading the job\u2019s recent history…'}
        </p>
        {d ? (
          <p className="muted small finding__basis" data-testid={testIds.diagnosis.basis} data-basis={d.basis?.source ?? 'window'} data-history={d.window.source ?? ''}>
            {basisInWords(d, windowMs)}
          </p>
        ) : null}
        <div className="finding__actions">
          {finding?.vertexId ? (
            <button type="button" className="button button--small button--primary" onClick={() => onShowEvidence(finding)} data-testid={testIds.diagnosis.evidence}>
              Show evidence
            </button>
          ) : null}
          {finding?.vertexId && finding.subtasks.length > 0 ? (
            <button type="button" className="button button--small" onClick={() => onShowFlameGraph(finding)} data-testid={testIds.diagnosis.flameGraph}>
              Flame graph of subtask {finding.subtasks[0].subtask}
            </button>
          ) : null}
          {finding?.vertexId && finding.subtasks.length > 0 && onOpenLog ? (
            <>
              <button type="button" className="button button--small" onClick={() => onOpenLog(finding, 'log')} data-testid={testIds.diagnosis.subtaskLog} title="Its TaskManager's log, filtered to its task's lines">
                Log
              </button>
              <button type="button" className="button button--small" onClick={() => onOpenLog(finding, 'threads')} data-testid={testIds.diagnosis.subtaskThread} title="Its thread in a fresh thread dump of its TaskManager">
                Thread
              </button>
            </>
          ) : null}
          {finding?.kind === 'skew' && finding.vertexId && onAdvise ? (
            <button type="button" className="button button--small" onClick={onAdvise} data-testid={testIds.advice.open} title="Salting beside a rescale: buckets, where the salted keys land, busy after, the costs">
              Advise on a fix
            </button>
          ) : null}
          {d ? (
            <button type="button" className="button button--small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
              {open ? 'Hide why' : 'Why?'}
            </button>
          ) : null}
          <label className="finding__window" data-testid={testIds.diagnosis.window}>
            <span className="muted small">over</span>
            <WindowSelect value={windowMs} onChange={onWindowChange} label="Diagnosis window" />
          </label>
          {d ? (
            <span className="muted small" title={d.confidence.reasons.join('\n') || 'Enough samples over the whole window'}>
              {d.window.samples} samples · confidence {d.confidence.level}
            </span>
          ) : null}
        </div>
      </div>
      <PollErrorBanner poll={poll} context="The diagnosis failed" />
      {open && d ? (
        <div className="finding__details" data-testid={testIds.diagnosis.details}>
          {d.finding.details.length > 0 ? (
            <ul>
              {d.finding.details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
          {d.otherFindings.map((f) => (
            <p key={f.sentence} className={`finding__other finding__other--${f.severity}`}>
              <strong>Also:</strong> {f.sentence}
            </p>
          ))}
          <p className="muted small">
            Confidence {d.confidence.level}
            {d.confidence.reasons.length > 0 ? `: ${d.confidence.reasons.join('; ')}` : ': enough samples over the whole window.'}
          </p>
          {d.notKnown.length > 0 ? (
            <div className="muted small">
              Not known:
              <ul>
                {d.notKnown.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
});

/** As `toLocaleTimeString('en-GB', { hour12: false })`, built once rather than on every render of the banner. */
const TIME_OF_DAY = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

/** What the sentence rests on: the window it used, or Flink's current figures while the window cannot tell yet. */
function basisInWords(d: JobDiagnosis, windowMs: number): string {
  const asked = WINDOWS.find((w) => w.ms === windowMs)?.label ?? `${Math.round(windowMs / 1000)} s`;
  const sampled = d.window.samples > 1 ? `${Math.round(d.window.spanMs / 1000)} s sampled` : d.window.samples === 1 ? 'one sample' : 'no samples yet';
  if (d.basis?.source === 'flink-now') {
    const at = TIME_OF_DAY.format(d.basis.fetchedAt);
    return d.basis.reason === 'flink-high'
      ? `From Flink's current figures (its metrics at ${at}): it reports a vertex HIGH that the last ${asked} (${sampled}) does not show yet.`
      : `From Flink's current figures (its metrics at ${at}); the history of the last ${asked} is too short for a verdict yet (${sampled}).`;
  }
  return `Window means over the last ${asked}: ${d.window.samples} sample${d.window.samples === 1 ? '' : 's'}, ${sampled}${SOURCE_IN_WORDS[d.window.source ?? 'jobmanager']}.`;
}

/** Which history the window read (said only when it is not the console's own samples of the JobManager). */
const SOURCE_IN_WORDS: Record<NonNullable<JobDiagnosis['window']['source']>, string> = {
  jobmanager: '',
  prometheus: ', from the metrics store (Prometheus)',
  both: ', from the metrics store (Prometheus) and, where it had nothing, sampled from the JobManager',
};
