import type { Command } from 'commander';
import { ENGINE_TOKEN_ENV } from '../app/local-engine-process.ts';
import { readBuildIdentity } from '../app/build-identity.ts';
import { CliError, EXIT } from './cli-error.ts';
import { EMULATED_FLINK_VERSION, EMULATED_FLINK_VERSIONS, LocalEngineError, type EmulatedFlinkVersion } from '../local/engine.ts';
import { BUILT_IN_JOBS, type BuiltInJob } from '../local/gatewaymeter/pipelines.ts';
import { listScenarios } from '../local/scenarios/scenario.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import type { LocalKafka } from '../local/kafka/local-kafka.ts';
import { kafkaConnectionFrom, withKafkaConnection } from './kafka-options.ts';
import { printable } from './terminal-text.ts';

function integer(option: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
      throw new CliError(EXIT.badArguments, `${option} must be a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` ≥ ${min}`}, got "${raw}".`);
    }
    return value;
  };
}

function positiveNumber(option: string) {
  return (raw: string): number => {
    const value = Number(raw);
    if (raw.trim() === '' || !(value > 0) || !Number.isFinite(value)) throw new CliError(EXIT.badArguments, `${option} must be a positive number, got "${raw}".`);
    return value;
  };
}

interface EngineCommandOptions {
  port: number;
  flinkVersion?: string;
  scenario?: string;
  maxParallelism?: number;
  job?: string;
  parallelism?: number;
  checkpointDir?: string;
  seed?: number;
  events?: number;
  rate?: number;
  sinkDir?: string;
  allowDir?: string[];
  startTime?: number;
  checkpointInterval?: number;
  checkpointsRetained?: number;
  restartStrategy?: string;
  restartAttempts?: number;
  restartDelay?: number;
  token?: string;
  kafkaBrokers?: string;
  kafkaTls?: boolean;
  kafkaCaFile?: string;
  kafkaSaslMechanism?: string;
  kafkaSaslUser?: string;
  kafkaClientId?: string;
  topic?: string;
  sinkTopic?: string;
  groupId?: string;
  kafkaBounded?: boolean;
}

const RESTART_STRATEGIES = ['none', 'fixed-delay', 'exponential-delay'] as const;

/**
 * `flink-ops engine`: runs the local engine in the foreground. Prints `Local engine: http://127.0.0.1:<port>` once
 * it serves Flink's REST API; Ctrl-C (or SIGTERM) stops it cleanly.
 */
