import type { HistoryEvent } from '../history/event-log.ts';
import type { JobSample } from '../history/job-sample.ts';

/** States a job passes through on its way back to RUNNING after a failure. */
const RECOVERING = new Set(['RESTARTING', 'FAILING', 'INITIALIZING', 'CREATED']);

/**
 * Pure: what changed between two consecutive samples of a job that a timeline should say — a state change, a
 * JobManager that recovered the job (its start time moved: Flink's checkpoint statistics and metrics start over),
 * subtasks restarted with a new attempt (a failover).
 */
export function eventsBetween(previous: JobSample | undefined, current: JobSample): HistoryEvent[] {
  if (!previous) return [];
  const at = { clusterId: current.clusterId, jobId: current.jobId, t: current.t };
  const events: HistoryEvent[] = [];
  if (previous.jobState !== current.jobState) {
    events.push({ ...at, kind: 'job-state', message: `The job went from ${previous.jobState} to ${current.jobState}.` });
  }
  if (previous.jobStartTime > 0 && current.jobStartTime > 0 && previous.jobStartTime !== current.jobStartTime) {
    events.push({
      ...at,
      kind: 'jobmanager-failover',
      message: `The JobManager recovered the job (its start time moved from ${iso(previous.jobStartTime)} to ${iso(current.jobStartTime)}): Flink's checkpoint statistics and metrics started over.`,
    });
  }
  const restarted = restartedVertices(previous, current);
  if (restarted.length === 0 && RECOVERING.has(previous.jobState) && current.jobState === 'RUNNING') {
    events.push({ ...at, kind: 'job-restarted', message: `The job is running again after ${previous.jobState.toLowerCase()}.` });
  } else if (restarted.length > 0) {
    const subtasks = restarted.reduce((sum, r) => sum + r.subtasks, 0);
    events.push({
      ...at,
      kind: 'job-restarted',
      message: `${subtasks} subtask${subtasks === 1 ? '' : 's'} of ${restarted.map((r) => r.name).join(', ')} restarted with a new attempt (failover).`,
      vertexIds: restarted.map((r) => r.id),
    });
  }
  return events;
}

/**
 * Pure: what the sample after `current` is compared with. A vertex `current` could not sample (its subtasks were
 * failed, canceled or initializing, or its request failed) keeps the subtasks seen before it, so a failover that
 * begins and ends between two samples — the adaptive scheduler's restart takes a few seconds — still shows as new
 * attempts. Once a restart has been told, what came before it is let go: it is never told twice.
 */
export function comparisonBase(base: JobSample | undefined, current: JobSample, told: HistoryEvent[]): JobSample {
  if (!base || told.some((e) => e.kind === 'job-restarted')) return current;
  const before = new Map(base.vertices.map((v) => [v.id, v]));
  let carried = false;
  const vertices = current.vertices.map((vertex) => {
    const then = before.get(vertex.id);
    if (vertex.subtasks || !then?.subtasks || then.parallelism !== vertex.parallelism) return vertex;
    carried = true;
    return { ...vertex, subtasks: then.subtasks };
  });
  return carried ? { ...current, vertices } : current;
}

function restartedVertices(previous: JobSample, current: JobSample): Array<{ id: string; name: string; subtasks: number }> {
  const before = new Map(previous.vertices.map((v) => [v.id, v.subtasks]));
  const restarted: Array<{ id: string; name: string; subtasks: number }> = [];
  for (const vertex of current.vertices) {
    const then = before.get(vertex.id);
    const now = vertex.subtasks;
    if (!then || !now || then.attempt.length !== now.attempt.length) continue;
    let subtasks = 0;
    for (let k = 0; k < now.attempt.length; k++) if (now.attempt[k] > then.attempt[k]) subtasks++;
    if (subtasks > 0) restarted.push({ id: vertex.id, name: vertex.name, subtasks });
  }
  return restarted;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
