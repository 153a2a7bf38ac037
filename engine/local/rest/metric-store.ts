import { getHeapStatistics } from 'node:v8';
import { dataSkewOf } from '../../analysis/data-skew.ts';
import { jobCheckpointMetrics } from '../checkpoint/checkpoint-stats-rest.ts';
import { javaDoubleToString, javaLongToString } from '../metrics/java-format.ts';
import type { JobExecution } from '../runtime/job.ts';
import type { SourceTask, Task } from '../runtime/task.ts';
import { metricScopeName } from '../runtime/task-metrics.ts';
import type { LocalEngine } from '../engine.ts';
import type { TaskManager } from '../runtime/cluster.ts';

/**
 * What the JobManager's MetricStore would hold for the local engine: metric name → value string, formatted as
 * Flink's `MetricQueryService` does (`String.valueOf` of a Long, Double, Float or Boolean).
 */
export type MetricValues = Map<string, string>;

const long = javaLongToString;
const double = javaDoubleToString;

/** Task-scope and operator-scope metrics of one subtask (operator ids prefixed `<operator name>.`). */
export function subtaskMetrics(task: Task): MetricValues {
  const io = task.io;
  const m: MetricValues = new Map();
  const bp = io.backPressuredTimeMsPerSecond();
  m.set('numRecordsIn', long(io.numRecordsIn.count));
  m.set('numRecordsOut', long(io.numRecordsOut.count));
  m.set('numRecordsInPerSecond', double(io.numRecordsInPerSecond.getRate()));
  m.set('numRecordsOutPerSecond', double(io.numRecordsOutPerSecond.getRate()));
  m.set('numBytesIn', long(io.numBytesIn.getCount()));
  m.set('numBytesOut', long(io.numBytesOut.count));
  m.set('numBytesInPerSecond', double(io.numBytesInPerSecond.getRate()));
  m.set('numBytesOutPerSecond', double(io.numBytesOutPerSecond.getRate()));
  m.set('numBytesInLocal', long(io.numBytesInLocal.count));
  m.set('numBytesInRemote', long(io.numBytesInRemote.count));
  m.set('numBytesInLocalPerSecond', double(io.numBytesInLocalPerSecond.getRate()));
  m.set('numBytesInRemotePerSecond', double(io.numBytesInRemotePerSecond.getRate()));
  m.set('numBuffersOut', long(io.numBuffersOut.count));
  m.set('numBuffersInLocal', long(io.numBuffersInLocal.count));
  m.set('numBuffersInRemote', long(io.numBuffersInRemote.count));
  m.set('busyTimeMsPerSecond', double(io.busyTimeMsPerSecond()));
  m.set('idleTimeMsPerSecond', long(io.idleTime.getValue()));
  m.set('backPressuredTimeMsPerSecond', long(bp));
  m.set('softBackPressuredTimeMsPerSecond', long(io.softBackPressuredTime.getValue()));
  m.set('hardBackPressuredTimeMsPerSecond', long(io.hardBackPressuredTime.getValue()));
  m.set('maxSoftBackPressureTimeMs', long(io.softBackPressuredTime.getMaxSingleMeasurement()));
  m.set('maxHardBackPressureTimeMs', long(io.hardBackPressuredTime.getMaxSingleMeasurement()));
  const accumulated = io.accumulatedTimes();
  m.set('accumulateBusyTimeMs', double(accumulated.busyMs));
  m.set('accumulateIdleTimeMs', long(accumulated.idleMs));
  m.set('accumulateBackPressuredTimeMs', long(accumulated.backPressuredMs));
  m.set('isBackPressured', String(task.outputBlockers > 0));
  m.set('currentInputWatermark', long(io.currentInputWatermark));
  m.set('checkpointStartDelayNanos', '0');
  for (const [name, value] of Object.entries(task.bufferMetrics())) {
    m.set(name, name.endsWith('Usage') ? double(value) : long(value));
  }
  for (const handle of task.handles) {
    const scope = metricScopeName(handle.name);
    const om = handle.metrics;
    m.set(`${scope}.numRecordsIn`, long(om.numRecordsIn.count));
    m.set(`${scope}.numRecordsOut`, long(om.numRecordsOut.count));
    m.set(`${scope}.numRecordsInPerSecond`, double(om.numRecordsInPerSecond.getRate()));
    m.set(`${scope}.numRecordsOutPerSecond`, double(om.numRecordsOutPerSecond.getRate()));
    m.set(`${scope}.currentInputWatermark`, long(om.currentInputWatermark));
    m.set(`${scope}.currentOutputWatermark`, long(om.currentOutputWatermark));
    for (const [name, counter] of om.counters) m.set(`${scope}.${name}`, long(counter.count));
    for (const [name, read] of om.gauges) {
      const v = read();
      m.set(`${scope}.${name}`, typeof v === 'number' ? (Number.isInteger(v) ? long(v) : double(v)) : v);
    }
  }
  if ('reader' in task) {
    const source = task as SourceTask;
    const scope = metricScopeName(task.head.name);
    for (const [name, v] of Object.entries(source.reader.metrics?.() ?? {})) m.set(`${scope}.${name}`, long(v));
    const wm = source.watermarks.currentWatermark;
    m.set(`${scope}.currentEmitEventTimeLag`, '-9223372036854775808');
    m.set(`${scope}.watermarkLag`, Number.isFinite(wm) ? long(task.stepEnd - wm) : '-9223372036854775808');
    m.set(`${scope}.sourceIdleTime`, long(source.watermarks.isIdle ? task.io.idleTime.getAccumulatedCount() : 0));
  }
  return m;
}

