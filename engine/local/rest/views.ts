import os from 'node:os';
import { formatJavaDuration } from '../../flink-rest/duration.ts';
import type { components } from '../../flink-rest/generated/rest-v1.19.ts';
import { ENGINE_REVISION, type LocalEngine } from '../engine.ts';
import type { TaskManager } from '../runtime/cluster.ts';
import type { JobGraph } from '../runtime/job-graph.ts';
import { ALL_EXECUTION_STATES, type ExecutionJobVertex, type JobExecution, type JobStatus } from '../runtime/job.ts';
import type { ExecutionState, Task } from '../runtime/task.ts';
import type { RestartStrategyConfig } from '../restart/restart-strategy.ts';
import { subtaskMetrics, taskManagerResources } from './metric-store.ts';

/**
 * Response bodies of the read side of Flink's REST API, built from the engine's state. Typed with the official
 * spec's schemas (`engine/flink-rest/generated`); fields Flink 2.x added beyond the 1.19 spec (`endpoint`,
 * `job-type`, `slotSharingGroupId`, `pending-operators`) are added on top, as a 2.x cluster sends them, and those of
 * 2.3 (`application-id`, `schedulerType`, `jobType`, `assignedTasks`) when the engine claims 2.3. Field order is the
 * real cluster's (flink-version-shape.test.ts).
 */

/** How the engine schedules, as 2.3 names it (`JobManagerOptions.SchedulerType`): it rescales in place. */
const SCHEDULER_TYPE = 'Adaptive';
type S = components['schemas'];

const ALL_JOB_STATES: readonly JobStatus[] = [
  'INITIALIZING', 'CREATED', 'RUNNING', 'FAILING', 'FAILED', 'CANCELLING', 'CANCELED', 'FINISHED', 'RESTARTING', 'SUSPENDED', 'RECONCILING',
];

export function dashboardConfiguration(engine: LocalEngine): S['DashboardConfiguration'] {
  const offsetMinutes = -new Date().getTimezoneOffset();
  return {
    'refresh-interval': 3000,
    'timezone-name': Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    'timezone-offset': offsetMinutes * 60_000,
    'flink-version': engine.flinkVersion,
    'flink-revision': engine.revision,
    // The engine serves `/jars` and `/jars/:jarid/run` (its built-in jobs), as a cluster with web.submit.enable does.
    features: { 'web-submit': true, 'web-cancel': true, 'web-rescale': false, 'web-history': false },
  };
}

export function clusterOverview(engine: LocalEngine): S['ClusterOverviewWithVersion'] {
  const jobs = [...engine.cluster.jobs.values()];
  const count = (states: JobStatus[]) => jobs.filter((j) => states.includes(j.status)).length;
  return {
    taskmanagers: engine.cluster.taskManagers.length,
    'slots-total': engine.cluster.slotsTotal,
    'slots-available': engine.cluster.slotsAvailable,
    'jobs-running': jobs.filter((j) => !j.isTerminal).length,
    'jobs-finished': count(['FINISHED']),
    'jobs-cancelled': count(['CANCELED']),
    'jobs-failed': count(['FAILED']),
    'flink-version': engine.flinkVersion,
    'flink-commit': ENGINE_REVISION,
    // `taskmanagers-blocked` and `slots-free-and-blocked` are left out at 0, as Flink does (nothing is ever blocked here).
  };
}

function duration(start: number, end: number, now: number): number {
  if (start < 0) return -1;
  return (end >= 0 ? end : now) - start;
}

/** Tasks by ExecutionState with every state present (upper-case keys, as in `status-counts` and vertex `tasks`). */
function stateCounts(tasks: Task[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of ALL_EXECUTION_STATES) counts[s] = 0;
  counts.RECONCILING = 0;
  for (const t of tasks) counts[t.state]++;
  return counts;
}

