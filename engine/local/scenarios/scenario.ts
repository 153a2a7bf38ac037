import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../project-root.ts';
import { parse } from 'yaml';
import { z } from 'zod';
import type { GeneratorConfig, TrafficPhase } from '../gatewaymeter/generator.ts';
import { BUILT_IN_JOBS, type BuiltInJob } from '../gatewaymeter/pipelines.ts';
import type { CapacitySpec } from '../runtime/task.ts';
import type { FailedLoginsConfig } from '../logins/failed-logins-job.ts';
import { parseDurationMs } from './units.ts';

/** Where the seed scenarios live: `<repo>/resources/scenarios/<name>.yaml`. */
export const SCENARIO_DIR = path.join(PROJECT_ROOT, 'resources/scenarios');

const duration = z.union([z.number(), z.string()]);
const weights = z.record(z.string(), z.number().nonnegative());
const range = z.tuple([z.number().nonnegative(), z.number().nonnegative()]);

const ScenarioFile = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    job: z.enum(BUILT_IN_JOBS).default('gatewaymeter'),
    parallelism: z.number().int().positive().optional(),
    operatorParallelism: z.record(z.string(), z.number().int().positive()).default({}),
    cluster: z
      .object({ taskManagers: z.number().int().positive().optional(), slotsPerTaskManager: z.number().int().positive().optional() })
      .strict()
      .default({}),
    configuration: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    traffic: z
      .object({
        rate: z.number().positive(),
        tenants: weights,
        models: weights,
        maxOutOfOrderness: duration.optional(),
        lateFraction: z.number().min(0).max(1).optional(),
        lateDelay: z.tuple([duration, duration]).optional(),
        abandonFraction: z.number().min(0).max(1).optional(),
        orphanFraction: z.number().min(0).max(1).optional(),
        tokenEvents: range.optional(),
        toolCallProbability: z.number().min(0).max(1).optional(),
        agentStepProbability: z.number().min(0).max(1).optional(),
        modelErrorProbability: z.number().min(0).max(1).optional(),
        latency: z.tuple([duration, duration]).optional(),
        promptTokens: range.optional(),
        completionTokens: range.optional(),
        phases: z
          .array(
            z
              .object({ at: duration, share: z.record(z.string(), z.number().min(0).max(1)).optional(), tenants: weights.optional() })
              .strict(),
          )
          .default([]),
      })
      .strict()
      .optional(),
    logins: z
      .object({
        state: z.enum(['counter', 'raw-list']),
        ttl: duration.optional(),
        rate: z.number().positive(),
        users: z.union([z.number().int().positive(), z.literal('unbounded')]),
        failureRate: z.number().min(0).max(1),
        whale: z.object({ user: z.string().min(1), share: z.number().min(0).max(1), failureRate: z.number().min(0).max(1) }).strict().optional(),
        blocklist: z.object({ entries: z.number().int().positive(), rate: z.number().positive() }).strict().optional(),
      })
      .strict()
      .optional(),
    capacity: z
      .record(z.string(), z.object({ maxRecordsPerSecond: z.number().positive().optional(), costPerRecordMs: z.number().nonnegative().optional() }).strict())
      .default({}),
  })
  .strict();

/** A scenario ready to run: the job, its traffic and its capacity model. */
export interface Scenario {
  name: string;
  description: string;
  job: BuiltInJob;
  parallelism?: number;
  operatorParallelism: Record<string, number>;
  cluster: { taskManagers?: number; slotsPerTaskManager?: number };
  configuration: Record<string, string>;
  /** The generator settings except the seed and bounds, which come from the command line. */
  traffic: Omit<GeneratorConfig, 'seed' | 'events' | 'throttle'>;
  capacity: Record<string, CapacitySpec>;
  /** The `failed-logins` job's state variant and login traffic. */
  logins?: FailedLoginsConfig;
}

