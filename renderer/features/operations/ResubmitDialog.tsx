import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { ResubmitPlan } from '../../../engine/contracts/job-shape';
import type { JarProgram, JournalEntry, OperationsContext } from '../../../engine/contracts/operations';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { joinArguments, splitArguments } from './operations';
import { ResubmitConfirm } from './ResubmitConfirm';
import { useStartOperation } from './useStartOperation';
import { useOperationsApi } from './api';

/** The program fields (jar, entry class, arguments), shared by resubmit and a rescale through a savepoint. */
export function ProgramFields({ context, program, onChange }: { context: OperationsContext; program: JarProgram | null; onChange: (p: JarProgram | null) => void }): ReactNode {
  const jar = context.jars.find((j) => j.id === program?.jarId);
  return (
    <>
      <div className="form-row">
        <div className="field">
          <label htmlFor="program-jar">Jar</label>
          <select
            id="program-jar"
            className="select"
            value={program?.jarId ?? ''}
            onChange={(e) => {
              const picked = context.jars.find((j) => j.id === e.target.value);
              onChange(picked ? { jarId: picked.id, entryClass: picked.entryClasses[0], programArgs: program?.programArgs ?? [] } : null);
            }}
          >
            <option value="">Pick the jar that runs this job…</option>
            {context.jars.map((j) => (
              <option key={j.id} value={j.id}>
                {j.name} ({j.id})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="program-entry">Entry class</label>
          <input
            id="program-entry"
            list="program-entry-classes"
            value={program?.entryClass ?? ''}
            disabled={!program}
            onChange={(e) => program && onChange({ ...program, entryClass: e.target.value || undefined })}
            spellCheck={false}
          />
          <datalist id="program-entry-classes">
            {(jar?.entryClasses ?? []).map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
      </div>
      <div className="field">
        <label htmlFor="program-args">Program arguments</label>
        <input
          id="program-args"
          value={joinArguments(program?.programArgs ?? [])}
          disabled={!program}
          onChange={(e) => program && onChange({ ...program, programArgs: splitArguments(e.target.value) })}
          spellCheck={false}
        />
        <span className="field__hint">Proposed: {context.resubmitDefaults.source}. Flink does not keep a job's arguments: check them.</span>
      </div>
    </>
  );
}

/**
 * Resubmit: run an uploaded jar from a savepoint; or, where the cluster takes no jars, what to do instead. Before
 * anything is sent, the confirmation shows Flink's plan of the run beside the stopped run and names every difference;
 * a changed shape must be accepted explicitly.
 */
export function ResubmitDialog({
  context,
  savepointPath,
  onStarted,
  onClose,
}: {
  context: OperationsContext;
  savepointPath: string;
  onStarted: (entry: JournalEntry) => void;
  onClose: () => void;
}): ReactNode {
  const operationsApi = useOperationsApi();
  const [program, setProgram] = useState<JarProgram | null>(context.resubmitDefaults.program);
  const [path, setPath] = useState(savepointPath);
  // The stopped run's own default: operators that set their own parallelism keep it.
  const [parallelism, setParallelism] = useState(context.resubmitDefaults.parallelism === null ? '' : String(context.resubmitDefaults.parallelism));
  const [allowNonRestored, setAllowNonRestored] = useState(false);
  const [plan, setPlan] = useState<ResubmitPlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [planError, setPlanError] = useState<ErrorInfo | null>(null);
  const { start, starting, error } = useStartOperation();
  const p = parallelism.trim() === '' ? undefined : Number(parallelism);
  const validParallelism = p === undefined || (Number.isInteger(p) && p >= 1);

  if (context.jarSubmissionUnavailable) {
    return (
      <div className="notice notice--warning" role="note">
        <p>{context.jarSubmissionUnavailable}</p>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
    );
  }

  const request = () => ({
    clusterId: context.clusterId,
    jobId: context.jobId,
    program: program!,
    savepointPath: path.trim() || undefined,
    parallelism: p,
    allowNonRestoredState: allowNonRestored,
  });

  const askForPlan = async () => {
    if (!program || !validParallelism || planning) return;
    setPlanning(true);
    setPlanError(null);
    try {
      setPlan(await operationsApi.planResubmit(request()));
    } catch (e) {
      setPlanError(toErrorInfo(e));
    } finally {
      setPlanning(false);
    }
  };

  const onConfirm = async () => {
    const entry = await start({ kind: 'resubmit', ...request() });
    if (entry) onStarted(entry);
  };

  if (plan && program) {
    return (
      <div className="confirm confirm--operation" role="alertdialog" aria-label="Resubmit the job?" data-testid={testIds.operations.confirm}>
        <p>
          Run <code className="mono">{context.jars.find((j) => j.id === program.jarId)?.name ?? program.jarId}</code>
          {program.entryClass ? (
            <>
              {' '}
              (<code className="mono">{program.entryClass}</code>)
            </>
          ) : null}{' '}
          with <code className="mono">{joinArguments(program.programArgs ?? []) || 'no arguments'}</code>{' '}
          {p === undefined ? 'with no job parallelism (the program\'s own and the cluster\'s default)' : `at job parallelism ${p}`},{' '}
          {path.trim() ? (
            <>
              restoring <code className="mono">{path.trim()}</code>
            </>
          ) : (
            'from empty state (no savepoint)'
          )}
          , as a new job with its own id.
        </p>
        <ResubmitConfirm plan={plan} allowNonRestored={allowNonRestored} starting={starting} error={error} onConfirm={() => void onConfirm()} onBack={() => setPlan(null)} />
      </div>
    );
  }

  return (
    <form
      className="operation-form"
      aria-label="Resubmit"
      onSubmit={(e) => {
        e.preventDefault();
        void askForPlan();
      }}
    >
      <h3 className="operation-form__title">Resubmit from a savepoint</h3>
      <ProgramFields context={context} program={program} onChange={setProgram} />
      <div className="form-row">
        <div className="field">
          <label htmlFor="resubmit-savepoint">Savepoint (or retained checkpoint)</label>
          <input id="resubmit-savepoint" value={path} onChange={(e) => setPath(e.target.value)} placeholder="s3://bucket/savepoints/savepoint-…" spellCheck={false} />
        </div>
        <div className={`field field--narrow${validParallelism ? '' : ' field--invalid'}`}>
          <label htmlFor="resubmit-parallelism">Parallelism</label>
          <input id="resubmit-parallelism" inputMode="numeric" value={parallelism} placeholder="default" onChange={(e) => setParallelism(e.target.value)} />
          <span className="field__hint">
            {context.resubmitDefaults.parallelism === null ? 'Empty: none sent.' : `The stopped run's: ${context.resubmitDefaults.parallelism}.`} Operators that set their own keep it.
          </span>
        </div>
      </div>
      <label className="radio">
        <input type="checkbox" checked={allowNonRestored} onChange={(e) => setAllowNonRestored(e.target.checked)} /> Allow non-restored state
        <span className="field__hint"> — skip state of operators the program no longer has (that state is dropped)</span>
      </label>
      {planError ? <ErrorBanner error={planError} context="Flink could not plan this run: nothing was sent" /> : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary button--small" disabled={!program || !validParallelism || planning}>
          {planning ? 'Asking Flink for the plan…' : 'Resubmit…'}
        </button>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
