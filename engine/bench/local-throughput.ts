/**
 * Local engine benchmarks:
 * - events per second through `gatewaymeter` with no capacity limit, the whole engine on one thread (one core);
 * - memory per million open requests held in `assemble` (keyed ValueState + the 5-minute timer per request).
 *
 * Run: `npx tsx engine/bench/local-throughput.ts [--events N] [--parallelism P] [--open-requests N]`.
 * The real-Flink side of the comparison is measured elsewhere; pass its figure to `formatThroughputComparison`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { ProcessOperator } from '../local/api/functions.ts';
import type { Output } from '../local/api/operator.ts';
import { parseEvent, type GatewayEvent } from '../local/gatewaymeter/events.ts';
import { GatewayEventReader } from '../local/gatewaymeter/generator.ts';
import { assembleFunction, gatewayMeterJob } from '../local/gatewaymeter/pipelines.ts';
import { ResultStore, TenantCostSink } from '../local/gatewaymeter/sinks.ts';
import { LocalCluster } from '../local/runtime/cluster.ts';
import { OperatorMetrics } from '../local/runtime/task-metrics.ts';
import { DEFAULT_TRAFFIC } from '../local/scenarios/scenario.ts';
import { HeapKeyedStateBackend } from '../local/state/keyed-state-backend.ts';
import { ManualClock } from '../local/time/clock.ts';

export interface ThroughputResult {
  events: number;
  parallelism: number;
  /** Wall-clock seconds. */
  seconds: number;
  eventsPerSecond: number;
  /** CPU seconds of this process (user + system): on a shared machine, the steadier measure of one core's worth. */
  cpuSeconds: number;
  eventsPerCpuSecond: number;
  /** RequestRecords that reached tenant-cost (a check that the whole pipeline ran). */
  requestRecords: number;
  windowsEmitted: number;
}

/**
 * Runs `gatewaymeter` over a bounded, unthrottled source (the generator produces as fast as the pipeline takes
 * events) with no capacity limits, until the job has FINISHED (all windows fired), and times it on the wall clock.
 */
export function measureLocalThroughput(options: { events?: number; parallelism?: number; seed?: number } = {}): ThroughputResult {
  const events = options.events ?? 1_000_000;
  const parallelism = options.parallelism ?? 1;
  const cluster = new LocalCluster({ clock: new ManualClock(1_767_225_600_000), taskManagers: Math.max(4, parallelism), slotsPerTaskManager: 2 });
  const store = new ResultStore();
  const job = cluster.submitJob(
    gatewayMeterJob({
      parallelism,
      maxParallelism: 128,
      generator: { ...DEFAULT_TRAFFIC, seed: options.seed ?? 42, rate: 100_000, events, throttle: false },
      sink: new TenantCostSink(store),
    }),
  );
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  while (job.status === 'RUNNING') cluster.advance(1_000);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (job.status !== 'FINISHED') throw new Error(`The benchmark job ended ${job.status}: ${job.exceptions[0]?.stacktrace ?? ''}`);
  const tenantCost = job.vertices[2].tasks;
  return {
    events,
    parallelism,
    seconds,
    eventsPerSecond: events / seconds,
    cpuSeconds,
    eventsPerCpuSecond: events / cpuSeconds,
    requestRecords: tenantCost.reduce((s, t) => s + t.io.numRecordsIn.count, 0),
    windowsEmitted: store.emitted,
  };
}

function gcFunction(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}

export interface MemoryResult {
  openRequests: number;
  bytesPerOpenRequest: number;
  megabytesPerMillion: number;
}

/**
 * Feeds `openRequests` RequestStarted events (real JSON lines from the generator, parsed as `parse` does) into an
 * `assemble` operator with its heap keyed state backend and timer service, and measures the heap they keep:
 * one `open` ValueState entry and one event-time timer per request.
 */