/** `ExecutionJobVertex.getAggregateJobVertexState`. */
export function aggregateState(tasks: Task[]): ExecutionState {
  const counts = stateCounts(tasks);
  if (counts.FAILED > 0) return 'FAILED';
  if (counts.CANCELING > 0) return 'CANCELING';
  if (counts.CANCELED > 0) return 'CANCELED';
  if (counts.INITIALIZING > 0) return 'INITIALIZING';
  if (counts.RUNNING > 0) return 'RUNNING';
  if (counts.FINISHED > 0) return counts.FINISHED === tasks.length ? 'FINISHED' : 'RUNNING';
  return 'CREATED';
}

function taskStart(t: Task): number {
  return t.stateTimestamps.DEPLOYING ?? -1;
}

function taskEnd(t: Task): number {
  return t.endTime;
}

function vertexTimes(tasks: Task[], now: number): { start: number; end: number; duration: number } {
  const starts = tasks.map(taskStart).filter((s) => s >= 0);
  const start = starts.length > 0 ? Math.min(...starts) : -1;
  const allEnded = tasks.every((t) => t.endTime >= 0);
  const end = allEnded ? Math.max(...tasks.map(taskEnd)) : -1;
  return { start, end, duration: duration(start, end, now) };
}

/** `IOMetricsInfo` of one subtask. */
export function taskIoMetrics(task: Task): S['IOMetricsInfo'] {
  const io = task.io;
  const accumulated = io.accumulatedTimes();
  return {
    'read-bytes': io.numBytesIn.getCount(),
    'read-bytes-complete': true,
    'write-bytes': io.numBytesOut.count,
    'write-bytes-complete': true,
    'read-records': io.numRecordsIn.count,
    'read-records-complete': true,
    'write-records': io.numRecordsOut.count,
    'write-records-complete': true,
    'accumulated-backpressured-time': accumulated.backPressuredMs,
    'accumulated-idle-time': accumulated.idleMs,
    'accumulated-busy-time': accumulated.busyMs,
  };
}

/** Vertex-level `IOMetricsInfo`: sums of counts, the max of the accumulated times (as `MutableIOMetrics`). */
export function vertexIoMetrics(tasks: Task[]): S['IOMetricsInfo'] {
  const all = tasks.map(taskIoMetrics);
  const sum = (k: keyof S['IOMetricsInfo']) => all.reduce((s, m) => s + (m[k] as number), 0);
  const max = (k: keyof S['IOMetricsInfo']) => all.reduce((s, m) => Math.max(s, m[k] as number), 0);
  return {
    'read-bytes': sum('read-bytes'),
    'read-bytes-complete': true,
    'write-bytes': sum('write-bytes'),
    'write-bytes-complete': true,
    'read-records': sum('read-records'),
    'read-records-complete': true,
    'write-records': sum('write-records'),
    'write-records-complete': true,
    'accumulated-backpressured-time': max('accumulated-backpressured-time'),
    'accumulated-idle-time': max('accumulated-idle-time'),
    'accumulated-busy-time': max('accumulated-busy-time'),
  };
}

export function jobPlan(job: JobExecution): ReturnType<typeof planOf> {
  return planOf(job.jobId, job.jobGraph, job.name);
}

/** Flink's JSON plan of a job graph (`GET /jobs/:jobid/plan`, `POST /jars/:jarid/plan`). */
export function planOf(jid: string, graph: JobGraph, name = graph.jobName): { jid: string; name: string; type: string; nodes: unknown[] } {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '<br/>');
  return {
    jid,
    name,
    type: 'STREAMING',
    nodes: graph.vertices.map((v) => ({
      id: v.id,
      parallelism: v.parallelism,
      operator: '',
      operator_strategy: '',
      description: escape(v.description),
      ...(v.inputs.length > 0 && {
        inputs: v.inputs.map((e, num) => ({ num, id: e.source.id, ship_strategy: e.shipStrategy, exchange: 'pipelined_bounded' })),
      }),
      optimizer_properties: {},
    })),
  };
}

function jobTimestamps(job: JobExecution): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of ALL_JOB_STATES) out[s] = job.statusTimestamps[s] ?? 0;
  return out;
}

