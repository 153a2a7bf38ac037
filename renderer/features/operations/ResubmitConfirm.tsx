import { useState, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { ResubmitPlan } from '../../../engine/contracts/job-shape';
import { ErrorBanner } from '../../components/ErrorBanner';
import { testIds } from '../../testIds';
import { ResubmitPlanView } from './ResubmitPlanView';

/**
 * The end of a resubmit's confirmation (a resubmit, or a jar run through the same journal): the plan of each vertex,
 * an explicit yes to a change of the job's shape, what non-restored state drops, and the one button that sends it.
 */
export function ResubmitConfirm({
  plan,
  allowNonRestored,
  starting,
  error,
  onConfirm,
  onBack,
}: {
  plan: ResubmitPlan;
  allowNonRestored: boolean;
  starting: boolean;
  error: ErrorInfo | null;
  onConfirm: () => void;
  onBack: () => void;
}): ReactNode {
  const [acceptChanges, setAcceptChanges] = useState(false);
  const changesShape = plan.changes.length > 0;
  return (
    <>
      <ResubmitPlanView plan={plan} />
      {changesShape ? (
        <label className="radio">
          <input type="checkbox" checked={acceptChanges} onChange={(e) => setAcceptChanges(e.target.checked)} /> Run it with {plan.changes.length === 1 ? 'this change' : 'these changes'}
        </label>
      ) : null}
      {allowNonRestored ? <p className="notice notice--warning">State in the savepoint that no operator of this program claims is dropped for good.</p> : null}
      <div className="confirm__actions">
        <button type="button" className="button button--small button--primary" disabled={starting || (changesShape && !acceptChanges)} onClick={onConfirm} data-testid={testIds.operations.confirmButton}>
          {starting ? 'Sending…' : 'Run the job'}
        </button>
        <button type="button" className="button button--small" disabled={starting} onClick={onBack}>
          Back
        </button>
      </div>
      {error ? <ErrorBanner error={error} context="Not submitted" /> : null}
    </>
  );
}
