import path from 'node:path';
import { CheckpointConfigError, parseCheckpointingConfig } from './checkpoint/checkpoint-stats-rest.ts';
import { AllowedFolders, prepareTargetDirectory, resolveTargetPath, TargetDirectoryError } from './checkpoint/target-directory.ts';
import { prepareRestore, type PreparedRestore } from './checkpoint/prepare-restore.ts';
import { checkParallelismAgainstMax } from '../analysis/key-groups/key-group-range-assignment.ts';
import { builtInJob, type BuiltInJob } from './gatewaymeter/pipelines.ts';
import { NdjsonUpsertLog, ResultStore, TenantCostSink } from './gatewaymeter/sinks.ts';
import type { GeneratorConfig } from './gatewaymeter/generator.ts';
import { configurationOf, type JobArguments, type RestartStrategyName } from './jars/built-in-jars.ts';
import { AsyncOperationRegistry } from './operations/async-operations.ts';
import { resolveRestartStrategy, type RestartStrategyConfig } from './restart/restart-strategy.ts';
import { LocalCluster } from './runtime/cluster.ts';
import { buildJobGraph, type JobGraph } from './runtime/job-graph.ts';
import type { JobExecution } from './runtime/job.ts';
import { DEFAULT_NETWORK_CONFIG, type NetworkConfig } from './runtime/network.ts';
import { DEFAULT_TRAFFIC, resolveScenario, type Scenario } from './scenarios/scenario.ts';
import { parseDurationMs, parseMemorySize } from './scenarios/units.ts';
import { FanOutSink } from './kafka/kafka-sink.ts';
import type { LocalKafka } from './kafka/local-kafka.ts';
import { processGc } from './metrics/process-gc.ts';
import { ProcessCpuLoad } from './metrics/process-cpu.ts';
import { ManualClock } from './time/clock.ts';
import { UploadedJars } from './jars/uploaded-jars.ts';
import { SavepointDisposals } from './operations/savepoint-disposal.ts';
import { deriveSeed, mulberry32 } from './time/random.ts';

/** The Flink versions whose REST shape the local engine can serve (`flinkVersion`). */
export const EMULATED_FLINK_VERSIONS = ['2.2.1', '2.3.0'] as const;
export type EmulatedFlinkVersion = (typeof EMULATED_FLINK_VERSIONS)[number];
/** The version of Flink whose behaviour and REST API the local engine follows unless told another. */
export const EMULATED_FLINK_VERSION: EmulatedFlinkVersion = '2.2.1';
export const ENGINE_REVISION = 'flink-ops-local-engine';
/** How many rescales a job's history keeps (Flink 2.3+, `WebOptions`); 0, the default, turns it off. */
export const RESCALE_HISTORY_SIZE = 'web.adaptive-scheduler.rescale-history.size';
/** Max parallelism of the built-in jobs (`env.setMaxParallelism(128)`, Flink's default lower bound). */
export const BUILT_IN_MAX_PARALLELISM = 128;

