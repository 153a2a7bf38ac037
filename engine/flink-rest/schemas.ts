import { z } from 'zod';

/**
 * The fields of Flink's REST responses that the console relies on, validated at the boundary.
 * Names follow the official spec (`resources/flink-rest/`), checked by schemas.spec-check.test.ts.
 * Unknown fields pass through untouched; fields that newer or older versions lack are optional.
 */

/**
 * Ranges are checked where Flink's semantics bound them, so an impossible value (a negative count, 1.8e19 ms busy per
 * second, a duplicate vertex) fails here naming its field instead of reaching a screen as if it were real.
 */
export const count = z.number().int().nonnegative();
/** Parallelism and max parallelism: whole numbers of at least 1. */
const parallelism = z.number().int().min(1);
/** The first instant of the year 10000 (epoch ms): no clock of a running cluster is there, and dates beyond do not print. */
const YEAR_10000 = 253_402_300_800_000;
/** An epoch-ms time of a job: whole ms before the year 10000, or Flink's -1 for "not yet". */
export const timestamp = z
  .number()
  .int()
  .min(-1)
  .lt(YEAR_10000, { error: (issue) => `Is ${String(issue.input)}, after the year 9999` });
/** Flink's `JobStatus` values: a job is in one of these, nothing else. */
export const JOB_STATUSES = ['INITIALIZING', 'CREATED', 'RUNNING', 'FAILING', 'FAILED', 'CANCELLING', 'CANCELED', 'FINISHED', 'RESTARTING', 'SUSPENDED', 'RECONCILING'] as const;
const jobStatus = z.enum(JOB_STATUSES, { error: 'Is not one of Flink\'s job states (JobStatus)' });
/** A job's end is not before its start (`end-time` -1: the job has not ended). */
function endNotBeforeStart(job: { 'start-time': number; 'end-time': number }, ctx: z.RefinementCtx, prefix: (string | number)[] = []): void {
  if (job['end-time'] !== -1 && job['end-time'] < job['start-time']) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'end-time'], message: `Is ${job['end-time']}, before the start-time ${job['start-time']}` });
  }
}
/**
 * Busy time per second: 0..1000 ms exactly, as Flink computes it (1000 − min(idle + back-pressured, 1000)); the
 * slack only absorbs the rounding of an average.
 */
const BUSY_MS_PER_SECOND_MAX = 1000 + 1e-6;
/**
 * Idle and back-pressured time per second: Flink's TimerGauges divide the time measured since their last update by
 * the nominal update interval, so an update that runs late reads a little over 1000 ms. Up to 1050 is taken as that
 * and read as 1000 (nothing shows more time than a second has); above is impossible.
 */
export const MS_PER_SECOND_MAX = 1050;
/** A share of time (the backpressure endpoint's ratios): 0..1, with the same room, read as at most 1. */
const RATIO_MAX = MS_PER_SECOND_MAX / 1000;
const ratio = z
  .number()
  .min(0)
  .max(RATIO_MAX)
  .transform((r) => Math.min(r, 1));
/** Rates and byte or record counters: never negative. */
export const nonNegative = z.number().nonnegative();

/** Reports every duplicate of `key` in a list as an issue at `<index>.<field>`. */
export function unique<T>(list: readonly T[], key: (item: T) => unknown, field: string, what: string, ctx: z.RefinementCtx, prefix: (string | number)[] = []): void {
  const seen = new Set<unknown>();
  list.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [...prefix, i, field], message: `Is a duplicate ${what} (${String(k)})` });
    seen.add(k);
  });
}

/** `GET /config` (DashboardConfiguration): the version sniff. */
export const DashboardConfiguration = z.object({
  'flink-version': z.string().min(1),
  'flink-revision': z.string().optional(),
  'refresh-interval': z.number().optional(),
  'timezone-name': z.string().optional(),
});

/** `GET /overview` (ClusterOverviewWithVersion). */
export const ClusterOverview = z
  .object({
    taskmanagers: count,
    'slots-total': count,
    'slots-available': count,
    'jobs-running': count,
    'jobs-finished': count,
    'jobs-cancelled': count,
    'jobs-failed': count,
    'flink-version': z.string().optional(),
  })
  .refine((o) => o['slots-available'] <= o['slots-total'], { path: ['slots-available'], message: 'Is more than slots-total' });

/** `GET /jobmanager/config`: the cluster's configuration as key/value strings. */
export const ConfigurationInfo = z.array(z.object({ key: z.string(), value: z.string() }));

const taskCounts = z.record(z.string(), count);

