import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JarProgram, JournalEntry, OperationsContext } from '../../../engine/contracts/operations';
import type { RescalePlan } from '../../../engine/contracts/rescale';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { testIds } from '../../testIds';
import { parseHotKeys } from './operations';
import { ProgramFields } from './ResubmitDialog';
import { RescalePlanView } from './RescalePlanView';
import { useStartOperation } from './useStartOperation';
import { useOperationsApi } from './api';

/**
 * Rescale: a parallelism (for the whole job, or one vertex on the adaptive scheduler) and the hot keys you know of;
 * then the plan (the predicted per-subtask load of every keyed vertex), then the confirmation.
 */
export function RescaleDialog({ context, onStarted, onClose }: { context: OperationsContext; onStarted: (entry: JournalEntry) => void; onClose: () => void }): ReactNode {
  const operationsApi = useOperationsApi();
  const current = Math.max(...context.vertices.map((v) => v.parallelism));
  const [parallelism, setParallelism] = useState(String(current));
  const [vertexId, setVertexId] = useState('');
  const [hotKeysText, setHotKeysText] = useState('');
  const [plan, setPlan] = useState<RescalePlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [planError, setPlanError] = useState<ErrorInfo | null>(null);
  const [program, setProgram] = useState<JarProgram | null>(context.resubmitDefaults.program);
  const [confirming, setConfirming] = useState(false);
  const { start, starting, error } = useStartOperation();

  const p = Number(parallelism);
  const maxOfTarget = vertexId ? context.vertices.find((v) => v.id === vertexId)?.maxParallelism : Math.min(...context.vertices.map((v) => v.maxParallelism ?? Infinity));
  const parallelismProblem = !(Number.isInteger(p) && p >= 1)
    ? 'A whole number of at least 1.'
    : maxOfTarget != null && Number.isFinite(maxOfTarget) && p > maxOfTarget
      ? `Above the max parallelism (${maxOfTarget}): Flink cannot run more subtasks than key groups.`
      : null;
  const hotKeys = parseHotKeys(hotKeysText);
  // Hot keys belong to the vertex being rescaled when there is one (another keyed vertex may key by something else).
  const request = { parallelism: vertexId ? { [vertexId]: p } : p, hotKeys: hotKeys.keys.map((k) => (vertexId ? { ...k, vertexId } : k)) };
  const savepointRoute = context.scheduler.kind !== 'adaptive';

  const onPlan = async () => {
    setPlanning(true);
    setPlanError(null);
    setPlan(null);
    try {
      setPlan(await operationsApi.planRescale(context.clusterId, context.jobId, request));
    } catch (e) {
      setPlanError(toErrorInfo(e));
    } finally {
      setPlanning(false);
    }
  };

  const onConfirm = async () => {
    const entry = await start({ kind: 'rescale', clusterId: context.clusterId, jobId: context.jobId, ...request, ...(savepointRoute && program ? { program } : {}) });
    if (entry) onStarted(entry);
  };

  return (
    <div className="operation-form" aria-label="Rescale">
      <h3 className="operation-form__title">Rescale</h3>
      <p className="muted small">{context.scheduler.reason}</p>
      <div className="form-row">
        <div className={`field field--narrow${parallelismProblem ? ' field--invalid' : ''}`}>
          <label htmlFor="rescale-parallelism">New parallelism</label>
          <input
            id="rescale-parallelism"
            inputMode="numeric"
            value={parallelism}
            onChange={(e) => {
              setParallelism(e.target.value);
              setPlan(null);
              setConfirming(false);
            }}
          />
          {parallelismProblem ? <span className="field__error">{parallelismProblem}</span> : null}
        </div>
        <div className="field">
          <label htmlFor="rescale-vertex">Vertices</label>
          <select
            id="rescale-vertex"
            className="select"
            value={vertexId}
            disabled={savepointRoute}
            onChange={(e) => {
              setVertexId(e.target.value);
              setPlan(null);
            }}
          >
            <option value="">every vertex</option>
            {context.vertices.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} (now {v.parallelism}{v.keyed ? ', keyed' : ''})
              </option>
            ))}
          </select>
          {savepointRoute ? <span className="field__hint">Through a savepoint the whole job gets one parallelism.</span> : null}
        </div>
      </div>
      <div className={`field${hotKeys.errors.length ? ' field--invalid' : ''}`}>
        <label htmlFor="rescale-hot-keys">Known hot keys (optional)</label>
        <textarea
          id="rescale-hot-keys"
          rows={2}
          value={hotKeysText}
          placeholder={'acme 400\n(one per line: the key, then its records per second)'}
          onChange={(e) => {
            setHotKeysText(e.target.value);
            setPlan(null);
          }}
        />
        {hotKeys.errors.map((e) => (
          <span key={e} className="field__error">
            {e}
          </span>
        ))}
        <span className="field__hint">
          Flink cannot tell which keys are hot; the plan places those you give exactly and spreads the rest evenly. They apply to {vertexId ? 'the vertex chosen above' : 'every keyed vertex'}.
        </span>
      </div>
      {savepointRoute ? (
        context.jarSubmissionUnavailable ? (
          <p className="notice notice--warning">{context.jarSubmissionUnavailable}</p>
        ) : (
          <ProgramFields context={context} program={program} onChange={setProgram} />
        )
      ) : null}
      <div className="form-actions">
        <button type="button" className="button button--small" disabled={!!parallelismProblem || hotKeys.errors.length > 0 || planning} onClick={() => void onPlan()}>
          {planning ? 'Measuring the load…' : plan ? 'Plan again' : 'Plan the rescale'}
        </button>
        <button
          type="button"
          className="button button--primary button--small"
          disabled={!plan || plan.refusals.length > 0 || (savepointRoute && !program)}
          onClick={() => setConfirming(true)}
        >
          Rescale…
        </button>
        <button type="button" className="button button--small" onClick={onClose}>
          Close
        </button>
      </div>
      {planError ? <ErrorBanner error={planError} context="No plan" /> : null}
      {plan ? <RescalePlanView plan={plan} /> : null}
      {confirming && plan ? (
        <div className="confirm confirm--operation" role="alertdialog" aria-label="Rescale the job?" data-testid={testIds.operations.confirm}>
          <p>
            Rescale <strong>{context.jobName}</strong> to {vertexId ? `parallelism ${p} for ${context.vertices.find((v) => v.id === vertexId)?.name}` : `parallelism ${p}`}.{' '}
            {plan.route === 'adaptive'
              ? 'The adaptive scheduler restarts the job from its latest checkpoint at the new parallelism (after its next checkpoint, on Flink 1.20 and later); records since that checkpoint are processed again.'
              : 'The job stops with a savepoint (no drain), then runs again from it at the new parallelism as a new job, with a new job id.'}
          </p>
          <div className="confirm__actions">
            <button type="button" className="button button--small button--primary" disabled={starting} onClick={() => void onConfirm()} data-testid={testIds.operations.confirmButton}>
              {starting ? 'Sending…' : 'Rescale the job'}
            </button>
            <button type="button" className="button button--small" disabled={starting} onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
          {error ? <ErrorBanner error={error} context="Not rescaled" /> : null}
        </div>
      ) : null}
    </div>
  );
}