export interface LocalEngineOptions {
  /**
   * The Flink version the engine claims (`/config`, `/overview`) and whose REST shape it serves: 2.3.0 adds the job's
   * `application-id` and `schedulerType`, `jobType` and `schedulerType` on the jobs overview, and the TaskManagers'
   * `assignedTasks`. @default 2.2.1
   */
  flinkVersion?: EmulatedFlinkVersion;
  /**
   * A scenario of resources/scenarios by name, or the path of a scenario file of the same format, or one built in
   * memory (a rehearsal's twin); none = uniform traffic, no capacity limits.
   */
  scenario?: string | Scenario;
  /** `gatewaymeter-salted`: the salt buckets of stage A (a run's `--salt-buckets` overrides it). @default 8 */
  saltBuckets?: number;
  /**
   * Max parallelism (number of key groups) of the jobs, `pipeline.max-parallelism`. @default the scenario's
   * `pipeline.max-parallelism` configuration, else 128
   */
  maxParallelism?: number;
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
  /**
   * Folders a request may name for savepoints, sinks and checkpoints (`--allow-dir`), besides `checkpointDir`,
   * `sinkDir` and the configured savepoint and checkpoint folders; every other folder is refused.
   */
  allowDirs?: readonly string[];
  /**
   * Checkpoint storage folder: enables periodic checkpoints (every `checkpointIntervalMs`) written there, and
   * savepoints under `<dir>/savepoints`.
   */
  checkpointDir?: string;
  /** Flink's `web.upload.dir`: where uploaded jars are kept. @default a folder of its own under the temp dir */
  uploadDir?: string;
  /** `execution.checkpointing.interval` with a checkpoint folder. @default 10000 */
  checkpointIntervalMs?: number;
  /** `execution.checkpointing.num-retained`: completed checkpoints kept. @default 1 (Flink's default) */
  checkpointsRetained?: number;
  /**
   * The jobs' restart strategy (`restart-strategy.type`). @default exponential-delay with checkpoints, none without
   * (Flink 2.x)
   */
  restartStrategy?: RestartStrategyName;
  /** fixed-delay: restart attempts. @default 1 (Flink's default) */
  restartAttempts?: number;
  /** fixed-delay: delay between restarts in ms. @default 1000 */
  restartDelayMs?: number;
  /** A killed TaskManager comes back after this long (null: never). @default 10000 */
  taskManagerRestartDelayMs?: number | null;
  /** Extra cluster configuration (`config.yaml` entries: `restart-strategy.*`, `execution.checkpointing.*`, ...). */
  flinkConfiguration?: Record<string, string>;
  /**
   * Epoch ms where the virtual clock starts: the event-time origin of the generated traffic (and the time every
   * timestamp of the run counts from). The same seed, events and start time give the same sink output, byte for
   * byte, whatever the wall clock. @default the wall-clock time at start
   */
  startTime?: number;
  /** The virtual clock; defaults to one starting at `startTime`. */
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
  /**
   * Read the events from Kafka and write `tenant-cost` rows there too (`--kafka-brokers`): the jobs' source is the
   * topic instead of the generator (the traffic options then only shape `flink-ops produce`).
   */
  kafka?: LocalKafka;
  /** The build this engine is part of, reported as its `flink-revision` (GET /config). */
  build?: { version: string; builtAt: string | null };
}

/** One run of a built-in job: its program arguments plus the `/jars/:jarid/run` options. */
export interface BuiltInJobRun extends JobArguments {
  job: BuiltInJob;
  /** Restore from this savepoint or retained checkpoint (a folder or its `_metadata`, path or `file:` URI). */
  savepointPath?: string;
  /** Skip state of operators the job does not have. @default false */
  allowNonRestoredState?: boolean;
  /** Job-level Flink configuration (`flinkConfiguration` of the run request). */
  flinkConfiguration?: Record<string, string>;
  jobId?: string;
}

/** An invalid engine option: a message that names the option and the fix. */
export class LocalEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalEngineError';
  }
}

/**
 * A folder option: checked and created (see prepareTargetDirectory). Options from the command line may be relative
 * (to the working directory); folders named over REST (`--sink-dir` of a jar run, `flinkConfiguration`) may not,
 * and must lie under the engine's allowed folders.
 */
function checkFolder(dir: string, option: string, origin: 'command-line' | AllowedFolders): string {
  try {
    if (origin === 'command-line') return prepareTargetDirectory(dir, `${option} folder`, process.cwd());
    const target = resolveTargetPath(dir, `${option} folder`);
    origin.check(target, `${option} folder`);
    return prepareTargetDirectory(target, `${option} folder`);
  } catch (error) {
    if (!(error instanceof TargetDirectoryError)) throw error;
    throw new LocalEngineError(`Cannot use ${option} ${error.target}: ${error.reason}. Pass a folder the engine can read and write.`);
  }
}