/**
 * Fields 2.3 added (and `job-type` of 1.20): read where present, absent on older versions. Open strings, not enums: a
 * scheduler or job type a later Flink adds must not make a job unreadable.
 * `schedulerType`: Flink's `JobManagerOptions.SchedulerType` as named (`Default`, `Adaptive`, `AdaptiveBatch`).
 */
const schedulerType = z.string().optional();
/** `STREAMING` or `BATCH`: `job-type` on `GET /jobs/:jobid` (1.20+), `jobType` on `GET /jobs/overview` (2.3+). */
const jobType = z.string().optional();

/** `GET /jobs/overview` (MultipleJobsDetails). */
export const JobsOverview = z.object({
  jobs: z.array(
    z.object({
      jid: z.string(),
      name: z.string(),
      jobType,
      schedulerType,
      state: jobStatus,
      'start-time': timestamp,
      'end-time': timestamp,
      duration: z.number(),
      tasks: taskCounts,
    }),
  ),
}).superRefine((overview, ctx) => overview.jobs.forEach((job, i) => endNotBeforeStart(job, ctx, ['jobs', i])));

const PlanNode = z.object({
  id: z.string(),
  parallelism: parallelism.optional(),
  operator: z.string().optional(),
  description: z.string().optional(),
  inputs: z
    .array(z.object({ num: z.number().optional(), id: z.string(), ship_strategy: z.string().optional(), exchange: z.string().optional() }))
    .optional(),
});

/** The job plan: an object in `GET /jobs/:jobid/plan`, and inside `GET /jobs/:jobid` (a JSON string there on some versions). */
export const JobPlan = z
  .object({
    jid: z.string().optional(),
    name: z.string().optional(),
    nodes: z.array(PlanNode),
  })
  .superRefine((plan, ctx) => unique(plan.nodes, (n) => n.id, 'id', 'node id', ctx, ['nodes']));

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
  /** The application the job belongs to (2.3+; a job of `/jars/:jarid/run` is a single-job application of its own id). */
  'application-id': z.string().optional(),
  name: z.string(),
  state: jobStatus,
  'job-type': jobType,
  schedulerType,
  'start-time': timestamp,
  'end-time': timestamp,
  duration: z.number(),
  maxParallelism: parallelism.optional(),
  now: z.number().optional(),
  plan: JobPlanField.optional(),
  vertices: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        parallelism,
        maxParallelism: parallelism.optional(),
        status: z.string(),
        tasks: taskCounts.optional(),
        'start-time': timestamp.optional(),
        /** The vertex's slot sharing group (1.20+), and its name where the job named it (2.3+). */
        slotSharingGroupId: z.string().optional(),
        slotSharingGroupName: z.string().optional(),
      }),
    )
    .superRefine((vertices, ctx) => unique(vertices, (v) => v.id, 'id', 'vertex id', ctx)),
}).superRefine((job, ctx) => endNotBeforeStart(job, ctx));

/**
 * `GET …/subtasks/metrics?get=…&agg=…`. On the wire a bare array (the spec says object); values are numbers,
 * absent when the metric has no value yet.
 */
export const AggregatedMetrics = z.array(
  z
    .object({
      id: z.string(),
      min: z.number().optional(),
      max: z.number().optional(),
      avg: z.number().optional(),
      sum: z.number().optional(),
      skew: z.number().optional(),
    })
    .superRefine((metric, ctx) => {
      // Time per second is bounded per subtask (so are min, max and avg); rates and counters are never negative.
      const perSubtaskMax = perSecondBound(metric.id);
      for (const agg of ['min', 'max', 'avg', 'sum'] as const) {
        const value = metric[agg];
        if (value === undefined) continue;
        if (value < 0) ctx.addIssue({ code: 'custom', path: [agg], message: `Is negative (${value}) for ${metric.id}` });
        else if (agg !== 'sum' && value > perSubtaskMax) ctx.addIssue({ code: 'custom', path: [agg], message: `Is ${value} for ${metric.id}, above ${Math.floor(perSubtaskMax)} ms per second` });
      }
      const { min, max, avg } = metric;
      const slack = 1e-6 * Math.max(1, Math.abs(max ?? 0));
      if (min !== undefined && max !== undefined && min > max + slack) ctx.addIssue({ code: 'custom', path: ['min'], message: `Is above max (${min} > ${max}) for ${metric.id}` });
      if (avg !== undefined && ((min !== undefined && avg < min - slack) || (max !== undefined && avg > max + slack))) {
        ctx.addIssue({ code: 'custom', path: ['avg'], message: `Is outside min..max (${avg}) for ${metric.id}` });
      }
    })
    .transform((metric) => {
      if (perSecondBound(metric.id) === Number.POSITIVE_INFINITY) return metric;
      const second = (v: number | undefined) => (v === undefined ? v : Math.min(v, 1000));
      return { ...metric, min: second(metric.min), max: second(metric.max), avg: second(metric.avg) };
    }),
);

