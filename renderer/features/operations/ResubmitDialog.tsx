import { useState, type ReactNode } from 'react';
import type { JarProgram, JournalEntry, OperationsContext } from '../../../engine/contracts/engine-api';
import { ErrorBanner } from '../../components/ErrorBanner';
import { testIds } from '../../testIds';
import { joinArguments, splitArguments } from './operations';
import { useStartOperation } from './useStartOperation';

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

/** Resubmit: run an uploaded jar from a savepoint, at a parallelism; or, where the cluster takes no jars, what to do instead. */
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
  const [program, setProgram] = useState<JarProgram | null>(context.resubmitDefaults.program);
  const [path, setPath] = useState(savepointPath);
  const [parallelism, setParallelism] = useState(String(context.resubmitDefaults.parallelism));
  const [allowNonRestored, setAllowNonRestored] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { start, starting, error } = useStartOperation();
  const p = Number(parallelism);
  const validParallelism = Number.isInteger(p) && p >= 1;

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

  const onConfirm = async () => {
    const entry = await start({
      kind: 'resubmit',
      clusterId: context.clusterId,
      jobId: context.jobId,
      program: program!,
      savepointPath: path.trim() || undefined,
      parallelism: p,
      allowNonRestoredState: allowNonRestored,
    });
    if (entry) onStarted(entry);
  };

  if (confirming && program) {
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
          with <code className="mono">{joinArguments(program.programArgs ?? []) || 'no arguments'}</code> at parallelism {p},{' '}
          {path.trim() ? (
            <>
              restoring <code className="mono">{path.trim()}</code>
            </>
          ) : (
            'from empty state (no savepoint)'
          )}
          , as a new job with its own id.
        </p>
        {allowNonRestored ? <p className="notice notice--warning">State in the savepoint that no operator of this program claims is dropped for good.</p> : null}
        <div className="confirm__actions">
          <button type="button" className="button button--small button--primary" disabled={starting} onClick={() => void onConfirm()} data-testid={testIds.operations.confirmButton}>
            {starting ? 'Sending…' : 'Run the job'}
          </button>
          <button type="button" className="button button--small" disabled={starting} onClick={() => setConfirming(false)}>
            Back
          </button>
        </div>
        {error ? <ErrorBanner error={error} context="Not submitted" /> : null}
      </div>
    );
  }

  return (
    <form
      className="operation-form"
      aria-label="Resubmit"
      onSubmit={(e) => {
        e.preventDefault();
        if (program && validParallelism) setConfirming(true);
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
          <input id="resubmit-parallelism" inputMode="numeric" value={parallelism} onChange={(e) => setParallelism(e.target.value)} />
        </div>
      </div>
      <label className="radio">
        <input type="checkbox" checked={allowNonRestored} onChange={(e) => setAllowNonRestored(e.target.checked)} /> Allow non-restored state
        <span className="field__hint"> — skip state of operators the program no longer has (that state is dropped)</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="button button--primary button--small" disabled={!program || !validParallelism}>
          Resubmit…
        </button>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