export function measureAssembleMemory(openRequests = 1_000_000): MemoryResult {
  const gc = gcFunction();
  const clock = new ManualClock(1_767_225_600_000);
  const backend = new HeapKeyedStateBackend(128, { startKeyGroup: 0, endKeyGroup: 127 }, clock);
  const noop: Output<unknown> = { collect() {}, collectSide() {}, emitWatermark() {}, emitWatermarkStatus() {} };
  const operator = new ProcessOperator(assembleFunction());
  operator.setup(
    {
      operatorName: 'assemble',
      uid: 'assemble',
      subtaskIndex: 0,
      parallelism: 1,
      maxParallelism: 128,
      clock,
      metrics: new OperatorMetrics('assemble'),
      keyed: { backend, keySelector: (e) => (e as GatewayEvent).request_id },
    },
    noop,
  );
  operator.open();
  const reader = new GatewayEventReader(
    { ...DEFAULT_TRAFFIC, seed: 1, rate: 100_000, throttle: false, abandonFraction: 1, tokenEvents: [0, 0], toolCallProbability: 0, agentStepProbability: 0, modelErrorProbability: 0, orphanFraction: 0 },
    { subtaskIndex: 0, parallelism: 1, startTime: clock.now(), clock },
  );
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  let fed = 0;
  while (fed < openRequests) {
    reader.pollNext(Number.POSITIVE_INFINITY, Math.min(10_000, openRequests - fed), (line, ts) => {
      const event = parseEvent(line)!;
      backend.setCurrentKey(event.request_id);
      operator.processElement(event, ts);
      fed++;
    });
  }
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  const open = backend.tables.get('open')!.size;
  if (open !== openRequests) throw new Error(`Expected ${openRequests} open requests, found ${open}.`);
  const timers = operator.internalTimerService!.numEventTimeTimers();
  if (timers !== openRequests) throw new Error(`Expected ${openRequests} timers, found ${timers}.`);
  // The generator itself holds nothing per started request once its events are emitted; keep the state alive.
  void reader;
  const bytes = (after - before) / openRequests;
  return { openRequests, bytesPerOpenRequest: bytes, megabytesPerMillion: (bytes * 1_000_000) / (1024 * 1024) };
}

/** One line comparing the local engine with a real Flink on this machine (events/s each, and the ratio). */
export function formatThroughputComparison(local: ThroughputResult, realFlinkEventsPerSecond?: number): string {
  const ours = `local engine ${Math.round(local.eventsPerSecond).toLocaleString('en-US')} events/s (gatewaymeter, parallelism ${local.parallelism}, no capacity limit, one core)`;
  if (realFlinkEventsPerSecond === undefined || !(realFlinkEventsPerSecond > 0)) return `${ours}; real Flink: not measured`;
  const ratio = local.eventsPerSecond / realFlinkEventsPerSecond;
  return `${ours} vs real Flink ${Math.round(realFlinkEventsPerSecond).toLocaleString('en-US')} events/s: ratio ${ratio.toFixed(2)}`;
}

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const events = argValue('--events', 1_000_000);
  const openRequests = argValue('--open-requests', 1_000_000);
  // Warm up the JIT on a small run, then measure.
  measureLocalThroughput({ events: 100_000 });
  for (const parallelism of process.argv.includes('--parallelism') ? [argValue('--parallelism', 1)] : [1, 4]) {
    const result = measureLocalThroughput({ events, parallelism });
    console.log(formatThroughputComparison(result));
    console.log(
      `  ${events.toLocaleString('en-US')} events in ${result.seconds.toFixed(2)} s wall, ${result.cpuSeconds.toFixed(2)} s CPU ` +
        `(${Math.round(result.eventsPerCpuSecond).toLocaleString('en-US')} events per CPU-second); ` +
        `${result.requestRecords.toLocaleString('en-US')} request records, ${result.windowsEmitted} window results`,
    );
  }
  const memory = measureAssembleMemory(openRequests);
  console.log(
    `assemble: ${Math.round(memory.bytesPerOpenRequest)} bytes per open request = ${memory.megabytesPerMillion.toFixed(0)} MB per million open requests ` +
      '(ValueState entry + event-time timer, heap backend)',
  );
}
