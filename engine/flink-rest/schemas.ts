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

/**
 * A Java double as Flink's Jackson writes it: a number, or the string "NaN" / "Infinity" for a non-finite one (the
 * accumulated busy time reads "NaN" until busy-time measurement starts, seconds after a subtask starts).
 */
const javaDouble = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]).transform((v) => (typeof v === 'number' ? v : Number(v)));

const IOMetrics = z.object({
  'read-bytes': z.number().optional(),
  'write-bytes': z.number().optional(),
  'read-records': z.number().optional(),
  'write-records': z.number().optional(),
  /** ms since the subtask started (Flink 1.17+); busy time is a double on the wire, the other two integers. */
  'accumulated-busy-time': javaDouble.optional(),
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

const CheckpointStatsHead = z.object({
  id: z.number().int(),
  status: z.string(),
  is_savepoint: z.boolean().optional(),
  trigger_timestamp: z.number(),
});

/** `GET /jobs/:jobid/checkpoints` (CheckpointingStatistics): what the sampler needs of it each sample. */
export const CheckpointingStatistics = z.object({
  counts: z.object({ restored: count, total: count, in_progress: count, completed: count, failed: count }),
  latest: z
    .object({
      completed: CheckpointStatsHead.nullable().optional(),
      savepoint: CheckpointStatsHead.nullable().optional(),
      failed: CheckpointStatsHead.nullable().optional(),
    })
    .optional(),
  history: z.array(CheckpointStatsHead).optional(),
});

/** The local engine's own `POST /local-engine/v1/taskmanagers/:tmid/kill` (not a Flink endpoint). */
export const LocalEngineKillResult = z.object({
  killed: z.string(),
  failedJobs: z.array(z.string()),
  restartsAt: z.number().nullable(),
});