/** The most a subtask's metric may read per second: busy, idle and back-pressured time are bounded, others not. */
function perSecondBound(metricId: string): number {
  if (metricId === 'busyTimeMsPerSecond') return BUSY_MS_PER_SECOND_MAX;
  return /TimeMsPerSecond$/.test(metricId) ? MS_PER_SECOND_MAX : Number.POSITIVE_INFINITY;
}

/** `GET …/vertices/:vid/watermarks` and other plain metric lists: bare arrays of string values. */
export const MetricCollection = z.array(z.object({ id: z.string(), value: z.string().optional() }));

/** Task metrics that count up from the subtask's start (records, bytes, accumulated time): never negative. */
const COUNTING_METRIC = /^(numRecords(In|Out)|numBytes(In|Out)|accumulate\w+TimeMs)$/;

/**
 * `GET …/vertices/:vid/metrics?get=0.a,1.a,…`: per-subtask values of task metrics, ids `<subtask>.<metric>`, strings
 * on the wire. Checked as the aggregates are (time per second bounded per subtask, counts never negative), and kept as
 * sent: aggregated from them as Flink aggregates (a subtask's 1,030 ms/s of idle time counts as such in the sum and
 * the mean), then held to 1000 ms as Flink's own aggregates are (`AggregatedMetrics`).
 */
export const SubtaskMetricValues = MetricCollection.superRefine((metrics, ctx) => {
  metrics.forEach((metric, i) => {
    const name = metric.id.slice(metric.id.indexOf('.') + 1);
    const value = Number(metric.value);
    if (metric.value === undefined || !Number.isFinite(value)) return;
    if (value < 0 && (COUNTING_METRIC.test(name) || /TimeMsPerSecond$|PerSecond$/.test(name))) {
      ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `Is negative (${value}) for ${metric.id}` });
    } else if (value > perSecondBound(name)) {
      ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `Is ${value} for ${metric.id}, above ${Math.floor(perSecondBound(name))} ms per second` });
    }
  });
});

/** What a TaskManager uses cannot exceed what it has: [used, of] metric names (the JVM's heap max is -1 when unset). */
const USED_OF_TOTAL: ReadonlyArray<[string, string]> = [
  ['Status.JVM.Memory.Heap.Used', 'Status.JVM.Memory.Heap.Max'],
  ['Status.Flink.Memory.Managed.Used', 'Status.Flink.Memory.Managed.Total'],
  ['Status.Shuffle.Netty.UsedMemorySegments', 'Status.Shuffle.Netty.TotalMemorySegments'],
];

/** `GET /taskmanagers/:tmid/metrics`: a metric list whose memory figures are checked against each other. */
export const TaskManagerMetricCollection = MetricCollection.superRefine((metrics, ctx) => {
  const index = new Map(metrics.map((m, i) => [m.id, i]));
  const valueOf = (id: string) => {
    const i = index.get(id);
    const value = i === undefined ? Number.NaN : Number(metrics[i].value);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  for (const [usedId, totalId] of USED_OF_TOTAL) {
    const used = valueOf(usedId);
    const total = valueOf(totalId);
    if (used !== undefined && total !== undefined && used > total) {
      ctx.addIssue({ code: 'custom', path: [index.get(usedId)!, 'value'], message: `Is ${used} for ${usedId}, above ${totalId} (${total})` });
    }
  }
  const cpu = valueOf('Status.JVM.CPU.Load');
  if (cpu !== undefined && cpu > 1) ctx.addIssue({ code: 'custom', path: [index.get('Status.JVM.CPU.Load')!, 'value'], message: `Is ${cpu} for Status.JVM.CPU.Load, above 1 (all of the CPUs)` });
});

/**
 * A Java double as Flink's Jackson writes it: a number, or the string "NaN" / "Infinity" for a non-finite one (the
 * accumulated busy time reads "NaN" until busy-time measurement starts, seconds after a subtask starts).
 */
const javaDouble = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]).transform((v) => (typeof v === 'number' ? v : Number(v)));

export const IOMetrics = z.object({
  'read-bytes': nonNegative.optional(),
  'write-bytes': nonNegative.optional(),
  'read-records': nonNegative.optional(),
  'write-records': nonNegative.optional(),
  /** ms since the subtask started (Flink 1.17+); busy time is a double on the wire, the other two integers. */
  'accumulated-busy-time': javaDouble.optional(),
  'accumulated-backpressured-time': nonNegative.optional(),
  'accumulated-idle-time': nonNegative.optional(),
});