/** Names of the scenarios shipped in resources/scenarios. */
export function listScenarios(dir = SCENARIO_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** Parses and validates a scenario; errors name the field and the fix. */
export function parseScenario(text: string, source: string): Scenario {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new Error(`Scenario ${source} is not valid YAML: ${(error as Error).message}`);
  }
  const result = ScenarioFile.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length > 0 ? `\`${issue.path.join('.')}\`` : 'the file';
    throw new Error(`Scenario ${source}: ${where} ${issue.message.replace(/^Invalid input: /, '')}.`);
  }
  const s = result.data;
  if (s.job === 'failed-logins' && !s.logins) throw new Error(`Scenario ${source}: \`logins\` is required for the failed-logins job (its state variant and login traffic).`);
  if (s.job !== 'failed-logins' && s.logins) throw new Error(`Scenario ${source}: \`logins\` is for the failed-logins job only; set \`job: failed-logins\`.`);
  if (s.job !== 'failed-logins' && !s.traffic) throw new Error(`Scenario ${source}: \`traffic\` is required for the ${s.job} job.`);
  const t = s.traffic ?? { ...DEFAULT_TRAFFIC, phases: [] };
  const phases: TrafficPhase[] = t.phases.map((p, i) => {
    if (!p.share && !p.tenants) throw new Error(`Scenario ${source}: \`traffic.phases.${i}\` needs \`share\` or \`tenants\`.`);
    return { atMs: parseDurationMs(p.at, `Scenario ${source}: \`traffic.phases.${i}.at\``), share: p.share, tenants: p.tenants };
  });
  const traffic: Scenario['traffic'] = {
    rate: t.rate,
    tenants: t.tenants,
    models: t.models,
    phases,
    ...(t.maxOutOfOrderness !== undefined && { maxOutOfOrdernessMs: parseDurationMs(t.maxOutOfOrderness, 'traffic.maxOutOfOrderness') }),
    ...(t.lateFraction !== undefined && { lateFraction: t.lateFraction }),
    ...(t.lateDelay && { lateDelayMs: [parseDurationMs(t.lateDelay[0], 'traffic.lateDelay'), parseDurationMs(t.lateDelay[1], 'traffic.lateDelay')] as [number, number] }),
    ...(t.abandonFraction !== undefined && { abandonFraction: t.abandonFraction }),
    ...(t.orphanFraction !== undefined && { orphanFraction: t.orphanFraction }),
    ...(t.tokenEvents && { tokenEvents: t.tokenEvents }),
    ...(t.toolCallProbability !== undefined && { toolCallProbability: t.toolCallProbability }),
    ...(t.agentStepProbability !== undefined && { agentStepProbability: t.agentStepProbability }),
    ...(t.modelErrorProbability !== undefined && { modelErrorProbability: t.modelErrorProbability }),
    ...(t.latency && { latencyMs: [parseDurationMs(t.latency[0], 'traffic.latency'), parseDurationMs(t.latency[1], 'traffic.latency')] as [number, number] }),
    ...(t.promptTokens && { promptTokens: t.promptTokens }),
    ...(t.completionTokens && { completionTokens: t.completionTokens }),
  };
  return {
    name: s.name,
    description: s.description.trim(),
    job: s.job,
    parallelism: s.parallelism,
    operatorParallelism: s.operatorParallelism,
    cluster: s.cluster,
    configuration: Object.fromEntries(Object.entries(s.configuration).map(([k, v]) => [k, String(v)])),
    traffic,
    capacity: s.capacity,
    ...(s.logins && { logins: loginsConfig(s.logins, source) }),
  };
}

function loginsConfig(raw: NonNullable<z.infer<typeof ScenarioFile>['logins']>, source: string): FailedLoginsConfig {
  const { state, ttl, ...traffic } = raw;
  return { state, ...(ttl !== undefined && { ttlMs: parseDurationMs(ttl, `Scenario ${source}: \`logins.ttl\``) }), traffic };
}

/** Loads `resources/scenarios/<name>.yaml`; an unknown name lists the ones that exist. */
export function loadScenario(name: string, dir = SCENARIO_DIR): Scenario {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`Unknown scenario "${name}": names are lower-case words joined by dashes.`);
  const file = path.join(dir, `${name}.yaml`);
  if (!existsSync(file)) {
    const known = listScenarios(dir);
    throw new Error(`Unknown scenario "${name}". Known scenarios: ${known.length > 0 ? known.join(', ') : '(none)'}.`);
  }
  const scenario = parseScenario(readFileSync(file, 'utf8'), `${name}.yaml`);
  if (scenario.name !== name) throw new Error(`Scenario file ${name}.yaml declares name "${scenario.name}"; they must match.`);
  return scenario;
}

/** A scenario given as a file rather than a name: a value with a path separator or a `.yaml` / `.yml` ending. */
export function isScenarioFile(nameOrPath: string): boolean {
  return /[\\/]/.test(nameOrPath) || /\.ya?ml$/i.test(nameOrPath);
}

/**
 * Loads a scenario by name (`resources/scenarios/<name>.yaml`) or from a file of the same format (see
 * `isScenarioFile`), so operators can rehearse their own traffic mix.
 */
export function resolveScenario(nameOrPath: string, dir = SCENARIO_DIR): Scenario {
  if (!isScenarioFile(nameOrPath)) return loadScenario(nameOrPath, dir);
  const file = path.resolve(nameOrPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`Cannot read the scenario file ${file}${code ? ` (${code})` : ''}: pass a scenario name (${listScenarios(dir).join(', ') || 'none installed'}) or the path of a YAML file in their format.`);
  }
  return parseScenario(text, path.basename(file));
}

/** The traffic with no scenario: a uniform mix of tenants and models, no capacity limits. */
export const DEFAULT_TRAFFIC: Scenario['traffic'] = {
  rate: 2000,
  tenants: { acme: 1, globex: 1, initech: 1, umbrella: 1, hooli: 1, stark: 1, wonka: 1, tyrell: 1 },
  models: { 'model-a': 1, 'model-b': 1 },
};
