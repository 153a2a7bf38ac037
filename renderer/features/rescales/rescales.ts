import type { JobRescale, RescalesConfig } from '../../../engine/contracts/jobs';
import { DASH, formatDuration } from '../../components/format';

/** The Rescales tab's words: pure, tested beside. */

/** Why a rescale waited, from the adaptive scheduler's settings; a setting Flink did not send reads "—". */
export function configSentence(config: RescalesConfig): string {
  const d = (ms: number | null) => (ms === null ? DASH : formatDuration(ms));
  const trigger = config.maxTriggerDelayMs === null ? '' : `; a wanted rescale is triggered at the latest ${d(config.maxTriggerDelayMs)} after it became possible`;
  const kept = config.historySize === null ? '' : ` The cluster keeps the last ${config.historySize} rescales of a job.`;
  return (
    `A rescale waits at least ${d(config.cooldownMs)} after the last one (cooldown) and up to ${d(config.resourceStabilizationMs)} for resources to stabilize${trigger}. ` +
    `At submission the job waits up to ${d(config.submissionResourceWaitMs)} for resources and ${d(config.submissionResourceStabilizationMs)} for them to stabilize.${kept}`
  );
}

/** A vertex's parallelism in a rescale: `1 → 2`, with what was asked for when it differs (`2 → — (wanted 3)`). */
export function parallelismChange(vertex: JobRescale['vertices'][number]): string {
  const change = `${vertex.before ?? DASH} → ${vertex.after ?? DASH}`;
  return vertex.desired !== null && vertex.desired !== vertex.after ? `${change} (wanted ${vertex.desired})` : change;
}

/** A slot sharing group's slots in a rescale, same shape. */
export function slotsChange(slots: JobRescale['slots'][number]): string {
  const change = `${slots.before ?? DASH} → ${slots.after ?? DASH}`;
  return slots.desired !== null && slots.desired !== slots.after ? `${change} (wanted ${slots.desired})` : change;
}

export const TRIGGER_LABEL: Record<string, string> = {
  INITIAL_SCHEDULE: 'first schedule',
  UPDATE_REQUIREMENT: 'new requirements',
  NEW_RESOURCE_AVAILABLE: 'new resources',
  RECOVERABLE_FAILOVER: 'failover',
};

export function stateTone(terminalState: string | null): string {
  if (terminalState === 'COMPLETED') return 'running';
  if (terminalState === 'FAILED') return 'failed';
  if (terminalState === 'IGNORED') return 'warning';
  return 'pending';
}
