import { z } from 'zod';

/**
 * The fields of Flink's REST responses that the console relies on, validated at the boundary.
 * Names follow the official spec (`../shared/flink-rest/`), checked by schemas.spec-check.test.ts.
 * Unknown fields pass through untouched; fields that newer or older versions lack are optional.
 */

const count = z.number().int().nonnegative();
/** Flink sends -1 for "not yet" times; keep it as a number and let callers decide. */
const timestamp = z.number();

/** `GET /config` (DashboardConfiguration): the version sniff. */
export const DashboardConfiguration = z.object({
  'flink-version': z.string().min(1),
  'flink-revision': z.string().optional(),
  'refresh-interval': z.number().optional(),
  'timezone-name': z.string().optional(),
});

/** `GET /overview` (ClusterOverviewWithVersion). */
export const ClusterOverview = z.object({
  taskmanagers: count,
  'slots-total': count,
  'slots-available': count,
  'jobs-running': count,
  'jobs-finished': count,
  'jobs-cancelled': count,
  'jobs-failed': count,
  'flink-version': z.string().optional(),
});

/** `GET /jobmanager/config`: the cluster's configuration as key/value strings. */
export const ConfigurationInfo = z.array(z.object({ key: z.string(), value: z.string() }));

const taskCounts = z.record(z.string(), z.number());

/** `GET /jobs/overview` (MultipleJobsDetails). */
export const JobsOverview = z.object({
  jobs: z.array(
    z.object({
      jid: z.string(),
      name: z.string(),
      state: z.string(),
      'start-time': timestamp,
      'end-time': timestamp,
      duration: z.number(),
      tasks: taskCounts,
    }),
  ),
});

const PlanNode = z.object({
  id: z.string(),
  parallelism: z.number().int().optional(),
  operator: z.string().optional(),
  description: z.string().optional(),
  inputs: z
    .array(z.object({ num: z.number().optional(), id: z.string(), ship_strategy: z.string().optional(), exchange: z.string().optional() }))
    .optional(),
});

/** The job plan: an object in `GET /jobs/:jobid/plan`, and inside `GET /jobs/:jobid` (a JSON string there on some versions). */
export const JobPlan = z.object({
  jid: z.string().optional(),
  name: z.string().optional(),
  nodes: z.array(PlanNode),
});

/** `GET /jobs/:jobid/plan` (JobPlanInfo). */
export const JobPlanInfo = z.object({ plan: JobPlan });

const JobPlanField = z.preprocess((raw) => {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}, JobPlan);

/** `GET /jobs/:jobid` (JobDetailsInfo). */
export const JobDetailsInfo = z.object({
  jid: z.string(),
  name: z.string(),
  state: z.string(),
  'start-time': timestamp,
  'end-time': timestamp,
  duration: z.number(),
  maxParallelism: z.number().int().optional(),
  now: z.number().optional(),
  plan: JobPlanField.optional(),
  vertices: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      parallelism: z.number().int(),
      maxParallelism: z.number().int().optional(),
      status: z.string(),
      tasks: taskCounts.optional(),
    }),
  ),
});

/**
 * `GET …/subtasks/metrics?get=…&agg=…`. On the wire a bare array (the spec says object); values are numbers,
 * absent when the metric has no value yet.
 */
export const AggregatedMetrics = z.array(
  z.object({
    id: z.string(),
    min: z.number().optional(),
    max: z.number().optional(),
    avg: z.number().optional(),
    sum: z.number().optional(),
    skew: z.number().optional(),
  }),
);

/** `GET …/vertices/:vid/watermarks` and other plain metric lists: bare arrays of string values. */
export const MetricCollection = z.array(z.object({ id: z.string(), value: z.string().optional() }));

const IOMetrics = z.object({
  'read-bytes': z.number().optional(),
  'write-bytes': z.number().optional(),
  'read-records': z.number().optional(),
  'write-records': z.number().optional(),
  /** ms since the subtask started (Flink 1.17+); busy time is a double on the wire, the other two integers. */
  'accumulated-busy-time': z.number().optional(),
  'accumulated-backpressured-time': z.number().optional(),
  'accumulated-idle-time': z.number().optional(),
});

/** `GET /jobs/:jobid/vertices/:vid` (JobVertexDetailsInfo). `host` became `endpoint` in Flink 2.x: both are read. */
export const JobVertexDetailsInfo = z.object({
  id: z.string(),
  name: z.string(),
  parallelism: z.number().int(),
  maxParallelism: z.number().int().optional(),
  subtasks: z.array(
    z.object({
      subtask: z.number().int(),
      status: z.string(),
      attempt: z.number().int().optional(),
      endpoint: z.string().optional(),
      host: z.string().optional(),
      'taskmanager-id': z.string().optional(),
      metrics: IOMetrics.optional(),
    }),
  ),
});

const BackpressureLevelSchema = z.enum(['ok', 'low', 'high']);

/** `GET …/vertices/:vid/backpressure` (JobVertexBackPressureInfo). `deprecated` = no metrics yet: body has only the status. */
export const JobVertexBackPressureInfo = z.object({
  status: z.enum(['ok', 'deprecated']),
  backpressureLevel: BackpressureLevelSchema.optional(),
  'end-timestamp': z.number().optional(),
  subtasks: z
    .array(
      z.object({
        subtask: z.number().int(),
        backpressureLevel: BackpressureLevelSchema,
        ratio: z.number(),
        idleRatio: z.number().optional(),
        busyRatio: z.number().optional(),
      }),
    )
    .optional(),
});

