import type { ReactNode } from 'react';
import type { ResubmitPlan } from '../../../engine/contracts/job-shape';

/**
 * Flink's plan of a jar as its job graph reads, source first: each vertex with its parallelism and the vertices that
 * feed it (with the ship strategy, as on the job graph's edges).
 */
export function JarPlanGraph({ plan, testId }: { plan: ResubmitPlan; testId?: string }): ReactNode {
  const nodes = plan.graph?.nodes ?? [];
  const nameOf = new Map(plan.planned.map((v) => [v.id, v.name]));
  return (
    <ol className="jar-plan-graph small" data-testid={testId} aria-label="Job graph of the plan">
      {nodes.map((n) => (
        <li key={n.id}>
          <strong>{nameOf.get(n.id) ?? n.id}</strong> <span className="muted">parallelism {n.parallelism}</span>
          {n.inputs.length > 0 ? (
            <span className="muted">
              {' ← '}
              {n.inputs.map((i) => `${nameOf.get(i.id) ?? i.id}${i.ship_strategy ? ` (${i.ship_strategy})` : ''}`).join(', ')}
            </span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