/** Job-scope metrics (`GET /jobs/:id/metrics`): status times, restarts, and the checkpoint gauges. */
export function jobMetrics(job: JobExecution, now: number): MetricValues {
  const m: MetricValues = new Map();
  const running = job.statusTimestamps.RUNNING;
  const restarting = job.statusTimestamps.RESTARTING;
  m.set('uptime', long(job.status === 'RUNNING' && running !== undefined ? now - running : job.isTerminal ? -1 : 0));
  m.set('downtime', long(job.status === 'RESTARTING' && restarting !== undefined ? now - restarting : 0));
  m.set('restartingTime', long(job.status === 'RESTARTING' && restarting !== undefined ? now - restarting : 0));
  m.set('cancellingTime', long(0));
  m.set('failingTime', long(0));
  m.set('numRestarts', long(job.numRestarts));
  m.set('fullRestarts', long(job.numRestarts));
  const tracker = job.checkpointTracker;
  const checkpoints = tracker
    ? jobCheckpointMetrics(tracker)
    : new Map([
        ['totalNumberOfCheckpoints', '0'],
        ['numberOfInProgressCheckpoints', '0'],
        ['numberOfCompletedCheckpoints', '0'],
        ['numberOfFailedCheckpoints', '0'],
        ['lastCheckpointRestoreTimestamp', '-1'],
        ['lastCheckpointSize', '-1'],
        ['lastCheckpointFullSize', '-1'],
        ['lastCheckpointDuration', '-1'],
        ['lastCheckpointProcessedData', '-1'],
        ['lastCheckpointPersistedData', '-1'],
        ['lastCheckpointExternalPath', 'n/a'],
        ['lastCompletedCheckpointId', '-1'],
      ]);
  for (const [k, v] of checkpoints) m.set(k, v);
  return m;
}

const MB = 1024 * 1024;

/**
 * A TaskManager of the local engine as its metrics see it. The engine is one process: its heap and CPU are shared
 * out over the TaskManagers (CPU by the busy time of the tasks each runs, so the one with the hot subtask is the
 * busiest); its managed memory (512 MB a slot, unused by the heap state backend, as on Flink) and network buffers
 * (2048 segments a slot) are its own, the buffers in use those its tasks hold now.
 */