/** `GET /taskmanagers` (TaskManagersInfo). `timeSinceLastHeartbeat` is, despite its name, the epoch ms of the last one. */
export const TaskManagersInfo = z.object({
  taskmanagers: z.array(
    z.object({
      id: z.string(),
      path: z.string().optional(),
      slotsNumber: z.number().int(),
      freeSlots: z.number().int(),
      timeSinceLastHeartbeat: z.number().optional(),
    }),
  ),
});

/** A byte count or duration of checkpoint statistics; absent on versions that lack it. */
const statsNumber = z.number().optional();

/** `TaskCheckpointStatistics`: one vertex's part in a checkpoint (the `tasks` map of a checkpoint's details). */
const TaskCheckpointStatistics = z.object({
  id: z.number().int().optional(),
  status: z.string(),
  latest_ack_timestamp: statsNumber,
  checkpointed_size: statsNumber,
  state_size: statsNumber,
  end_to_end_duration: statsNumber,
  alignment_buffered: statsNumber,
  processed_data: statsNumber,
  persisted_data: statsNumber,
  num_subtasks: z.number().int(),
  num_acknowledged_subtasks: z.number().int(),
});

/**
 * `CheckpointStatistics` (className `completed`, `failed` or `in_progress`): one checkpoint or savepoint, as
 * `/checkpoints` lists it (`tasks` empty) and as `/checkpoints/details/:id` gives it (`tasks` per vertex).
 */
export const CheckpointStatistics = z.object({
  className: z.string().optional(),
  id: z.number().int(),
  status: z.string(),
  is_savepoint: z.boolean().optional(),
  savepointFormat: z.string().nullable().optional(),
  trigger_timestamp: z.number(),
  latest_ack_timestamp: statsNumber,
  checkpointed_size: statsNumber,
  state_size: statsNumber,
  end_to_end_duration: statsNumber,
  alignment_buffered: statsNumber,
  processed_data: statsNumber,
  persisted_data: statsNumber,
  num_subtasks: z.number().int().optional(),
  num_acknowledged_subtasks: z.number().int().optional(),
  checkpoint_type: z.string().optional(),
  tasks: z.record(z.string(), TaskCheckpointStatistics).optional(),
  external_path: z.string().nullable().optional(),
  discarded: z.boolean().optional(),
  failure_timestamp: z.number().nullable().optional(),
  failure_message: z.string().nullable().optional(),
});

/** A `StatsSummaryDto` figure: Jackson writes a non-finite double as the string "NaN" — no value, not a number. */
const summaryFigure = z.union([z.number(), z.string()]).transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : null));

/** `StatsSummaryDto`: min, max, avg and (Flink 1.14+) percentiles over the checkpoints the JobManager remembers. */
const StatsSummary = z.object({
  min: summaryFigure.optional(),
  max: summaryFigure.optional(),
  avg: summaryFigure.optional(),
  p50: summaryFigure.optional(),
  p90: summaryFigure.optional(),
  p95: summaryFigure.optional(),
  p99: summaryFigure.optional(),
  p999: summaryFigure.optional(),
});

/** `GET /jobs/:jobid/checkpoints` (CheckpointingStatistics): counts, summary, latest and the recent history. */
export const CheckpointingStatistics = z.object({
  counts: z.object({ restored: count, total: count, in_progress: count, completed: count, failed: count }),
  summary: z
    .object({
      checkpointed_size: StatsSummary.optional(),
      state_size: StatsSummary.optional(),
      end_to_end_duration: StatsSummary.optional(),
      alignment_buffered: StatsSummary.optional(),
      processed_data: StatsSummary.optional(),
      persisted_data: StatsSummary.optional(),
    })
    .optional(),
  latest: z
    .object({
      completed: CheckpointStatistics.nullable().optional(),
      savepoint: CheckpointStatistics.nullable().optional(),
      failed: CheckpointStatistics.nullable().optional(),
      restored: z
        .object({ id: z.number().int(), restore_timestamp: z.number(), is_savepoint: z.boolean().optional(), external_path: z.string().nullable().optional() })
        .nullable()
        .optional(),
    })
    .optional(),
  history: z.array(CheckpointStatistics).optional(),
});

/**
 * `GET /jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid` (TaskCheckpointStatisticsWithSubtaskDetails):
 * one vertex's subtasks in a checkpoint. A subtask that has not acknowledged has only `index` and `status`.
 */
export const TaskCheckpointStatisticsWithSubtaskDetails = TaskCheckpointStatistics.extend({
  subtasks: z.array(
    z.object({
      className: z.string().optional(),
      index: z.number().int(),
      status: z.string(),
      ack_timestamp: statsNumber,
      end_to_end_duration: statsNumber,
      checkpointed_size: statsNumber,
      state_size: statsNumber,
      checkpoint: z.object({ sync: statsNumber, async: statsNumber }).optional(),
      alignment: z.object({ buffered: statsNumber, processed: statsNumber, persisted: statsNumber, duration: statsNumber }).optional(),
      start_delay: statsNumber,
      unaligned_checkpoint: z.boolean().optional(),
      aborted: z.boolean().optional(),
    }),
  ),
});

/** The local engine's own `POST /local-engine/v1/taskmanagers/:tmid/kill` (not a Flink endpoint). */
export const LocalEngineKillResult = z.object({
  killed: z.string(),
  failedJobs: z.array(z.string()),
  restartsAt: z.number().nullable(),
});
