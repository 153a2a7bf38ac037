import type { StatePhase, SubtaskTimeline, VertexTimeline } from '../contracts/inspect.ts';

/**
 * Pure: Flink's `subtasktimes` (when each subtask entered each ExecutionState, 0 = never) → phases in order of time,
 * each ending where the next begins; the last one runs until `now` unless it is a terminal state.
 */
export function subtaskTimeline(
  subtasks: ReadonlyArray<{ index: number; endpoint: string | null; timestamps: Readonly<Record<string, number>> }>,
  now: number,
): VertexTimeline {
  const rows: SubtaskTimeline[] = [...subtasks]
    .sort((a, b) => a.index - b.index)
    .map(({ index, endpoint, timestamps }) => ({ index, endpoint, phases: phasesOf(timestamps) }));
  const starts = rows.flatMap((r) => r.phases.map((p) => p.start));
  const running = rows.map((r) => ({ index: r.index, at: runningSince(r.phases) }));
  const lastRunning = running.every((r) => r.at !== null) && running.length > 0
    ? running.reduce((last, r) => (r.at! > last.at! ? r : last))
    : null;
  return {
    subtasks: rows,
    from: starts.length > 0 ? Math.min(...starts) : null,
    to: Math.max(now, ...starts),
    lastRunning: lastRunning === null ? null : { index: lastRunning.index, at: lastRunning.at! },
  };
}

const TERMINAL = new Set(['FINISHED', 'CANCELED', 'FAILED']);
/** Flink's order of ExecutionState, for states entered in the same millisecond. */
const ORDER = ['CREATED', 'SCHEDULED', 'DEPLOYING', 'INITIALIZING', 'RUNNING', 'FINISHED', 'CANCELING', 'CANCELED', 'FAILED', 'RECONCILING'];
const rank = (state: string) => (ORDER.includes(state) ? ORDER.indexOf(state) : ORDER.length);

function phasesOf(timestamps: Readonly<Record<string, number>>): StatePhase[] {
  const entered = Object.entries(timestamps)
    .filter(([, at]) => Number.isFinite(at) && at > 0)
    .sort(([a, x], [b, y]) => x - y || rank(a) - rank(b));
  return entered.map(([state, start], i) => ({
    state,
    start,
    end: i + 1 < entered.length ? entered[i + 1][1] : TERMINAL.has(state) ? start : null,
  }));
}

/** The subtask runs now only if RUNNING is its last phase. */
function runningSince(phases: StatePhase[]): number | null {
  const last = phases[phases.length - 1];
  return last?.state === 'RUNNING' ? last.start : null;
}
