import type { ReactNode } from 'react';

/** Flink job and execution states by colour family; unknown states pass through in neutral grey. */
const TONE: Record<string, string> = {
  RUNNING: 'running',
  FINISHED: 'finished',
  CANCELED: 'cancelled',
  CANCELLED: 'cancelled',
  CANCELING: 'cancelled',
  FAILED: 'failed',
  FAILING: 'failed',
  RESTARTING: 'warning',
  SUSPENDED: 'warning',
  RECONCILING: 'warning',
  INITIALIZING: 'pending',
  CREATED: 'pending',
  SCHEDULED: 'pending',
  DEPLOYING: 'pending',
  INITIALIZING_TASK: 'pending',
};

export function stateTone(state: string): string {
  return TONE[state.toUpperCase()] ?? 'neutral';
}

export function StateBadge({ state, testId }: { state: string; testId?: string }): ReactNode {
  return (
    <span className={`badge badge--${stateTone(state)}`} data-testid={testId}>
      {state.toUpperCase()}
    </span>
  );
}

/** Task counts by ExecutionState as small coloured numbers; zero counts and Flink's `total` left out. */
export function TaskCounts({ tasks }: { tasks: Record<string, number> }): ReactNode {
  const entries = Object.entries(tasks).filter(([state, n]) => state.toLowerCase() !== 'total' && n > 0);
  if (entries.length === 0) return <span className="muted">—</span>;
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return (
    <span className="task-counts" title={`${total} tasks: ${entries.map(([s, n]) => `${n} ${s.toLowerCase()}`).join(', ')}`}>
      {entries.map(([state, n]) => (
        <span key={state} className={`task-count badge--${stateTone(state)}`} title={`${n} ${state.toLowerCase()}`}>
          {n}
          <span className="visually-hidden"> {state.toLowerCase()}</span>
        </span>
      ))}
    </span>
  );
}
