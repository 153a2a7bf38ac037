import type { RehearsalLimits } from '../contracts/rehearsal.ts';

/**
 * The bounds of a rehearsal (see README.md). The twin runs in the console's own process: it must not take the machine,
 * nor hold an operator's terminal or page for minutes. A rehearsal that would exceed a bound is refused before it runs;
 * one that reaches the wall-clock or memory bound while running is stopped. A job busier than the twin can generate is
 * replayed scaled down (twin-scale.ts).
 */
export const REHEARSAL_LIMITS: RehearsalLimits = {
  warmUpSeconds: 30,
  maxMeasuredSeconds: 300,
  maxWallMs: 120_000,
  maxHeapGrowthBytes: 768 * 1024 * 1024,
  maxParallelism: 256,
  maxKeyGroups: 4096,
  maxRecordsPerSecond: 5_000,
};

export const DEFAULT_MEASURED_SECONDS = 60;

/** A rehearsal refused or stopped by a bound: the message names it and what to do. */
export class RehearsalLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RehearsalLimitError';
  }
}

/** Refuses a twin the limits do not allow: each check names the limit and the figure. */
export function checkTwinSize(twin: { parallelism: number; maxParallelism: number; measuredSeconds: number }, limits: RehearsalLimits): void {
  if (!(Number.isFinite(twin.measuredSeconds) && twin.measuredSeconds >= 5 && twin.measuredSeconds <= limits.maxMeasuredSeconds)) {
    throw new RehearsalLimitError(`A rehearsal measures from 5 to ${limits.maxMeasuredSeconds} simulated seconds per run, not ${twin.measuredSeconds}.`);
  }
  if (twin.parallelism > limits.maxParallelism) {
    throw new RehearsalLimitError(`The twin runs at most ${limits.maxParallelism} subtasks of the keyed vertex, not ${twin.parallelism}: rehearse a smaller parallelism.`);
  }
  if (twin.maxParallelism > limits.maxKeyGroups) {
    throw new RehearsalLimitError(`The twin replays at most ${limits.maxKeyGroups} key groups; the job's max parallelism is ${twin.maxParallelism}.`);
  }
}