export function jobDetails(engine: LocalEngine, job: JobExecution, now: number): S['JobDetailsInfo'] & Record<string, unknown> {
  const since23 = engine.emulatesAtLeast('2.3.0');
  return {
    jid: job.jobId,
    // Every job runs as a single-job application of its own id, as 2.3 runs a job of /jars/:jarid/run.
    ...(since23 && { 'application-id': job.jobId }),
    name: job.name,
    isStoppable: false,
    state: job.status,
    'job-type': 'STREAMING',
    ...(since23 && { schedulerType: SCHEDULER_TYPE }),
    'start-time': job.startTime,
    'end-time': job.endTime,
    duration: duration(job.startTime, job.endTime, now),
    maxParallelism: job.jobGraph.maxParallelism,
    now,
    timestamps: jobTimestamps(job),
    vertices: job.vertices.map((v) => {
      const times = vertexTimes(v.tasks, now);
      return {
        id: v.jobVertex.id,
        slotSharingGroupId: v.jobVertex.slotSharingGroupId,
        name: v.jobVertex.name,
        maxParallelism: v.jobVertex.maxParallelism,
        parallelism: v.jobVertex.parallelism,
        status: aggregateState(v.tasks),
        'start-time': times.start,
        'end-time': times.end,
        duration: times.duration,
        tasks: stateCounts(v.tasks),
        metrics: vertexIoMetrics(v.tasks),
      };
    }),
    'status-counts': Object.fromEntries(Object.entries(countVertices(job))),
    plan: jobPlan(job) as unknown as S['RawJson'],
    'pending-operators': 0,
  };
}

function countVertices(job: JobExecution): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of ALL_EXECUTION_STATES) counts[s] = 0;
  counts.RECONCILING = 0;
  for (const v of job.vertices) counts[aggregateState(v.tasks)]++;
  return counts;
}

export function jobsOverview(engine: LocalEngine, now: number): S['MultipleJobsDetails'] {
  return {
    jobs: [...engine.cluster.jobs.values()].reverse().map((job) => {
      const counts = job.taskCounts();
      const lastModification = Math.max(...Object.values(job.statusTimestamps).map((t) => t ?? 0));
      return {
        jid: job.jobId,
        name: job.name,
        ...(engine.emulatesAtLeast('2.3.0') && { jobType: 'STREAMING', schedulerType: SCHEDULER_TYPE }),
        'start-time': job.startTime,
        'end-time': job.endTime,
        duration: duration(job.startTime, job.endTime, now),
        state: job.status,
        'last-modification': lastModification,
        tasks: { total: job.tasks.length, ...counts },
        'pending-operators': 0,
      } as S['JobDetails'];
    }),
  };
}

/**
 * `ExecutionConfigInfo.restart-strategy` for the job's strategy, worded as Flink 2.2.1 writes it (checked on a real
 * cluster): durations as Java's `Duration.toString()`, numbers as Java's `%f`.
 */
export function restartStrategyDescription(config: RestartStrategyConfig): string {
  switch (config.type) {
    case 'none':
      return 'Restart deactivated.';
    case 'fixed-delay':
      return `Restart with fixed delay (${formatJavaDuration(config.delayMs)}). #${config.attempts} restart attempts.`;
    case 'exponential-delay':
      return (
        `Restart with exponential delay: starting at ${formatJavaDuration(config.initialBackoffMs)}, increasing by ${config.backoffMultiplier.toFixed(6)}, ` +
        `with maximum ${formatJavaDuration(config.maxBackoffMs)}. Delay resets after ${formatJavaDuration(config.resetBackoffThresholdMs)} with jitter ${config.jitterFactor.toFixed(6)}`
      );
  }
}

export function jobConfig(job: JobExecution): Record<string, unknown> {
  return {
    jid: job.jobId,
    name: job.name,
    'execution-config': {
      'restart-strategy': restartStrategyDescription(job.restartStrategy),
      'job-parallelism': job.jobGraph.defaultParallelism,
      'object-reuse-mode': false,
      'user-config': job.options.jobParameters ?? {},
    },
  };
}