/** The default savepoint folder is only checked here; the storage creates it when a savepoint is taken. */
function savepointFolder(dir: string, allowed: AllowedFolders): string {
  try {
    const target = resolveTargetPath(dir, 'execution.checkpointing.savepoint-dir');
    allowed.check(target, 'execution.checkpointing.savepoint-dir');
    return target;
  } catch (error) {
    if (error instanceof TargetDirectoryError) throw new LocalEngineError(error.message);
    throw error;
  }
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
  /** Where a request may have the engine write (see AllowedFolders). */
  readonly allowedFolders: AllowedFolders;
  readonly configuration: Array<{ key: string; value: string }>;
  readonly defaultParallelism: number;
  readonly generator: Omit<GeneratorConfig, 'seed'>;
  readonly jobName: BuiltInJob;
  /** Trigger-then-poll operations (savepoints, stop, checkpoints) of all jobs. */
  readonly operations: AsyncOperationRegistry;
  /** When the engine started (the built-in jars' upload time). */
  readonly startedAt: number;
  /** Jars uploaded through `POST /jars/upload` (Flink's `web.upload.dir`). */
  readonly uploadedJars: UploadedJars;
  /** `POST /savepoint-disposal` operations. */
  readonly disposals: SavepointDisposals;
  /** The process's CPU load, shared out over the TaskManagers' `Status.JVM.CPU.Load`. */
  readonly cpuLoad = new ProcessCpuLoad();
  /** The process's garbage collections (V8's), served as each process's `Status.JVM.GarbageCollector.*`. */
  readonly gc = processGc();
  /** The jobs' max parallelism unless a run sets `pipeline.max-parallelism`. */
  readonly maxParallelism: number;
  /** The Flink version it claims and whose REST shape it serves. */
  readonly flinkVersion: EmulatedFlinkVersion;

  constructor(readonly options: LocalEngineOptions = {}) {
    if (options.flinkVersion !== undefined && !(EMULATED_FLINK_VERSIONS as readonly string[]).includes(options.flinkVersion)) {
      throw new LocalEngineError(`The local engine cannot emulate Flink version "${String(options.flinkVersion)}": use ${EMULATED_FLINK_VERSIONS.join(', ')}.`);
    }
    this.flinkVersion = options.flinkVersion ?? EMULATED_FLINK_VERSION;
    positiveInt(options.parallelism, '--parallelism');
    positiveInt(options.events, '--events');
    positiveInt(options.taskManagers, 'taskManagers');
    positiveInt(options.checkpointsRetained, '--checkpoints-retained');
    if (options.checkpointIntervalMs !== undefined && !(options.checkpointIntervalMs > 0)) throw new LocalEngineError(`--checkpoint-interval must be positive, got ${options.checkpointIntervalMs}.`);
    positiveInt(options.slotsPerTaskManager, 'slotsPerTaskManager');
    if (options.rate !== undefined && !(options.rate > 0)) throw new LocalEngineError(`--rate must be a positive number of events per second, got ${options.rate}.`);
    if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new LocalEngineError(`--seed must be a whole number, got ${options.seed}.`);
    if (options.startTime !== undefined && !(Number.isSafeInteger(options.startTime) && options.startTime >= 0)) {
      throw new LocalEngineError(`--start-time must be epoch milliseconds (a whole number ≥ 0), got ${options.startTime}.`);
    }
    try {
      this.scenario = typeof options.scenario === 'string' ? resolveScenario(options.scenario) : options.scenario;
    } catch (error) {
      throw new LocalEngineError((error as Error).message);
    }
    const scenarioMaxParallelism = this.scenario?.configuration['pipeline.max-parallelism'];
    this.maxParallelism = options.maxParallelism ?? (scenarioMaxParallelism !== undefined ? Number(scenarioMaxParallelism) : BUILT_IN_MAX_PARALLELISM);
    if (!(Number.isInteger(this.maxParallelism) && this.maxParallelism >= 1 && this.maxParallelism <= 32768)) {
      throw new LocalEngineError(`--max-parallelism must be a whole number from 1 to 32768, got ${options.maxParallelism ?? scenarioMaxParallelism}.`);
    }
    this.seed = options.seed ?? 42;
    this.jobName = options.job ?? this.scenario?.job ?? 'gatewaymeter';
    this.defaultParallelism = options.parallelism ?? this.scenario?.parallelism ?? 4;
    const operatorParallelism = this.scenario?.operatorParallelism ?? {};
    for (const [uid, p] of [['default', this.defaultParallelism] as const, ...Object.entries(operatorParallelism)]) {
      try {
        checkParallelismAgainstMax(uid === 'default' ? '--parallelism' : uid, p, this.maxParallelism);
      } catch (error) {
        throw new LocalEngineError((error as Error).message);
      }
    }
    this.checkpointDir = options.checkpointDir !== undefined ? checkFolder(options.checkpointDir, '--checkpoint-dir', 'command-line') : undefined;
    this.sinkDir = options.sinkDir !== undefined ? checkFolder(options.sinkDir, '--sink-dir', 'command-line') : undefined;

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
    this.generator = { ...traffic, rate: options.rate ?? this.scenario?.logins?.traffic.rate ?? traffic.rate, events: options.events, throttle: !options.unthrottled };

    // The cluster: the scenario's or the course cluster (4 TaskManagers × 2 slots); it grows by whole TaskManagers
    // when the job needs more slots than that, as an active resource manager would start more.
    const slotsPerTm = options.slotsPerTaskManager ?? this.scenario?.cluster.slotsPerTaskManager ?? 2;
    const needed = Math.max(this.defaultParallelism, ...Object.values(operatorParallelism));
    const requestedTms = options.taskManagers ?? this.scenario?.cluster.taskManagers;
    const taskManagers = requestedTms ?? Math.max(4, Math.ceil(needed / slotsPerTm));
    const clock = options.clock ?? new ManualClock(options.startTime ?? Date.now());
    this.cluster = new LocalCluster({
      clock,
      taskManagers,
      slotsPerTaskManager: slotsPerTm,
      network,
      stepMs: options.stepMs,
      taskManagerRestartDelayMs: options.taskManagerRestartDelayMs,
    });
    this.startedAt = clock.now();
    this.operations = new AsyncOperationRegistry({ clock });
    this.uploadedJars = new UploadedJars(options.uploadDir);

    this.configuration = this.buildConfiguration(network, conf);
    this.clusterConfiguration = Object.fromEntries(this.configuration.map((e) => [e.key, e.value]));
    try {
      const configured = ['execution.checkpointing.dir', 'execution.checkpointing.savepoint-dir', 'state.savepoints.dir'].flatMap((key) => {
        const value = this.clusterConfiguration[key];
        return value === undefined ? [] : [resolveTargetPath(value, key)];
      });
      const allowed = (options.allowDirs ?? []).map((dir) => resolveTargetPath(dir, '--allow-dir folder', process.cwd()));
      this.allowedFolders = new AllowedFolders([this.checkpointDir, this.sinkDir, ...configured, ...allowed]);
      this.disposals = new SavepointDisposals(this.allowedFolders, () => this.now());
    } catch (error) {
      if (error instanceof TargetDirectoryError) throw new LocalEngineError(error.message);
      throw error;
    }
    try {
      resolveRestartStrategy(this.clusterConfiguration, {}, this.checkpointDir !== undefined);
      parseCheckpointingConfig(this.clusterConfiguration);
    } catch (error) {
      throw new LocalEngineError((error as Error).message);
    }
    this.submitBuiltInJob(this.jobName);
  }

  /** The cluster's Flink configuration as a map (`GET /jobmanager/config`). */
  readonly clusterConfiguration: Record<string, string>;

  /**
   * `flink-revision` of `GET /config`: Flink writes `<commit> @ <build date>`; the engine its name, the app's version
   * and the build's date (from `options.build`), or says it runs unbuilt sources.
   */
  get revision(): string {
    const build = this.options.build;
    if (!build) return `${ENGINE_REVISION} (version unknown)`;
    return build.builtAt ? `${ENGINE_REVISION} ${build.version} @ ${build.builtAt}` : `${ENGINE_REVISION} ${build.version} (not built: run from source)`;
  }

  /** Whether it claims `version` or a later Flink: what that version added is served then, and only then. */
  emulatesAtLeast(version: EmulatedFlinkVersion): boolean {
    return EMULATED_FLINK_VERSIONS.indexOf(this.flinkVersion) >= EMULATED_FLINK_VERSIONS.indexOf(version);
  }

  /** Starts a built-in job with the engine's traffic, capacity model and sinks. */
  submitBuiltInJob(name: BuiltInJob): JobExecution {
    return this.runBuiltInJob({ job: name });
  }

  /**
   * The job graph a run would start (`POST /jars/:jarid/plan`): the same arguments and checks as
   * {@link runBuiltInJob}, and nothing started. Throws {@link LocalEngineError} for bad arguments.
   */
  planBuiltInJob(run: BuiltInJobRun): JobGraph {
    const { logins, generator, parallelism, operatorParallelism, maxParallelism, saltBuckets } = this.runShape(run);
    try {
      return buildJobGraph(builtInJob(run.job, { parallelism, operatorParallelism, maxParallelism, saltBuckets, generator, logins, sink: new TenantCostSink(new ResultStore()) }));
    } catch (error) {
      throw new LocalEngineError((error as Error).message);
    }
  }

  /**
   * What a run's arguments make of the job: its scenario and traffic, the default parallelism (the run's, else the
   * scenario's or the engine's) and, as in Flink, the operators' own parallelism, which a job parallelism never
   * overrides; checked against the max parallelism.
   */
  private runShape(run: BuiltInJobRun) {
    const fail = (message: string): never => {
      throw new LocalEngineError(message);
    };
    let scenario = this.scenario;
    if (run.scenario !== undefined) {
      try {
        scenario = resolveScenario(run.scenario);
      } catch (error) {
        fail((error as Error).message);
      }
    }
    if (run.job === 'failed-logins' && !scenario?.logins) fail('The failed-logins job needs its login traffic: run it with a scenario that has a `logins` section (state-whale, state-no-ttl, state-raw-list, state-broadcast, state-ttl).');
    const seed = run.seed ?? this.seed;
    const traffic = run.scenario !== undefined ? scenario!.traffic : (this.scenario?.traffic ?? DEFAULT_TRAFFIC);
    const rate = run.rate ?? this.options.rate ?? scenario?.logins?.traffic.rate ?? traffic.rate;
    const events = run.events ?? this.options.events;
    const generator: GeneratorConfig = { ...traffic, rate, events, throttle: !this.options.unthrottled, seed };
    const parallelism = run.parallelism ?? (run.scenario !== undefined ? (scenario?.parallelism ?? this.defaultParallelism) : this.defaultParallelism);
    const operatorParallelism = scenario?.operatorParallelism;
    const jobConf: Record<string, string> = { ...configurationOf(run), ...run.flinkConfiguration };
    const conf = { ...this.clusterConfiguration, ...jobConf };
    const maxParallelismRaw = conf['pipeline.max-parallelism'];
    const maxParallelism = maxParallelismRaw !== undefined ? Number(maxParallelismRaw) : this.maxParallelism;
    if (!(Number.isInteger(maxParallelism) && maxParallelism >= 1 && maxParallelism <= 32768)) fail(`pipeline.max-parallelism must be a whole number from 1 to 32768, got "${maxParallelismRaw}".`);
    for (const [uid, p] of [['parallelism', parallelism] as const, ...Object.entries(operatorParallelism ?? {})]) {
      try {
        checkParallelismAgainstMax(uid === 'parallelism' ? '--parallelism' : uid, p, maxParallelism);
      } catch (error) {
        fail((error as Error).message);
      }
    }
    // The failed-logins job takes its traffic from the scenario's `logins`; a run's --rate overrides its logins/s.
    const logins = scenario?.logins && { ...scenario.logins, traffic: { ...scenario.logins.traffic, rate } };
    const saltBuckets = run.saltBuckets ?? this.options.saltBuckets;
    if (saltBuckets !== undefined && !(Number.isInteger(saltBuckets) && saltBuckets >= 2 && saltBuckets <= 1024)) fail(`--salt-buckets must be a whole number from 2 to 1024, got ${saltBuckets}.`);
    return { scenario, logins, seed, rate, events, generator, parallelism, operatorParallelism, maxParallelism, saltBuckets, jobConf, conf };
  }

  /**
   * Runs a built-in job: the engine's options, overridden by the run's program arguments; from a savepoint when
   * `savepointPath` is set (restored at the run's parallelism by key-group redistribution, operators matched by uid).
   * Throws {@link LocalEngineError} (bad arguments, not enough slots) or the restore's `CheckpointLoadError` /
   * `RestoreError` with Flink's messages; nothing is started then.
   */
  runBuiltInJob(run: BuiltInJobRun): JobExecution {
    const fail = (message: string): never => {
      throw new LocalEngineError(message);
    };
    const { scenario, logins, seed, rate, events, generator, parallelism, operatorParallelism, maxParallelism, saltBuckets, jobConf, conf } = this.runShape(run);
    const sinkDir = run.sinkDir !== undefined ? checkFolder(run.sinkDir, '--sink-dir', this.allowedFolders) : this.sinkDir;
    let checkpointing;
    let restartStrategy: RestartStrategyConfig;
    try {
      checkpointing = parseCheckpointingConfig(conf);
      restartStrategy = resolveRestartStrategy(jobConf, this.clusterConfiguration, checkpointing !== undefined);
    } catch (error) {
      if (error instanceof CheckpointConfigError || (error as Error).name === 'IllegalArgumentException') fail((error as Error).message);
      throw error;
    }
    const store = new ResultStore();
    const log = sinkDir !== undefined ? new NdjsonUpsertLog(sinkDir, run.job) : undefined;
    const kafka = this.options.kafka;
    const resultSink = new TenantCostSink(store, log);
    const graph = builtInJob(run.job, {
      parallelism,
      operatorParallelism,
      maxParallelism,
      saltBuckets,
      generator,
      logins,
      ...(kafka ? { source: kafka.source((message) => process.stderr.write(`Kafka source: ${message}\n`)) } : {}),
      sink: kafka ? new FanOutSink(resultSink, kafka.sink()) : resultSink,
    });
    let restore: PreparedRestore | undefined;
    if (run.savepointPath !== undefined) {
      let jobGraph;
      try {
        jobGraph = buildJobGraph(graph);
      } catch (error) {
        fail((error as Error).message);
      }
      restore = prepareRestore(run.savepointPath, jobGraph!, run.allowNonRestoredState ?? false);
    }
    const rescaleHistorySize = this.rescaleHistorySize(conf);
    const checkpointDir = conf['execution.checkpointing.dir'];
    const savepointDir = conf['execution.checkpointing.savepoint-dir'] ?? conf['state.savepoints.dir'];
    let job: JobExecution;
    try {
      job = this.cluster.submitJob(graph, {
        jobId: run.jobId,
        capacity: scenario?.capacity,
        measureCpu: this.options.measureCpu ?? false,
        jobParameters: {
          seed: String(seed),
          rate: String(rate),
          ...(events !== undefined && { events: String(events) }),
          ...(run.job === 'gatewaymeter-salted' && saltBuckets !== undefined && { 'salt-buckets': String(saltBuckets) }),
          ...(scenario && { scenario: scenario.name }),
          ...(sinkDir !== undefined && { 'sink-dir': sinkDir }),
          ...kafka?.jobParameters(),
        },
        checkpointing,
        checkpointStorage: {
          checkpointDirectory: checkpointDir !== undefined ? checkFolder(checkpointDir, 'execution.checkpointing.dir', this.allowedFolders) : undefined,
          savepointDirectory: savepointDir !== undefined ? savepointFolder(savepointDir, this.allowedFolders) : undefined,
          allowedFolders: this.allowedFolders,
          numRetained: checkpointing?.numRetained,
        },
        restartStrategy,
        random: mulberry32(deriveSeed(seed, `restart-backoff/${this.cluster.jobs.size}`)),
        restore,
        flinkConfiguration: jobConf,
        rescaleHistorySize,
      });
    } catch (error) {
      fail((error as Error).message);
    }
    this.results.set(job!.jobId, store);
    if (log) this.sinkFiles.set(job!.jobId, log.file);
    return job!;
  }

  /**
   * `web.adaptive-scheduler.rescale-history.size`: how many rescales a job's history keeps. Flink 2.3 added the
   * history, off by default (0); an engine claiming an older Flink keeps none, whatever the configuration says.
   */
  private rescaleHistorySize(conf: Record<string, string>): number {
    const raw = conf[RESCALE_HISTORY_SIZE];
    if (raw === undefined || !this.emulatesAtLeast('2.3.0')) return 0;
    const size = Number(raw.trim());
    if (!(raw.trim() !== '' && Number.isSafeInteger(size) && size >= 0)) {
      throw new LocalEngineError(`${RESCALE_HISTORY_SIZE} must be a whole number of rescales (0: no history), got "${raw}".`);
    }
    return size;
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
      'pipeline.max-parallelism': String(this.maxParallelism),
      'pipeline.auto-watermark-interval': '200 ms',
      'execution.buffer-timeout.interval': `${network.bufferTimeoutMs} ms`,
      'taskmanager.memory.segment-size': `${network.segmentSize / 1024}kb`,
      'taskmanager.network.memory.buffers-per-channel': String(network.buffersPerChannel),
      'taskmanager.network.memory.floating-buffers-per-gate': String(network.floatingBuffersPerGate),
      'taskmanager.network.memory.max-buffers-per-channel': String(network.maxBuffersPerChannel),
      'metrics.fetcher.update-interval': '10000',
      'web.refresh-interval': '3000',
      'state.backend.type': 'hashmap',
      'jobmanager.scheduler': 'adaptive',
      ...(this.checkpointDir && {
        'execution.checkpointing.interval': `${this.options.checkpointIntervalMs ?? 10_000} ms`,
        'execution.checkpointing.dir': `file://${this.checkpointDir}`,
        'execution.checkpointing.savepoint-dir': `file://${path.join(this.checkpointDir, 'savepoints')}`,
        'execution.checkpointing.num-retained': String(this.options.checkpointsRetained ?? 1),
      }),
      ...configurationOf({
        restartStrategy: this.options.restartStrategy,
        restartAttempts: this.options.restartAttempts,
        restartDelayMs: this.options.restartDelayMs,
      }),
      'local-engine.seed': String(this.seed),
      'local-engine.rate': String(this.generator.rate),
      ...(this.generator.events !== undefined && { 'local-engine.events': String(this.generator.events) }),
      ...(this.scenario && { 'local-engine.scenario': this.scenario.name }),
      ...(this.sinkDir && { 'local-engine.sink-dir': this.sinkDir }),
      ...scenarioConf,
      ...(this.options.maxParallelism !== undefined && { 'pipeline.max-parallelism': String(this.options.maxParallelism) }),
      ...this.options.flinkConfiguration,
    };
    return Object.entries(entries)
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }
}
