import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkParallelismAgainstMax } from './keygroups/key-group-range-assignment.ts';
import { builtInJob, type BuiltInJob } from './gatewaymeter/pipelines.ts';
import { NdjsonUpsertLog, ResultStore, TenantCostSink } from './gatewaymeter/sinks.ts';
import type { GeneratorConfig } from './gatewaymeter/generator.ts';
import { LocalCluster } from './runtime/cluster.ts';
import type { JobExecution } from './runtime/job.ts';
import { DEFAULT_NETWORK_CONFIG, type NetworkConfig } from './runtime/network.ts';
import { DEFAULT_TRAFFIC, loadScenario, type Scenario } from './scenarios/scenario.ts';
import { parseDurationMs, parseMemorySize } from './scenarios/units.ts';
import { ManualClock } from './time/clock.ts';

/** The version of Flink whose behaviour and REST API the local engine follows. */
export const EMULATED_FLINK_VERSION = '2.2.1';
export const ENGINE_REVISION = 'flink-ops-local-engine';
/** Max parallelism of the built-in jobs (`env.setMaxParallelism(128)`, Flink's default lower bound). */
export const BUILT_IN_MAX_PARALLELISM = 128;

export interface LocalEngineOptions {
  /** A scenario of resources/scenarios, by name; none = uniform traffic, no capacity limits. */
  scenario?: string;
  /** Which built-in job runs at start. @default the scenario's job, else "gatewaymeter" */
  job?: BuiltInJob;
  /** Default parallelism of the job's operators. @default the scenario's, else 4 */
  parallelism?: number;
  /** @default 42 */
  seed?: number;
  /** Bounded source: the job finishes once these many events are processed and all windows fired. */
  events?: number;
  /** Events per second. @default the scenario's, else 2000 */
  rate?: number;
  /** Write the NDJSON upsert log of results here. */
  sinkDir?: string;
  /** Checkpoint storage folder (validated now; checkpoints are taken by part 2 of the engine). */
  checkpointDir?: string;
  /** The virtual clock; defaults to one starting at the current wall-clock time. */
  clock?: ManualClock;
  /** Charge measured CPU time as busy time (the real-time engine does; deterministic tests do not). @default false */
  measureCpu?: boolean;
  /** Produce events as fast as the pipeline takes them instead of following the rate (benchmarks). */
  unthrottled?: boolean;
  /** Overrides the scenario's / default cluster size. */
  taskManagers?: number;
  slotsPerTaskManager?: number;
  /** Virtual ms per scheduling step. @default 10 */
  stepMs?: number;
  /** The REST port, for the configuration the engine reports. */
  restPort?: number;
}

/** An invalid engine option: a message that names the option and the fix. */
export class LocalEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalEngineError';
  }
}

/** `mkdir -p`, one level at a time (Node's recursive mkdir can loop forever on special file systems like /proc). */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  let current = dir;
  while (!existsSync(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing) mkdirSync(folder);
}