export function registerEngineCommand(program: Command): void {
  const command = program
    .command('engine')
    .description(
      'Run the local engine: a Flink-like runtime with the GatewayMeter job, serving Flink\'s REST API on 127.0.0.1. ' +
        'Without --scenario: a uniform traffic mix and no capacity limits.',
    )
    .option('--port <port>', 'REST port on 127.0.0.1 (0: any free port)', integer('--port', 0, 65535), 8081)
    .option('--flink-version <v>', `the Flink version to claim and whose REST shape to serve (${EMULATED_FLINK_VERSIONS.join(', ')}; default ${EMULATED_FLINK_VERSION})`)
    .option('--scenario <name|file>', `traffic and capacity scenario: a name (${listScenarios().join(', ') || 'none installed'}) or the path of a YAML file in their format`)
    .option('--job <name>', `built-in job to run (${BUILT_IN_JOBS.join(', ')})`)
    .option('--parallelism <n>', 'default parallelism of the job (at most the max parallelism)', integer('--parallelism', 1))
    .option('--max-parallelism <n>', 'max parallelism (key groups) of the job (default 128)', integer('--max-parallelism', 1, 32768))
    .option('--checkpoint-dir <dir>', 'checkpoint storage folder')
    .option('--seed <s>', 'seed of the generated traffic (same seed, same events)', integer('--seed', -2147483648, 2147483647))
    .option('--events <n>', 'bounded source: stop after N events; the job finishes once all windows have fired', integer('--events', 1))
    .option('--rate <r>', 'events per second', positiveNumber('--rate'))
    .option('--sink-dir <dir>', 'write results as NDJSON upsert logs (one file per job) into this folder')
    .option(
      '--allow-dir <dir>',
      'a folder requests may name for savepoints, sinks and checkpoints (repeatable); besides it only --checkpoint-dir, --sink-dir and the configured savepoint and checkpoint folders',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--start-time <epoch-ms>', 'event-time origin of the generated traffic: same seed, events and start time, same sink output (default: now)', integer('--start-time', 0))
    .option('--checkpoint-interval <ms>', 'checkpoint interval with --checkpoint-dir (default 10000)', integer('--checkpoint-interval', 1))
    .option('--checkpoints-retained <n>', 'completed checkpoints kept (default 1)', integer('--checkpoints-retained', 1))
    .option('--restart-strategy <name>', `what a failure does: ${RESTART_STRATEGIES.join(', ')} (default: exponential-delay with checkpoints, none without, as Flink 2.x)`)
    .option('--restart-attempts <n>', 'fixed-delay: restarts before the job fails (default 1)', integer('--restart-attempts', 0))
    .option('--restart-delay <ms>', 'fixed-delay: wait between restarts (default 1000)', integer('--restart-delay', 0))
    .option('--token <token>', `require "Authorization: Bearer <token>" on every request (or set ${ENGINE_TOKEN_ENV})`);
  withKafkaConnection(command, { required: false, prefix: 'kafka-' })
    .option('--topic <name>', 'with --kafka-brokers: the events topic (default gateway-events, created with 8 partitions when missing)')
    .option('--sink-topic <name>', 'with --kafka-brokers: the tenant-cost topic (default tenant-cost)')
    .option('--group-id <id>', 'with --kafka-brokers: the consumer group offsets are committed under on checkpoints (default gatewaymeter)')
    .option('--kafka-bounded', 'with --kafka-brokers: read up to the log end at the start, then finish')
    .action(async (options: EngineCommandOptions) => {
      const fromEnvironment = options.token === undefined && process.env[ENGINE_TOKEN_ENV] !== undefined;
      const token = options.token ?? process.env[ENGINE_TOKEN_ENV];
      if (options.restartStrategy !== undefined && !(RESTART_STRATEGIES as readonly string[]).includes(options.restartStrategy)) {
        throw new CliError(EXIT.badArguments, `Unknown --restart-strategy "${options.restartStrategy}": use ${RESTART_STRATEGIES.join(', ')}.`);
      }
      if (options.job !== undefined && !(BUILT_IN_JOBS as readonly string[]).includes(options.job)) {
        throw new CliError(EXIT.badArguments, `Unknown job "${options.job}": use ${BUILT_IN_JOBS.join(' or ')}.`);
      }
      const kafka = await connectKafka(options);
      let handle: LocalEngineHandle;
      try {
        handle = await startLocalEngine({
          kafka,
          port: options.port,
          flinkVersion: options.flinkVersion as EmulatedFlinkVersion | undefined,
          scenario: options.scenario,
          maxParallelism: options.maxParallelism,
          job: options.job as BuiltInJob | undefined,
          parallelism: options.parallelism,
          checkpointDir: options.checkpointDir,
          allowDirs: options.allowDir,
          seed: options.seed,
          events: options.events,
          rate: options.rate,
          sinkDir: options.sinkDir,
          startTime: options.startTime,
          checkpointIntervalMs: options.checkpointInterval,
          checkpointsRetained: options.checkpointsRetained,
          restartStrategy: options.restartStrategy as (typeof RESTART_STRATEGIES)[number] | undefined,
          restartAttempts: options.restartAttempts,
          restartDelayMs: options.restartDelay,
          token,
          build: readBuildIdentity(),
        });
      } catch (error) {
        await kafka?.close();
        if (error instanceof LocalEngineError) throw new CliError(EXIT.badArguments, error.message);
        throw new CliError(EXIT.failure, (error as Error).message);
      }
      process.stdout.write(`Local engine: ${handle.url}\n`);
      if (token !== undefined) {
        const shown = fromEnvironment ? `$${ENGINE_TOKEN_ENV}` : token;
        process.stdout.write(
          `Every request needs the header "Authorization: Bearer <token>", e.g. curl -H "Authorization: Bearer ${shown}" ${handle.url}/overview; ` +
            `the console: add the cluster with bearer authentication; the CLI: FLINK_OPS_TOKEN=<token> flink-ops jobs --url ${handle.url}\n`,
        );
      }
      await runUntilStopped(handle);
    });
}

/** With --kafka-brokers: the brokers checked and the topics there, before the engine starts. */
async function connectKafka(options: EngineCommandOptions): Promise<LocalKafka | undefined> {
  const kafkaOnly = [options.topic && '--topic', options.sinkTopic && '--sink-topic', options.groupId && '--group-id', options.kafkaBounded && '--kafka-bounded', options.kafkaTls && '--kafka-tls', options.kafkaCaFile && '--kafka-ca-file', options.kafkaSaslMechanism && '--kafka-sasl-mechanism'].filter(Boolean);
  if (options.kafkaBrokers === undefined) {
    if (kafkaOnly.length > 0) throw new CliError(EXIT.badArguments, `${kafkaOnly[0]} needs --kafka-brokers.`);
    return undefined;
  }
  const connection = kafkaConnectionFrom({
    brokers: options.kafkaBrokers,
    tls: options.kafkaTls,
    caFile: options.kafkaCaFile,
    saslMechanism: options.kafkaSaslMechanism,
    saslUser: options.kafkaSaslUser,
    clientId: options.kafkaClientId,
    timeout: '10000',
  });
  const { LocalKafka } = await import('../local/kafka/local-kafka.ts');
  return LocalKafka.connect({
    ...connection,
    topic: options.topic,
    sinkTopic: options.sinkTopic,
    groupId: options.groupId,
    bounded: options.kafkaBounded,
    log: (line) => process.stdout.write(`${printable(line)}\n`),
  });
}

/** Waits for Ctrl-C / SIGTERM, reporting jobs as they reach a terminal state, then stops the engine. */
async function runUntilStopped(handle: LocalEngineHandle): Promise<void> {
  const reported = new Set<string>();
  const watch = setInterval(() => {
    for (const job of handle.engine.cluster.jobs.values()) {
      if (job.isTerminal && !reported.has(job.jobId)) {
        reported.add(job.jobId);
        process.stdout.write(`${printable(`Job ${job.name} (${job.jobId}) ${job.status}`)}\n`);
      }
    }
  }, 500);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // Started by the app (FLINK_OPS_EXIT_WITH_PARENT): its end of the stdin pipe closes when it dies, even by
    // SIGKILL, so the engine never outlives the console that owns it.
    if (process.env.FLINK_OPS_EXIT_WITH_PARENT === '1') {
      process.stdin.on('end', stop).on('error', stop).resume();
    }
  });
  clearInterval(watch);
  await handle.close();
  process.stdout.write('Local engine stopped.\n');
}
