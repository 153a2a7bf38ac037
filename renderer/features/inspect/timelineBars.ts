import type { VertexTimeline } from '../../../engine/contracts/inspect';

/** One bar of the timeline: a phase as a share of the axis (0..100, in %), with what its tooltip says. */
export interface TimelineBar {
  state: string;
  leftPercent: number;
  widthPercent: number;
  durationMs: number;
}

/** States the timeline names; the rest (FINISHED, CANCELING, ...) share one colour. */
export const TIMELINE_STATES = ['CREATED', 'SCHEDULED', 'DEPLOYING', 'INITIALIZING', 'RUNNING'] as const;

/**
 * Pure: each subtask's phases on a shared axis from the earliest state change to the JobManager's now. A phase of
 * a few ms still shows (at least 0.3 %), so a fast DEPLOYING is visible beside a long INITIALIZING.
 */
export function timelineBars(timeline: VertexTimeline): Array<{ index: number; bars: TimelineBar[] }> {
  const from = timeline.from ?? timeline.to;
  const span = Math.max(1, timeline.to - from);
  const percent = (ms: number) => (100 * (ms - from)) / span;
  return timeline.subtasks.map((row) => ({
    index: row.index,
    bars: row.phases.map((phase) => {
      const end = phase.end ?? timeline.to;
      const left = percent(phase.start);
      return { state: phase.state, leftPercent: left, widthPercent: Math.min(100 - left, Math.max(0.3, percent(end) - left)), durationMs: end - phase.start };
    }),
  }));
}