export function taskManagerResources(engine: LocalEngine, tm: TaskManager) {
  const mem = process.memoryUsage();
  const tms = engine.cluster.taskManagers;
  const share = (v: number) => Math.round(v / tms.length);
  const busy = new Map<string, number>();
  let buffersInUse = 0;
  for (const job of engine.cluster.jobs.values()) {
    if (job.isTerminal) continue;
    for (const task of job.tasks) {
      if (task.state !== 'RUNNING') continue;
      const id = task.identity.taskManagerId;
      busy.set(id, (busy.get(id) ?? 0) + task.io.busyTimeMsPerSecond());
      if (id === tm.id) buffersInUse += task.networkBuffersInUse();
    }
  }
  const totalBusy = [...busy.values()].reduce((a, b) => a + b, 0);
  const cpuShare = totalBusy > 0 ? (busy.get(tm.id) ?? 0) / totalBusy : 1 / tms.length;
  const slots = tm.slots.length;
  const segmentsTotal = 2048 * slots;
  return {
    heapUsed: share(mem.heapUsed),
    heapCommitted: share(mem.heapTotal),
    heapMax: 384 * MB * slots + 128 * MB,
    nonHeapUsed: share(Math.max(0, mem.rss - mem.heapTotal)),
    directUsed: share(mem.external),
    cpuLoad: engine.cpuLoad.read() * cpuShare,
    managedUsed: 0,
    managedTotal: 512 * MB * slots,
    segmentSize: engine.cluster.network.segmentSize,
    segmentsTotal,
    segmentsUsed: Math.min(segmentsTotal, buffersInUse),
  };
}

/** TaskManager-scope metrics (`GET /taskmanagers/:id/metrics`), under the names Flink 2.2.1 and 1.20.3 use. */
export function taskManagerMetrics(engine: LocalEngine, tm: TaskManager): MetricValues {
  const r = taskManagerResources(engine, tm);
  const cpu = process.cpuUsage();
  const n = engine.cluster.taskManagers.length;
  const m: MetricValues = new Map();
  m.set('Status.JVM.Memory.Heap.Used', long(r.heapUsed));
  m.set('Status.JVM.Memory.Heap.Committed', long(r.heapCommitted));
  m.set('Status.JVM.Memory.Heap.Max', long(r.heapMax));
  m.set('Status.JVM.Memory.NonHeap.Used', long(r.nonHeapUsed));
  m.set('Status.JVM.Memory.Direct.MemoryUsed', long(r.directUsed));
  m.set('Status.JVM.CPU.Time', long(Math.round(((cpu.user + cpu.system) * 1000) / n)));
  m.set('Status.JVM.CPU.Load', double(r.cpuLoad));
  m.set('Status.JVM.Threads.Count', long(1));
  setGarbageCollectors(m, engine);
  m.set('Status.Flink.Memory.Managed.Used', long(r.managedUsed));
  m.set('Status.Flink.Memory.Managed.Total', long(r.managedTotal));
  m.set('Status.Shuffle.Netty.TotalMemorySegments', long(r.segmentsTotal));
  m.set('Status.Shuffle.Netty.AvailableMemorySegments', long(r.segmentsTotal - r.segmentsUsed));
  m.set('Status.Shuffle.Netty.UsedMemorySegments', long(r.segmentsUsed));
  m.set('Status.Shuffle.Netty.TotalMemory', long(r.segmentsTotal * r.segmentSize));
  m.set('Status.Shuffle.Netty.AvailableMemory', long((r.segmentsTotal - r.segmentsUsed) * r.segmentSize));
  m.set('Status.Shuffle.Netty.UsedMemory', long(r.segmentsUsed * r.segmentSize));
  return m;
}

/**
 * The JobManager's metrics (`GET /jobmanager/metrics`): the engine process itself (it is the JobManager too), its
 * TaskManagers and running jobs counted as Flink's JobManager counts them.
 */
