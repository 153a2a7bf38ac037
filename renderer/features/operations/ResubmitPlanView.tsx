import type { ReactNode } from 'react';
import type { ResubmitPlan, VertexShape } from '../../../engine/contracts/job-shape';
import { testIds } from '../../testIds';

/**
 * Flink's plan of a resubmit beside the stopped run: each vertex's parallelism and max parallelism before, the
 * parallelism Flink will run it at, and every difference named. Flink's plan has no max parallelism: it is compared
 * once the new job runs.
 */
export function ResubmitPlanView({ plan }: { plan: ResubmitPlan }): ReactNode {
  const changed = new Set(plan.changes.map((c) => c.vertexName));
  const stoppedById = new Map((plan.stopped ?? []).map((v) => [v.id, v]));
  const stoppedByName = new Map((plan.stopped ?? []).map((v) => [v.name, v]));
  const before = (v: VertexShape) => stoppedById.get(v.id) ?? stoppedByName.get(v.name);
  return (
    <div className="resubmit-plan" data-testid={testIds.operations.resubmitPlan}>
      <table className="table table--compact">
        <caption className="small muted">
          Flink&apos;s plan ({plan.jobParallelism === null ? 'no job parallelism sent' : `job parallelism ${plan.jobParallelism}`})
          {plan.stopped ? ' beside the stopped run' : ''}
        </caption>
        <thead>
          <tr>
            <th>Vertex</th>
            <th className="num">Stopped run</th>
            <th className="num">Max parallelism</th>
            <th className="num">Plan</th>
          </tr>
        </thead>
        <tbody>
          {plan.planned.map((v) => {
            const b = before(v);
            return (
              <tr key={v.id} className={changed.has(v.name) ? 'is-outlier' : undefined} data-testid={testIds.operations.resubmitPlanVertex(v.id)}>
                <td>{v.name}</td>
                <td className="num">{b ? b.parallelism : '–'}</td>
                <td className="num">{b?.maxParallelism ?? '–'}</td>
                <td className="num">{v.parallelism}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!plan.stopped ? (
        <p className="muted small">No stopped run to compare with: check each vertex&apos;s parallelism.</p>
      ) : plan.changes.length === 0 ? (
        <p className="small" data-testid={testIds.operations.shapeChanges}>
          Same shape as the stopped run: every vertex at its parallelism.
        </p>
      ) : (
        <div className="notice notice--warning" data-testid={testIds.operations.shapeChanges}>
          <p>This run changes the job&apos;s shape:</p>
          <ul>
            {plan.changes.map((c) => (
              <li key={`${c.vertexName}/${c.kind}`}>{c.words}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
