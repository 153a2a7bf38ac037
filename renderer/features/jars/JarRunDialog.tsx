import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JarInfo } from '../../../engine/contracts/jars';
import type { ResubmitPlan } from '../../../engine/contracts/job-shape';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { useOperationsApi } from '../operations/api';
import { joinArguments, splitArguments } from '../operations/operations';
import { ResubmitConfirm } from '../operations/ResubmitConfirm';
import { useStartOperation } from '../operations/useStartOperation';
import { JarPlanGraph } from './JarPlanGraph';

/**
 * Run an uploaded jar, from a savepoint or not: Flink's plan first (the graph it would run, beside the savepoint's
 * job when the journal knows it), then the resubmit's confirmation and journal. A changed shape must be accepted.
 */
export function JarRunDialog({ clusterId, jar, onStarted, onClose }: { clusterId: string; jar: JarInfo; onStarted: (entry: JournalEntry) => void; onClose: () => void }): ReactNode {
  const operationsApi = useOperationsApi();
  const [entryClass, setEntryClass] = useState(jar.entryClasses[0] ?? '');
  const [args, setArgs] = useState('');
  const [parallelism, setParallelism] = useState('');
  const [savepointPath, setSavepointPath] = useState('');
  const [allowNonRestored, setAllowNonRestored] = useState(false);
  const [plan, setPlan] = useState<ResubmitPlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [planError, setPlanError] = useState<ErrorInfo | null>(null);
  const { start, starting, error } = useStartOperation();
  const p = parallelism.trim() === '' ? undefined : Number(parallelism);
  const validParallelism = p === undefined || (Number.isInteger(p) && p >= 1);

  const request = () => ({
    clusterId,
    program: { jarId: jar.id, entryClass: entryClass.trim() || undefined, programArgs: splitArguments(args) },
    savepointPath: savepointPath.trim() || undefined,
    parallelism: p,
    allowNonRestoredState: allowNonRestored,
  });

  const askForPlan = async () => {
    if (!validParallelism || planning) return;
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

  if (plan) {
    const from = savepointPath.trim();
    return (
      <div className="confirm confirm--operation" role="alertdialog" aria-label="Run the jar?" data-testid={testIds.operations.confirm}>
        <p>
          Start a new job from <code className="mono">{jar.name}</code>
          {entryClass.trim() ? (
            <>
              {' '}
              (<code className="mono">{entryClass.trim()}</code>)
            </>
          ) : null}{' '}
          with <code className="mono">{joinArguments(splitArguments(args)) || 'no arguments'}</code>{' '}
          {p === undefined ? "with no job parallelism (the program's own and the cluster's default)" : `at job parallelism ${p}`},{' '}
          {from ? (
            <>
              restoring <code className="mono">{from}</code>
            </>
          ) : (
            'from empty state (no savepoint)'
          )}
          .
        </p>
        {plan.stoppedJob?.source === 'savepoint' ? (
          <p className="small">
            Compared with job <code className="mono small">{plan.stoppedJob.jobId}</code>, whose savepoint this is.
          </p>
        ) : from ? (
          <p className="muted small">The console has no record of the job this savepoint came from: check each vertex&apos;s parallelism.</p>
        ) : null}
        <JarPlanGraph plan={plan} testId={testIds.jars.planGraph} />
        <ResubmitConfirm plan={plan} allowNonRestored={allowNonRestored} starting={starting} error={error} onConfirm={() => void onConfirm()} onBack={() => setPlan(null)} />
      </div>
    );
  }

  return (
    <form
      className="operation-form"
      aria-label={`Run ${jar.name}`}
      data-testid={testIds.jars.dialog}
      onSubmit={(e) => {
        e.preventDefault();
        void askForPlan();
      }}
    >
      <h3 className="operation-form__title">Run {jar.name}</h3>
      <div className="form-row">
        <div className="field">
          <label htmlFor="jar-entry">Entry class</label>
          <input id="jar-entry" list="jar-entry-classes" value={entryClass} onChange={(e) => setEntryClass(e.target.value)} spellCheck={false} />
          <datalist id="jar-entry-classes">
            {jar.entryClasses.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <div className={`field field--narrow${validParallelism ? '' : ' field--invalid'}`}>
          <label htmlFor="jar-parallelism">Parallelism</label>
          <input id="jar-parallelism" inputMode="numeric" value={parallelism} placeholder="default" onChange={(e) => setParallelism(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="jar-args">Program arguments</label>
        <input id="jar-args" value={args} onChange={(e) => setArgs(e.target.value)} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="jar-savepoint">Savepoint (or retained checkpoint)</label>
        <input id="jar-savepoint" value={savepointPath} onChange={(e) => setSavepointPath(e.target.value)} placeholder="none: start from empty state" spellCheck={false} />
      </div>
      <label className="radio">
        <input type="checkbox" checked={allowNonRestored} onChange={(e) => setAllowNonRestored(e.target.checked)} /> Allow non-restored state
        <span className="field__hint"> — skip state of operators the program no longer has (that state is dropped)</span>
      </label>
      {planError ? <ErrorBanner error={planError} context="Flink could not plan this run: nothing was sent" /> : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary button--small" disabled={!validParallelism || planning}>
          {planning ? 'Asking Flink for the plan…' : 'Show the plan…'}
        </button>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