export function jobManagerMetrics(engine: LocalEngine): MetricValues {
  const mem = process.memoryUsage();
  const m: MetricValues = new Map();
  m.set('Status.JVM.Memory.Heap.Used', long(mem.heapUsed));
  m.set('Status.JVM.Memory.Heap.Committed', long(mem.heapTotal));
  m.set('Status.JVM.Memory.Heap.Max', long(getHeapStatistics().heap_size_limit));
  // The Node.js process's native memory beyond the V8 heap, and its buffers: the nearest to non-heap and direct.
  m.set('Status.JVM.Memory.NonHeap.Used', long(Math.max(0, mem.rss - mem.heapTotal)));
  m.set('Status.JVM.Memory.Direct.MemoryUsed', long(mem.external));
  m.set('Status.JVM.CPU.Load', double(engine.cpuLoad.read()));
  m.set('Status.JVM.Threads.Count', long(1));
  setGarbageCollectors(m, engine);
  m.set('numRegisteredTaskManagers', long(engine.cluster.taskManagers.length));
  m.set('numRunningJobs', long([...engine.cluster.jobs.values()].filter((j) => j.status === 'RUNNING').length));
  return m;
}

/** The process's collections, as every process of the engine reports them (they share the one V8 heap). */
function setGarbageCollectors(m: MetricValues, engine: LocalEngine): void {
  for (const c of [engine.gc.total(), ...engine.gc.read()]) {
    m.set(`Status.JVM.GarbageCollector.${c.name}.Count`, long(c.count));
    m.set(`Status.JVM.GarbageCollector.${c.name}.Time`, long(Math.round(c.timeMs)));
  }
  m.set('Status.JVM.GarbageCollector.All.TimeMsPerSecond', double(engine.gc.timeMsPerSecond()));
}

export type AggregationMode = 'min' | 'max' | 'avg' | 'sum' | 'skew';
export const AGGREGATION_MODES: readonly AggregationMode[] = ['min', 'max', 'avg', 'sum', 'skew'];

/** `[{id, min, max, avg, sum, skew}]` over stores, as Flink's `AbstractAggregatingMetricsHandler` computes it. */
export function aggregateMetrics(
  stores: MetricValues[],
  requested: string[] | undefined,
  modes: readonly AggregationMode[],
): Array<Record<string, string | number>> {
  if (requested === undefined) {
    const names = new Set<string>();
    for (const s of stores) for (const k of s.keys()) names.add(k);
    return [...names].sort().map((id) => ({ id }));
  }
  const out: Array<Record<string, string | number>> = [];
  for (const name of requested) {
    const values: number[] = [];
    let numeric = true;
    for (const s of stores) {
      const raw = s.get(name);
      if (raw === undefined) continue;
      const v = Number(raw);
      if (raw === 'true' || raw === 'false' || (Number.isNaN(v) && raw !== 'NaN')) numeric = false;
      values.push(v);
    }
    if (!numeric) continue; // not numeric: cannot be aggregated, left out
    if (values.length === 0) return []; // Flink answers an empty list when a requested metric is unknown
    const entry: Record<string, string | number> = { id: name };
    const sum = values.reduce((a, b) => a + b, 0);
    const avg = sum / values.length;
    for (const mode of modes) {
      if (mode === 'min') entry.min = Math.min(...values);
      else if (mode === 'max') entry.max = Math.max(...values);
      else if (mode === 'sum') entry.sum = sum;
      else if (mode === 'avg') entry.avg = avg;
      else entry.skew = dataSkewOf(values);
    }
    out.push(entry);
  }
  return out;
}

/** Flink's `SubtasksFilterQueryParameter`: "1,3,5-9". */
export function parseSubtaskFilter(text: string, parallelism: number): number[] {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const t = part.trim();
    if (t === '') continue;
    const range = /^(\d+)-(\d+)$/.exec(t);
    if (range) {
      for (let i = Number(range[1]); i <= Number(range[2]); i++) if (i < parallelism) out.add(i);
    } else if (/^\d+$/.test(t)) {
      if (Number(t) < parallelism) out.add(Number(t));
    } else {
      throw new Error(`Cannot parse subtask index or range "${t}": use a comma-separated list like 1,3,5-9.`);
    }
  }
  return [...out].sort((a, b) => a - b);
}