function checkFolder(dir: string, option: string): string {
  const resolved = path.resolve(dir);
  try {
    makeFolders(resolved);
    if (!statSync(resolved).isDirectory()) throw new Error('not a folder');
    accessSync(resolved, constants.R_OK | constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new LocalEngineError(`Cannot use ${option} ${resolved}: ${reason}. Pass a folder the engine can read and write.`);
  }
  return resolved;
}

function positiveInt(value: number | undefined, option: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new LocalEngineError(`${option} must be a positive whole number, got ${value}.`);
}

/**
 * The local engine: a Flink-like cluster in this process (1 JobManager, TaskManagers with slots) running a
 * built-in GatewayMeter job, plus what its REST API reports. Time is virtual: `advance(ms)` runs it; the real-time
 * driver advances it with the wall clock.
 */
export class LocalEngine {
  readonly cluster: LocalCluster;
  readonly scenario: Scenario | undefined;
  readonly seed: number;
  readonly results = new Map<string, ResultStore>();
  readonly sinkFiles = new Map<string, string>();
  readonly checkpointDir: string | undefined;
  readonly sinkDir: string | undefined;
  readonly configuration: Array<{ key: string; value: string }>;
  readonly defaultParallelism: number;
  readonly generator: Omit<GeneratorConfig, 'seed'>;
  readonly jobName: BuiltInJob;

  constructor(readonly options: LocalEngineOptions = {}) {
    positiveInt(options.parallelism, '--parallelism');
    positiveInt(options.events, '--events');
    positiveInt(options.taskManagers, 'taskManagers');
    positiveInt(options.slotsPerTaskManager, 'slotsPerTaskManager');
    if (options.rate !== undefined && !(options.rate > 0)) throw new LocalEngineError(`--rate must be a positive number of events per second, got ${options.rate}.`);
    if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new LocalEngineError(`--seed must be a whole number, got ${options.seed}.`);
    try {
      this.scenario = options.scenario !== undefined ? loadScenario(options.scenario) : undefined;
    } catch (error) {
      throw new LocalEngineError((error as Error).message);
    }
    this.seed = options.seed ?? 42;
    this.jobName = options.job ?? this.scenario?.job ?? 'gatewaymeter';
    this.defaultParallelism = options.parallelism ?? this.scenario?.parallelism ?? 4;
    const operatorParallelism = this.scenario?.operatorParallelism ?? {};
    for (const [uid, p] of [['default', this.defaultParallelism] as const, ...Object.entries(operatorParallelism)]) {
      try {
        checkParallelismAgainstMax(uid === 'default' ? '--parallelism' : uid, p, BUILT_IN_MAX_PARALLELISM);
      } catch (error) {
        throw new LocalEngineError((error as Error).message);
      }
    }
    this.checkpointDir = options.checkpointDir !== undefined ? checkFolder(options.checkpointDir, '--checkpoint-dir') : undefined;
    this.sinkDir = options.sinkDir !== undefined ? checkFolder(options.sinkDir, '--sink-dir') : undefined;

    const conf = this.scenario?.configuration ?? {};
    const network: NetworkConfig = { ...DEFAULT_NETWORK_CONFIG };
    try {
      if (conf['taskmanager.memory.segment-size']) network.segmentSize = parseMemorySize(conf['taskmanager.memory.segment-size'], 'taskmanager.memory.segment-size');
      if (conf['taskmanager.network.memory.buffers-per-channel']) network.buffersPerChannel = Number(conf['taskmanager.network.memory.buffers-per-channel']);
      if (conf['taskmanager.network.memory.floating-buffers-per-gate']) network.floatingBuffersPerGate = Number(conf['taskmanager.network.memory.floating-buffers-per-gate']);
      if (conf['taskmanager.network.memory.max-buffers-per-channel']) network.maxBuffersPerChannel = Number(conf['taskmanager.network.memory.max-buffers-per-channel']);
      if (conf['execution.buffer-timeout.interval']) network.bufferTimeoutMs = parseDurationMs(conf['execution.buffer-timeout.interval'], 'execution.buffer-timeout.interval');
    } catch (error) {
      throw new LocalEngineError(`Scenario ${this.scenario?.name}: ${(error as Error).message}`);
    }
    if (network.segmentSize < 4096) throw new LocalEngineError('taskmanager.memory.segment-size must be at least 4kb.');

    const traffic = this.scenario?.traffic ?? DEFAULT_TRAFFIC;
    this.generator = { ...traffic, rate: options.rate ?? traffic.rate, events: options.events, throttle: !options.unthrottled };

    // The cluster: the scenario's or the course cluster (4 TaskManagers × 2 slots); it grows by whole TaskManagers
    // when the job needs more slots than that, as an active resource manager would start more.
    const slotsPerTm = options.slotsPerTaskManager ?? this.scenario?.cluster.slotsPerTaskManager ?? 2;
    const needed = Math.max(this.defaultParallelism, ...Object.values(operatorParallelism));
    const requestedTms = options.taskManagers ?? this.scenario?.cluster.taskManagers;
    const taskManagers = requestedTms ?? Math.max(4, Math.ceil(needed / slotsPerTm));
    const clock = options.clock ?? new ManualClock(Date.now());
    this.cluster = new LocalCluster({ clock, taskManagers, slotsPerTaskManager: slotsPerTm, network, stepMs: options.stepMs });

    this.configuration = this.buildConfiguration(network, conf);
    this.submitBuiltInJob(this.jobName);
  }

  /** Starts a built-in job with the engine's traffic, capacity model and sinks. */
  submitBuiltInJob(name: BuiltInJob): JobExecution {
    const store = new ResultStore();
    const log = this.sinkDir !== undefined ? new NdjsonUpsertLog(this.sinkDir, name) : undefined;
    const graph = builtInJob(name, {
      parallelism: this.defaultParallelism,
      operatorParallelism: this.scenario?.operatorParallelism,
      maxParallelism: BUILT_IN_MAX_PARALLELISM,
      generator: { ...this.generator, seed: this.seed },
      sink: new TenantCostSink(store, log),
    });
    let job: JobExecution;
    try {
      job = this.cluster.submitJob(graph, {
        capacity: this.scenario?.capacity,
        measureCpu: this.options.measureCpu ?? false,
        jobParameters: {
          seed: String(this.seed),
          rate: String(this.generator.rate),
          ...(this.generator.events !== undefined && { events: String(this.generator.events) }),
          ...(this.scenario && { scenario: this.scenario.name }),
        },
        checkpointing: this.checkpointDir
          ? { intervalMs: 10_000, timeoutMs: 600_000, minPauseMs: 0, maxConcurrent: 1, directory: this.checkpointDir }
          : undefined,
      });
    } catch (error) {
      throw new LocalEngineError((error as Error).message);
    }
    this.results.set(job.jobId, store);
    if (log) this.sinkFiles.set(job.jobId, log.file);
    return job;
  }

  /** Runs the engine for `ms` of virtual time. */
  advance(ms: number): void {
    this.cluster.advance(ms);
  }

  now(): number {
    return this.cluster.clock.now();
  }

  private buildConfiguration(network: NetworkConfig, scenarioConf: Record<string, string>): Array<{ key: string; value: string }> {
    const entries: Record<string, string> = {
      'jobmanager.rpc.address': '127.0.0.1',
      'jobmanager.rpc.port': '6123',
      'rest.address': '127.0.0.1',
      'rest.bind-address': '127.0.0.1',
      ...(this.options.restPort !== undefined && { 'rest.port': String(this.options.restPort) }),
      'taskmanager.numberOfTaskSlots': String(this.cluster.slotsPerTaskManager),
      'parallelism.default': String(this.defaultParallelism),
      'pipeline.max-parallelism': String(BUILT_IN_MAX_PARALLELISM),
      'pipeline.auto-watermark-interval': '200 ms',
      'execution.buffer-timeout.interval': `${network.bufferTimeoutMs} ms`,
      'taskmanager.memory.segment-size': `${network.segmentSize / 1024}kb`,
      'taskmanager.network.memory.buffers-per-channel': String(network.buffersPerChannel),
      'taskmanager.network.memory.floating-buffers-per-gate': String(network.floatingBuffersPerGate),
      'taskmanager.network.memory.max-buffers-per-channel': String(network.maxBuffersPerChannel),
      'metrics.fetcher.update-interval': '10000',
      'web.refresh-interval': '3000',
      'state.backend.type': 'hashmap',
      ...(this.checkpointDir && {
        'execution.checkpointing.interval': '10 s',
        'execution.checkpointing.dir': `file://${this.checkpointDir}`,
        'execution.checkpointing.savepoint-dir': `file://${path.join(this.checkpointDir, 'savepoints')}`,
      }),
      'local-engine.seed': String(this.seed),
      'local-engine.rate': String(this.generator.rate),
      ...(this.generator.events !== undefined && { 'local-engine.events': String(this.generator.events) }),
      ...(this.scenario && { 'local-engine.scenario': this.scenario.name }),
      ...(this.sinkDir && { 'local-engine.sink-dir': this.sinkDir }),
      ...scenarioConf,
    };
    return Object.entries(entries)
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }
}
