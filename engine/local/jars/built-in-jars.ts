import { BUILT_IN_JOBS, type BuiltInJob } from '../gatewaymeter/pipelines.ts';
import { parseDurationMs } from '../scenarios/units.ts';

/**
 * The built-in jobs as Flink "jars" (`GET /jars`, `POST /jars/:jarid/run`): one jar per job, with the CLI's job
 * options as program arguments, so a run from a savepoint continues the same deterministic stream.
 */

export interface BuiltInJar {
  /** The jar ID (Flink: the uploaded file name, `<uuid>_<name>.jar`). */
  id: string;
  name: string;
  job: BuiltInJob;
  /** The main class, as Flink lists a jar's entry points. */
  entryClass: string;
}

const ENTRY_CLASSES: Record<BuiltInJob, string> = { gatewaymeter: 'GatewayMeterJob', 'gatewaymeter-salted': 'GatewayMeterSaltedJob', 'failed-logins': 'FailedLoginsJob' };

export const BUILT_IN_JARS: readonly BuiltInJar[] = BUILT_IN_JOBS.map((job) => ({
  id: `local-engine_${job}.jar`,
  name: `${job}.jar`,
  job,
  entryClass: `org.flinkops.local.${ENTRY_CLASSES[job]}`,
}));

export type RestartStrategyName = 'none' | 'fixed-delay' | 'exponential-delay';

/** What the program arguments of a built-in jar (and the `flink-ops engine` flags) set for one job. */
export interface JobArguments {
  scenario?: string;
  seed?: number;
  events?: number;
  rate?: number;
  sinkDir?: string;
  parallelism?: number;
  maxParallelism?: number;
  restartStrategy?: RestartStrategyName;
  /** fixed-delay: `restart-strategy.fixed-delay.attempts`. */
  restartAttempts?: number;
  /** fixed-delay: `restart-strategy.fixed-delay.delay` in ms. */
  restartDelayMs?: number;
  /** `execution.checkpointing.interval` in ms. */
  checkpointIntervalMs?: number;
  /** `gatewaymeter-salted`: the salt buckets of stage A. @default 8 */
  saltBuckets?: number;
}

/** A program argument the job does not accept: the message names it and lists what is accepted. */
export class ProgramArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'org.apache.flink.client.program.ProgramInvocationException';
  }
}

const FLAGS: Record<string, { key: keyof JobArguments; parse: (raw: string, flag: string) => JobArguments[keyof JobArguments] }> = {
  '--scenario': { key: 'scenario', parse: (v) => v },
  '--seed': { key: 'seed', parse: (v, f) => wholeNumber(v, f, -2147483648, 2147483647) },
  '--events': { key: 'events', parse: (v, f) => wholeNumber(v, f, 1) },
  '--rate': { key: 'rate', parse: (v, f) => positive(v, f) },
  '--sink-dir': { key: 'sinkDir', parse: (v) => v },
  '--parallelism': { key: 'parallelism', parse: (v, f) => wholeNumber(v, f, 1) },
  '--max-parallelism': { key: 'maxParallelism', parse: (v, f) => wholeNumber(v, f, 1, 32768) },
  '--restart-strategy': { key: 'restartStrategy', parse: (v, f) => restartStrategy(v, f) },
  '--restart-attempts': { key: 'restartAttempts', parse: (v, f) => wholeNumber(v, f, 0) },
  '--restart-delay': { key: 'restartDelayMs', parse: (v, f) => duration(v, f) },
  '--checkpoint-interval': { key: 'checkpointIntervalMs', parse: (v, f) => duration(v, f) },
  '--salt-buckets': { key: 'saltBuckets', parse: (v, f) => wholeNumber(v, f, 2, 1024) },
};

export const ACCEPTED_PROGRAM_ARGUMENTS = Object.keys(FLAGS);

function wholeNumber(raw: string, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max) throw new ProgramArgumentError(`${flag} must be a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` >= ${min}`}, got "${raw}".`);
  return n;
}

function positive(raw: string, flag: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !(n > 0) || !Number.isFinite(n)) throw new ProgramArgumentError(`${flag} must be a positive number, got "${raw}".`);
  return n;
}

function duration(raw: string, flag: string): number {
  try {
    return parseDurationMs(raw, flag);
  } catch (error) {
    throw new ProgramArgumentError((error as Error).message);
  }
}

function restartStrategy(raw: string, flag: string): RestartStrategyName {
  const v = raw.trim().toLowerCase();
  if (v === 'none' || v === 'fixed-delay' || v === 'exponential-delay') return v;
  throw new ProgramArgumentError(`${flag} must be none, fixed-delay or exponential-delay, got "${raw}".`);
}

/** Parses `--flag value` / `--flag=value` program arguments; unknown flags and missing values are errors. */
export function parseJobArguments(args: readonly string[]): JobArguments {
  const out: JobArguments = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[flag];
    if (!spec) throw new ProgramArgumentError(`Unknown program argument "${arg}". The built-in jobs accept ${ACCEPTED_PROGRAM_ARGUMENTS.join(', ')}.`);
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= args.length) throw new ProgramArgumentError(`Program argument ${flag} needs a value.`);
      value = args[++i];
    }
    (out as Record<string, unknown>)[spec.key] = spec.parse(value, flag);
  }
  return out;
}

/** Flink's deprecated `programArgs` string: arguments split on white space, single or double quotes kept together. */
export function splitProgramArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The Flink configuration entries a job's arguments set (restart strategy, checkpoint interval). */
export function configurationOf(args: JobArguments): Record<string, string> {
  const conf: Record<string, string> = {};
  if (args.restartStrategy) conf['restart-strategy.type'] = args.restartStrategy;
  if (args.restartAttempts !== undefined) conf['restart-strategy.fixed-delay.attempts'] = String(args.restartAttempts);
  if (args.restartDelayMs !== undefined) conf['restart-strategy.fixed-delay.delay'] = `${args.restartDelayMs} ms`;
  if (args.checkpointIntervalMs !== undefined) conf['execution.checkpointing.interval'] = `${args.checkpointIntervalMs} ms`;
  if (args.maxParallelism !== undefined) conf['pipeline.max-parallelism'] = String(args.maxParallelism);
  return conf;
}
