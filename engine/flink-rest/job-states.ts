/**
 * Job states after which a job never changes again: Flink's globally terminal states, and SUSPENDED (the JobManager
 * gave the job up, as on shutdown without HA). Nothing left to watch, poll or operate on.
 */
const ENDED_JOB_STATES: ReadonlySet<string> = new Set(['FINISHED', 'CANCELED', 'FAILED', 'SUSPENDED']);

export function isEndedJobState(state: string): boolean {
  return ENDED_JOB_STATES.has(state);
}
