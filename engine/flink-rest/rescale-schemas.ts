import { z } from 'zod';
import { StatsSummary } from './schemas.ts';

/**
 * The adaptive scheduler's rescale history (Flink 2.3, FLIP-495): `GET /jobs/:jobid/rescales/…`. Field names and enums
 * as Flink's `JobRescaleDetails`, `JobRescalesOverview`, `JobRescalesSummary` and `JobRescaleConfigInfo` write them;
 * every enum also takes a value a later Flink may add (kept as text), and unknown fields pass through.
 */

/** How a rescale ended (`TerminalState`); null while it runs. */
export const RESCALE_TERMINAL_STATES = ['COMPLETED', 'FAILED', 'IGNORED'] as const;
/** Why it ended (`TerminatedReason`). */
export const RESCALE_TERMINATED_REASONS = [
  'SUCCEEDED',
  'EXCEPTION_OCCURRED',
  'RESOURCE_REQUIREMENTS_UPDATED',
  'NO_RESOURCES_OR_PARALLELISMS_CHANGE',
  'JOB_FINISHED',
  'JOB_FAILED',
  'JOB_CANCELED',
  'JOB_FAILOVER_RESTARTING',
] as const;
/** What started it (`TriggerCause`). */
export const RESCALE_TRIGGER_CAUSES = ['INITIAL_SCHEDULE', 'UPDATE_REQUIREMENT', 'NEW_RESOURCE_AVAILABLE', 'RECOVERABLE_FAILOVER'] as const;

const count = z.number().int().nullable().optional();
const millis = z.number().nullable().optional();

/** `VertexParallelismRescaleInfo`: one vertex's parallelism wanted, sufficient, before and after (null until known). */
export const RescaleVertex = z.object({
  jobVertexId: z.string(),
  jobVertexName: z.string().nullable().optional(),
  slotSharingGroupId: z.string().nullable().optional(),
  slotSharingGroupName: z.string().nullable().optional(),
  desiredParallelism: count,
  sufficientParallelism: count,
  preRescaleParallelism: count,
  postRescaleParallelism: count,
});

/** `SlotSharingGroupRescaleInfo`: one slot sharing group's slots wanted, needed at least, before and after. */
export const RescaleSlots = z.object({
  slotSharingGroupId: z.string(),
  slotSharingGroupName: z.string().nullable().optional(),
  desiredSlots: count,
  minimalRequiredSlots: count,
  preRescaleSlots: count,
  postRescaleSlots: count,
});

/** `SchedulerStateSpan`: a state of the adaptive scheduler the rescale went through, with its exception if any. */
export const SchedulerStateSpan = z.object({
  state: z.string(),
  enterTimestampInMillis: millis,
  leaveTimestampInMillis: millis,
  durationInMillis: millis,
  stringifiedException: z.string().nullable().optional(),
});

/**
 * `JobRescaleDetails`: one rescale. In `/history` and `/overview` Flink leaves `vertices`, `slots` and
 * `schedulerStates` empty; `/details/:rescaleuuid` fills them.
 */
export const JobRescaleDetails = z.object({
  rescaleUuid: z.string(),
  resourceRequirementsUuid: z.string().nullable().optional(),
  rescaleAttemptId: z.number().int().nullable().optional(),
  vertices: z.record(z.string(), RescaleVertex).nullable().optional(),
  slots: z.record(z.string(), RescaleSlots).nullable().optional(),
  schedulerStates: z.array(SchedulerStateSpan).nullable().optional(),
  startTimestampInMillis: millis,
  endTimestampInMillis: millis,
  terminalState: z.string().nullable().optional(),
  triggerCause: z.string().nullable().optional(),
  terminatedReason: z.string().nullable().optional(),
});

/** `JobRescalesHistory`: the last `web.adaptive-scheduler.rescale-history.size` rescales, newest first. */
export const JobRescalesHistory = z.array(JobRescaleDetails);

export const RescalesCounts = z.object({
  ignored: z.number().int(),
  inProgress: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});

/** `JobRescalesOverview`: the counts and the latest rescale of each terminal state. */
export const JobRescalesOverview = z.object({
  rescalesCounts: RescalesCounts,
  latest: z
    .object({ completed: JobRescaleDetails.nullable().optional(), failed: JobRescaleDetails.nullable().optional(), ignored: JobRescaleDetails.nullable().optional() })
    .nullable()
    .optional(),
});

/** `JobRescalesSummary`: counts and duration statistics (ms); an empty percentile ("NaN") reads as null. */
export const JobRescalesSummary = z.object({
  rescalesCounts: RescalesCounts,
  rescalesDurationStatsInMillis: StatsSummary.nullable().optional(),
  completedRescalesDurationStatsInMillis: StatsSummary.nullable().optional(),
  ignoredRescalesDurationStatsInMillis: StatsSummary.nullable().optional(),
  failedRescalesDurationStatsInMillis: StatsSummary.nullable().optional(),
});

/** `JobRescaleConfigInfo`: the adaptive scheduler's settings that decide when a rescale happens. */
export const JobRescaleConfig = z.object({
  rescaleHistoryMax: count,
  schedulerExecutionMode: z.string().nullable().optional(),
  submissionResourceWaitTimeoutInMillis: millis,
  submissionResourceStabilizationTimeoutInMillis: millis,
  slotIdleTimeoutInMillis: millis,
  executingCooldownTimeoutInMillis: millis,
  executingResourceStabilizationTimeoutInMillis: millis,
  maximumDelayForTriggeringRescaleInMillis: millis,
  rescaleOnFailedCheckpointCount: count,
});

export type JobRescaleDetailsBody = z.output<typeof JobRescaleDetails>;
export type JobRescalesSummaryBody = z.output<typeof JobRescalesSummary>;
export type JobRescaleConfigBody = z.output<typeof JobRescaleConfig>;