/** `GET /jobs/:jobid/vertices/:vid` (JobVertexDetailsInfo). `host` became `endpoint` in Flink 2.x: both are read. */
export const JobVertexDetailsInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    parallelism,
    maxParallelism: parallelism.optional(),
    subtasks: z.array(
      z.object({
        subtask: count,
        status: z.string(),
        attempt: count.optional(),
        endpoint: z.string().optional(),
        host: z.string().optional(),
        'taskmanager-id': z.string().optional(),
        metrics: IOMetrics.optional(),
      }),
    ),
  })
  .superRefine((vertex, ctx) => {
    unique(vertex.subtasks, (s) => s.subtask, 'subtask', 'subtask index', ctx, ['subtasks']);
    vertex.subtasks.forEach((s, i) => {
      if (s.subtask >= vertex.parallelism) ctx.addIssue({ code: 'custom', path: ['subtasks', i, 'subtask'], message: `Is ${s.subtask}, not below the parallelism ${vertex.parallelism}` });
    });
  });

const BackpressureLevelSchema = z.enum(['ok', 'low', 'high']);
/** Busy time divided by 1000: 0..1, as busy time itself. */
const busyRatio = z.number().min(0).max(BUSY_MS_PER_SECOND_MAX / 1000);

/** `GET …/vertices/:vid/backpressure` (JobVertexBackPressureInfo). `deprecated` = no metrics yet: body has only the status. */
export const JobVertexBackPressureInfo = z.object({
  status: z.enum(['ok', 'deprecated']),
  backpressureLevel: BackpressureLevelSchema.optional(),
  'end-timestamp': z.number().optional(),
  subtasks: z
    .array(
      z.object({
        subtask: count,
        backpressureLevel: BackpressureLevelSchema,
        ratio,
        idleRatio: ratio.optional(),
        busyRatio: busyRatio.optional(),
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
      slotsNumber: count,
      freeSlots: count,
      /** Tasks deployed on the TaskManager (2.3+). */
      assignedTasks: count.optional(),
      dataPort: z.number().int().optional(),
      timeSinceLastHeartbeat: z.number().optional(),
      /** The TaskManager's memory as configured (bytes); the State view's limit is its managed memory per slot. */
      memoryConfiguration: z.object({ managedMemory: z.number().optional() }).optional(),
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
export const StatsSummary = z.object({
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

/** One exception as `GET /jobs/:jobid/exceptions` writes it: `endpoint` on Flink 2.x, `location` before. */
const ExceptionInfo = z.object({
  exceptionName: z.string(),
  stacktrace: z.string(),
  timestamp: z.number(),
  taskName: z.string().nullable().optional(),
  endpoint: z.string().nullable().optional(),
  location: z.string().nullable().optional(),
  taskManagerId: z.string().nullable().optional(),
  failureLabels: z.record(z.string(), z.string()).optional(),
});

/**
 * `GET /jobs/:jobid/exceptions` (JobExceptionsInfoWithHistory): the history, newest first, at most `maxExceptions`
 * (default 20) root exceptions, each with its concurrent ones. 1.x adds the deprecated top-level `root-exception`,
 * `timestamp`, `all-exceptions` and `truncated`, which the history supersedes: they are not read.
 */
export const JobExceptionsInfoWithHistory = z.object({
  exceptionHistory: z.object({
    entries: z.array(ExceptionInfo.extend({ concurrentExceptions: z.array(ExceptionInfo).optional() })),
    truncated: z.boolean().optional(),
  }),
});

/**
 * `GET /jobs/:jobid/config` (JobConfigInfo). On the wire `jid`, `name` and `execution-config` (its serializer's
 * names), where the spec says `jobId`, `jobName`, `executionConfigInfo`. `restart-strategy` is a description, e.g.
 * "Restart with fixed delay (PT5S). #1000 restart attempts." (2.2.1).
 */
export const JobConfigInfo = z.object({
  jid: z.string(),
  name: z.string().optional(),
  'execution-config': z
    .object({
      'restart-strategy': z.string().optional(),
      'job-parallelism': z.number().int().optional(),
      'object-reuse-mode': z.boolean().optional(),
      'user-config': z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

/** `GET /jobs/:jobid/checkpoints/config`: `interval` in ms (a huge value when checkpointing is off). */
export const CheckpointConfigInfo = z.object({
  interval: z.number().optional(),
});