function statusDuration(task: Task, now: number): Record<string, number> {
  const order: ExecutionState[] = ['CREATED', 'SCHEDULED', 'DEPLOYING', 'INITIALIZING', 'RUNNING'];
  const out: Record<string, number> = {};
  for (let i = 0; i < order.length; i++) {
    const start = task.stateTimestamps[order[i]];
    if (start === undefined) {
      out[order[i]] = -1;
      continue;
    }
    const next = order.slice(i + 1).map((s) => task.stateTimestamps[s]).find((t) => t !== undefined);
    out[order[i]] = (next ?? (task.endTime >= 0 ? task.endTime : now)) - start;
  }
  return out;
}

export function subtaskDetails(task: Task, now: number): S['SubtaskExecutionAttemptDetailsInfo'] & { endpoint: string } {
  const start = taskStart(task);
  return {
    subtask: task.identity.subtaskIndex,
    status: task.state,
    attempt: task.identity.attempt,
    endpoint: task.identity.endpoint,
    'start-time': start,
    'end-time': task.endTime,
    duration: duration(start, task.endTime, now),
    metrics: taskIoMetrics(task),
    'taskmanager-id': task.identity.taskManagerId,
    'status-duration': statusDuration(task, now),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

function aggregatedTaskDetails(tasks: Task[], now: number): S['AggregatedTaskDetailsInfo'] {
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const sum = values.reduce((a, b) => a + b, 0);
    return {
      min: sorted[0] ?? 0,
      max: sorted[sorted.length - 1] ?? 0,
      avg: Math.round(values.length > 0 ? sum / values.length : 0),
      sum,
      median: percentile(sorted, 50),
      p25: percentile(sorted, 25),
      p75: percentile(sorted, 75),
      p95: percentile(sorted, 95),
    };
  };
  const io = tasks.map(taskIoMetrics);
  const metricKeys = ['read-bytes', 'write-bytes', 'read-records', 'write-records', 'accumulated-backpressured-time', 'accumulated-idle-time', 'accumulated-busy-time'] as const;
  const durations = tasks.map((t) => statusDuration(t, now));
  return {
    metrics: Object.fromEntries(metricKeys.map((k) => [k, stats(io.map((m) => Math.round(m[k] as number)))])),
    'status-duration': Object.fromEntries(
      ['CREATED', 'SCHEDULED', 'DEPLOYING', 'INITIALIZING', 'RUNNING'].map((s) => [s, stats(durations.map((d) => d[s]))]),
    ),
  };
}

export function vertexDetails(job: JobExecution, v: ExecutionJobVertex, now: number): S['JobVertexDetailsInfo'] {
  return {
    id: v.jobVertex.id,
    name: v.jobVertex.name,
    parallelism: v.jobVertex.parallelism,
    maxParallelism: v.jobVertex.maxParallelism,
    now,
    subtasks: v.tasks.map((t) => subtaskDetails(t, now)),
    aggregated: aggregatedTaskDetails(v.tasks, now),
  };
}

export function subtaskTimes(v: ExecutionJobVertex, now: number): S['SubtasksTimesInfo'] {
  return {
    id: v.jobVertex.id,
    name: v.jobVertex.name,
    now,
    subtasks: v.tasks.map((t) => {
      const start = taskStart(t);
      return {
        subtask: t.identity.subtaskIndex,
        endpoint: t.identity.endpoint,
        duration: duration(start, t.endTime, now),
        timestamps: Object.fromEntries(Object.entries(t.stateTimestamps)),
      } as S['SubtaskTimeInfo'];
    }),
  };
}

export function vertexTaskManagers(engine: LocalEngine, v: ExecutionJobVertex, now: number): S['JobVertexTaskManagersInfo'] {
  const byTm = new Map<string, Task[]>();
  for (const t of v.tasks) byTm.set(t.identity.taskManagerId, [...(byTm.get(t.identity.taskManagerId) ?? []), t]);
  return {
    id: v.jobVertex.id,
    name: v.jobVertex.name,
    now,
    taskmanagers: [...byTm].map(([tmId, tasks]) => {
      const times = vertexTimes(tasks, now);
      const tm = engine.cluster.taskManagers.find((x) => x.id === tmId)!;
      return {
        endpoint: tm.endpoint,
        'taskmanager-id': tmId,
        status: aggregateState(tasks),
        'start-time': times.start,
        'end-time': times.end,
        duration: times.duration,
        metrics: vertexIoMetrics(tasks),
        'status-counts': stateCounts(tasks),
        aggregated: aggregatedTaskDetails(tasks, now),
      } as S['JobVertexTaskManagerInfo'];
    }),
  };
}

/** `JobVertexBackPressureHandler`: ratios from the per-second gauges, levels by Flink's thresholds. */
export function backPressureLevel(ratio: number): 'ok' | 'low' | 'high' {
  if (ratio <= 0.1) return 'ok';
  if (ratio <= 0.5) return 'low';
  return 'high';
}

export function vertexBackPressure(job: JobExecution, v: ExecutionJobVertex): S['JobVertexBackPressureInfo'] {
  if (job.metricsUpdatedAt < 0) return { status: 'deprecated' };
  const subtasks = v.tasks.map((t) => {
    const metrics = subtaskMetrics(t);
    const ratio = (name: string) => Number(metrics.get(name) ?? '0') / 1000;
    const bp = ratio('backPressuredTimeMsPerSecond');
    return {
      subtask: t.identity.subtaskIndex,
      backpressureLevel: backPressureLevel(bp),
      ratio: bp,
      idleRatio: ratio('idleTimeMsPerSecond'),
      busyRatio: ratio('busyTimeMsPerSecond'),
    };
  });
  const max = Math.max(...subtasks.map((s) => s.ratio));
  return { status: 'ok', backpressureLevel: backPressureLevel(max), 'end-timestamp': job.metricsUpdatedAt, subtasks };
}

const MB = 1024 * 1024;

function resourceProfile(slots: number): S['ResourceProfileInfo'] {
  return { cpuCores: slots, taskHeapMemory: 384 * slots, taskOffHeapMemory: 0, managedMemory: 512 * slots, networkMemory: 64 * slots, extendedResources: {} };
}

export function taskManagerInfo(engine: LocalEngine, tm: TaskManager, now: number): S['TaskManagerInfo'] {
  const free = tm.slots.filter((s) => s === null).length;
  return {
    id: tm.id,
    path: `pekko.tcp://flink@127.0.0.1:${tm.rpcPort}/user/rpc/taskmanager_0`,
    dataPort: tm.dataPort,
    jmxPort: -1,
    timeSinceLastHeartbeat: now,
    slotsNumber: tm.slots.length,
    freeSlots: free,
    ...(engine.emulatesAtLeast('2.3.0') && { assignedTasks: assignedTasks(engine, tm) }),
    totalResource: resourceProfile(tm.slots.length),
    freeResource: resourceProfile(free),
    hardware: { cpuCores: os.cpus().length, physicalMemory: os.totalmem(), freeMemory: 384 * MB * tm.slots.length, managedMemory: 512 * MB * tm.slots.length },
    memoryConfiguration: {
      frameworkHeap: 128 * MB,
      taskHeap: 384 * MB * tm.slots.length,
      frameworkOffHeap: 128 * MB,
      taskOffHeap: 0,
      networkMemory: 64 * MB * tm.slots.length,
      managedMemory: 512 * MB * tm.slots.length,
      jvmMetaspace: 256 * MB,
      jvmOverhead: 192 * MB,
      totalFlinkMemory: (256 + 960 * tm.slots.length) * MB,
      totalProcessMemory: (704 + 960 * tm.slots.length) * MB,
    },
    // `blocked` is left out while false, as Flink does.
  } as S['TaskManagerInfo'];
}

/** The tasks deployed on a TaskManager that have not ended (2.3's `assignedTasks`). */
function assignedTasks(engine: LocalEngine, tm: TaskManager): number {
  let n = 0;
  for (const job of engine.cluster.jobs.values()) {
    for (const task of job.tasks) if (task.identity.taskManagerId === tm.id && !ENDED_EXECUTION_STATES.has(task.state)) n++;
  }
  return n;
}
const ENDED_EXECUTION_STATES = new Set<ExecutionState>(['FINISHED', 'CANCELED', 'FAILED']);

export function taskManagerDetails(engine: LocalEngine, tm: TaskManager, now: number): S['TaskManagerDetailsInfo'] {
  const r = taskManagerResources(engine, tm);
  return {
    ...taskManagerInfo(engine, tm, now),
    allocatedSlots: tm.slots.filter((s): s is string => s !== null).map((jobId) => ({ jobId, resource: resourceProfile(1) })),
    metrics: {
      heapUsed: r.heapUsed,
      heapCommitted: r.heapCommitted,
      heapMax: r.heapMax,
      nonHeapUsed: r.nonHeapUsed,
      nonHeapCommitted: r.nonHeapUsed,
      nonHeapMax: -1,
      directCount: 0,
      directUsed: r.directUsed,
      directMax: r.directUsed,
      mappedCount: 0,
      mappedUsed: 0,
      mappedMax: 0,
      memorySegmentsAvailable: r.segmentsTotal - r.segmentsUsed,
      memorySegmentsTotal: r.segmentsTotal,
      nettyShuffleMemorySegmentsAvailable: r.segmentsTotal - r.segmentsUsed,
      nettyShuffleMemorySegmentsUsed: r.segmentsUsed,
      nettyShuffleMemorySegmentsTotal: r.segmentsTotal,
      nettyShuffleMemoryAvailable: (r.segmentsTotal - r.segmentsUsed) * r.segmentSize,
      nettyShuffleMemoryUsed: r.segmentsUsed * r.segmentSize,
      nettyShuffleMemoryTotal: r.segmentsTotal * r.segmentSize,
      // The process's own collections (V8's), as each TaskManager's (they share the one heap).
      garbageCollectors: engine.gc.read().map((c) => ({ name: c.name, count: c.count, time: Math.round(c.timeMs) })),
    },
  };
}

export function jobManagerEnvironment(): S['EnvironmentInfo'] {
  return { jvm: { version: `Node.js ${process.version}`, arch: process.arch, options: process.execArgv }, classpath: [] };
}

/**
 * The local engine's accumulators: jobs here register no user accumulators, so it shows its own record counters under
 * names that say so (`local-engine.*`), as a LongCounter would read; a real Flink lists the job's own.
 */
function taskAccumulators(task: Task): Array<{ name: string; type: string; value: string }> {
  return [
    { name: 'local-engine.numRecordsIn', type: 'LongCounter', value: String(task.io.numRecordsIn.count) },
    { name: 'local-engine.numRecordsOut', type: 'LongCounter', value: String(task.io.numRecordsOut.count) },
  ];
}

/** `GET /jobs/:jobid/vertices/:vertexid/accumulators`: merged over the subtasks, as Flink merges LongCounters (sums). */
export function vertexAccumulators(v: ExecutionJobVertex): S['JobVertexAccumulatorsInfo'] {
  const totals = new Map<string, number>();
  for (const t of v.tasks) for (const a of taskAccumulators(t)) totals.set(a.name, (totals.get(a.name) ?? 0) + Number(a.value));
  return { id: v.jobVertex.id, 'user-accumulators': [...totals].map(([name, total]) => ({ name, type: 'LongCounter', value: String(total) })) };
}

/** `GET /jobs/:jobid/vertices/:vertexid/subtasks/accumulators`, with 2.x's `endpoint`. */
export function subtaskAccumulators(v: ExecutionJobVertex): S['SubtasksAllAccumulatorsInfo'] {
  return {
    id: v.jobVertex.id,
    parallelism: v.tasks.length,
    subtasks: v.tasks.map((t) => ({ subtask: t.identity.subtaskIndex, attempt: t.identity.attempt, endpoint: t.identity.endpoint, 'user-accumulators': taskAccumulators(t) })),
  } as unknown as S['SubtasksAllAccumulatorsInfo'];
}
