import { z } from 'zod';
import { count, IOMetrics, nonNegative, timestamp, unique } from './schemas.ts';

/**
 * The read-only views of the Web UI the console shows as they are: configuration, accumulators, a vertex's
 * TaskManagers and subtask times, a TaskManager's memory. Names as Flink's `XxxInfo` classes write them (checked on
 * 2.3.0, 2.2.1 and 1.20.3); `host` became `endpoint` in 2.x, both are read. Fields a later Flink adds pass through.
 */

/** A figure Flink may leave out, or send as -1 for "not set" (a JVM without a max heap, a process without direct memory). */
const figure = z.number().optional();

/** `GET /jobmanager/environment` (EnvironmentInfo, Flink 1.17+): the JobManager's JVM and classpath. */
export const EnvironmentInfo = z.object({
  jvm: z.object({ version: z.string().optional(), arch: z.string().optional(), options: z.array(z.string()).optional() }).optional(),
  classpath: z.array(z.string()).optional(),
});

/**
 * `GET /jobs/:jobid/checkpoints/config` in full (CheckpointConfigInfo): its fields as the spec names them, and any a
 * later Flink adds (kept, shown as they come). Durations in ms.
 */
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const CheckpointConfigDetails = z.looseObject({
  mode: z.string().optional(),
  interval: z.number().optional(),
  timeout: z.number().optional(),
  min_pause: z.number().optional(),
  max_concurrent: z.number().optional(),
  externalization: z.looseObject({ enabled: z.boolean().optional(), delete_on_cancellation: z.boolean().optional() }).optional(),
  state_backend: z.string().optional(),
  checkpoint_storage: z.string().optional(),
  unaligned_checkpoints: z.boolean().optional(),
  tolerable_failed_checkpoints: z.number().optional(),
  aligned_checkpoint_timeout: z.number().optional(),
  checkpoints_after_tasks_finish: z.boolean().optional(),
  state_changelog_enabled: z.boolean().optional(),
  changelog_periodic_materialization_interval: z.number().optional(),
  changelog_storage: z.string().optional(),
}).catchall(z.union([scalar, z.record(z.string(), scalar)]));

/** `UserAccumulator`: its value as Flink's `toString` wrote it. */
const UserAccumulator = z.object({ name: z.string(), type: z.string(), value: z.string() });

/** `GET /jobs/:jobid/vertices/:vertexid/accumulators` (JobVertexAccumulatorsInfo): summed over the subtasks. */
export const JobVertexAccumulatorsInfo = z.object({ id: z.string(), 'user-accumulators': z.array(UserAccumulator) });

/** `GET /jobs/:jobid/vertices/:vertexid/subtasks/accumulators` (SubtasksAllAccumulatorsInfo). */
export const SubtasksAllAccumulatorsInfo = z
  .object({
    id: z.string(),
    parallelism: count,
    subtasks: z.array(
      z.object({
        subtask: count,
        attempt: count.optional(),
        endpoint: z.string().optional(),
        host: z.string().optional(),
        'user-accumulators': z.array(UserAccumulator),
      }),
    ),
  })
  .superRefine((info, ctx) => unique(info.subtasks, (s) => s.subtask, 'subtask', 'subtask index', ctx, ['subtasks']));

/** An `ExecutionState` → epoch ms table; 0 = never in that state. */
const stateTimestamps = z.record(z.string(), timestamp.min(0));

/** `GET /jobs/:jobid/vertices/:vertexid/subtasktimes` (SubtasksTimesInfo): when each subtask entered each state. */
export const SubtasksTimesInfo = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    now: timestamp.min(0),
    subtasks: z.array(
      z.object({
        subtask: count,
        endpoint: z.string().optional(),
        host: z.string().optional(),
        duration: z.number().int().min(-1).optional(),
        timestamps: stateTimestamps,
      }),
    ),
  })
  .superRefine((info, ctx) => unique(info.subtasks, (s) => s.subtask, 'subtask', 'subtask index', ctx, ['subtasks']));

/** `GET /jobs/:jobid/vertices/:vertexid/taskmanagers` (JobVertexTaskManagersInfo): the vertex's subtasks by TaskManager. */
export const JobVertexTaskManagersInfo = z.object({
  id: z.string(),
  name: z.string().optional(),
  now: timestamp.min(0),
  taskmanagers: z.array(
    z.object({
      endpoint: z.string().optional(),
      host: z.string().optional(),
      'taskmanager-id': z.string().optional(),
      status: z.string(),
      'start-time': timestamp.optional(),
      'end-time': timestamp.optional(),
      duration: z.number().int().min(-1).optional(),
      metrics: IOMetrics.optional(),
      'status-counts': z.record(z.string(), count).optional(),
    }),
  ),
});

const GarbageCollectorInfo = z.object({ name: z.string(), count: count, time: nonNegative });

/** `GET /taskmanagers/:taskmanagerid` (TaskManagerDetailsInfo): its memory configuration and JVM figures. */
export const TaskManagerDetailsInfo = z
  .object({
    id: z.string(),
    memoryConfiguration: z.record(z.string(), z.number()).optional(),
    metrics: z
      .object({
        heapUsed: figure,
        heapCommitted: figure,
        heapMax: figure,
        nonHeapUsed: figure,
        nonHeapCommitted: figure,
        nonHeapMax: figure,
        directCount: figure,
        directUsed: figure,
        directMax: figure,
        mappedCount: figure,
        mappedUsed: figure,
        mappedMax: figure,
        /** 1.x only (deprecated there); 2.x has the `nettyShuffle…` figures alone. */
        memorySegmentsAvailable: figure,
        memorySegmentsTotal: figure,
        nettyShuffleMemorySegmentsAvailable: figure,
        nettyShuffleMemorySegmentsUsed: figure,
        nettyShuffleMemorySegmentsTotal: figure,
        nettyShuffleMemoryAvailable: figure,
        nettyShuffleMemoryUsed: figure,
        nettyShuffleMemoryTotal: figure,
        garbageCollectors: z.array(GarbageCollectorInfo).optional(),
      })
      .optional(),
  })
  .superRefine((tm, ctx) => {
    const m = tm.metrics;
    if (!m) return;
    const pairs: Array<[keyof typeof m, keyof typeof m]> = [
      ['heapUsed', 'heapMax'],
      ['nettyShuffleMemorySegmentsUsed', 'nettyShuffleMemorySegmentsTotal'],
    ];
    for (const [used, total] of pairs) {
      const u = m[used] as number | undefined;
      const t = m[total] as number | undefined;
      // A max of -1 means "no limit": nothing to compare with.
      if (u !== undefined && t !== undefined && t >= 0 && u > t) ctx.addIssue({ code: 'custom', path: ['metrics', used], message: `Is ${u}, above ${total} (${t})` });
    }
  });

/**
 * `GET /jobs/:jobid/vertices/:vertexid/flamegraph` (VertexFlameGraph): `endTimestamp` or one of Flink's sentinels
 * (-1 terminated, -2 disabled, -3 waiting), and the tree (`Node`: name, value, children), checked without recursion by
 * `toFlameTree` (a zod schema would recurse as deep as a hostile answer nests).
 */
export const VertexFlameGraph = z.object({ endTimestamp: z.number(), data: z.unknown().optional() });
