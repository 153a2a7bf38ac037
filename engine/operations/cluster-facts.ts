import type { JarProgram, OperationsContext } from '../contracts/operations.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';

/**
 * What the cluster says that decides how a job can be operated: its state and vertices, the savepoint folder, the
 * scheduler, the slots, the jars. Read once per form or operation (a handful of requests), then reasoned on purely.
 */

type JobDetails = ResponseOf<typeof endpoints.jobDetails>;
type Jars = ResponseOf<typeof operationEndpoints.jars>;

export interface ClusterFacts {
  details: JobDetails;
  /** The configuration the JobManager runs the job with (the job's own where the cluster serves it). */
  configuration: Map<string, string>;
  flinkVersion: string;
  webSubmit: boolean | null;
  slots: { total: number; available: number };
  /** null when `GET /jars` is not served (application mode, the Kubernetes operator, a proxy that hides it). */
  jars: Jars['files'] | null;
  userConfig: Record<string, unknown>;
  jobParallelism: number | null;
}

/** The savepoint folder keys, newest first: Flink 2.x (and 1.20) `execution.checkpointing.savepoint-dir`, 1.x `state.savepoints.dir`. */
export const SAVEPOINT_DIR_KEYS = ['execution.checkpointing.savepoint-dir', 'state.savepoints.dir'] as const;

async function optional<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof EngineError && (error.info.status === 404 || error.info.status === 403 || error.info.status === 405)) return null;
    throw error;
  }
}

/** Reads the facts; only the job details are essential (a 404 there means the job is unknown). */
export async function readClusterFacts(client: FlinkRestClient, jobId: string): Promise<ClusterFacts> {
  const details = await client.request(endpoints.jobDetails, { jobid: jobId });
  const [jobConfiguration, clusterConfiguration, dashboard, overview, jars, jobConfig] = await Promise.all([
    optional(client.request(operationEndpoints.jobManagerConfigOfJob, { jobid: jobId })),
    optional(client.request(endpoints.jobManagerConfig)),
    optional(client.request(operationEndpoints.dashboardFeatures)),
    client.request(endpoints.overview),
    optional(client.request(operationEndpoints.jars)),
    optional(client.request(operationEndpoints.jobConfig, { jobid: jobId })),
  ]);
  const configuration = new Map<string, string>();
  for (const entry of [...(clusterConfiguration ?? []), ...(jobConfiguration ?? [])]) configuration.set(entry.key, entry.value);
  const execution = jobConfig?.['execution-config'] ?? jobConfig?.executionConfigInfo;
  return {
    details,
    configuration,
    flinkVersion: dashboard?.['flink-version'] ?? overview['flink-version'] ?? 'unknown',
    webSubmit: dashboard?.features?.['web-submit'] ?? null,
    slots: { total: overview['slots-total'], available: overview['slots-available'] },
    jars: jars?.files ?? null,
    userConfig: execution?.['user-config'] ?? {},
    jobParallelism: execution?.['job-parallelism'] && execution['job-parallelism'] > 0 ? execution['job-parallelism'] : null,
  };
}

export function savepointDirectory(facts: Pick<ClusterFacts, 'configuration'>): { value: string; key: string } | null {
  for (const key of SAVEPOINT_DIR_KEYS) {
    const value = facts.configuration.get(key)?.trim();
    if (value) return { value, key };
  }
  return null;
}

/** The adaptive scheduler (`jobmanager.scheduler: adaptive`, or reactive mode) rescales through resource requirements. */
export function schedulerOf(facts: Pick<ClusterFacts, 'configuration'>): OperationsContext['scheduler'] {
  const scheduler = facts.configuration.get('jobmanager.scheduler')?.trim().toLowerCase();
  const mode = facts.configuration.get('scheduler-mode')?.trim().toLowerCase();
  if (mode === 'reactive') return { kind: 'adaptive', reason: 'The JobManager runs in reactive mode (scheduler-mode: reactive), on the adaptive scheduler.' };
  if (scheduler === 'adaptive') return { kind: 'adaptive', reason: 'The JobManager runs the adaptive scheduler (jobmanager.scheduler: adaptive): a rescale changes the resource requirements, without a savepoint.' };
  return {
    kind: 'default',
    reason: `The JobManager runs the ${scheduler ?? 'default'} scheduler (jobmanager.scheduler ${scheduler ? `is ${scheduler}` : 'is not set'}): a rescale goes through a savepoint, a stop and a resubmit.`,
  };
}

/** Vertices fed by a keyBy (an input edge with ship strategy HASH): their subtasks own key groups. */
export function keyedVertexIds(details: JobDetails): Set<string> {
  const keyed = new Set<string>();
  for (const node of details.plan?.nodes ?? []) {
    if ((node.inputs ?? []).some((input) => input.ship_strategy?.toUpperCase() === 'HASH')) keyed.add(node.id);
  }
  return keyed;
}

/** Slots the job holds: with one slot-sharing group, its highest vertex parallelism. */
export function slotsUsedByJob(details: JobDetails): number {
  const running = !isEndedJobState(details.state);
  return running ? Math.max(0, ...details.vertices.map((v) => v.parallelism)) : 0;
}

/** Why a job cannot be run again from a jar here, and what to do instead; null when it can. */
export function jarSubmissionUnavailable(facts: Pick<ClusterFacts, 'webSubmit' | 'jars'>): string | null {
  const elsewhere =
    'Run it again from the savepoint the way it was deployed: on Kubernetes, set the FlinkDeployment\'s job.initialSavepointPath (or use upgradeMode: savepoint) ' +
    'and apply it; in application mode, start the application with the savepoint path (flink run-application -s <path>); otherwise `flink run -s <path> <jar>`.';
  if (facts.webSubmit === false || facts.jars === null) {
    return `This cluster does not accept jar submissions over REST (web.submit.enable is off, as in application mode and under the Kubernetes operator). ${elsewhere}`;
  }
  if (facts.jars.length === 0) return `No jar is uploaded to this cluster, so the console cannot run the job again. Upload its jar (Web UI → Submit New Job), or: ${elsewhere}`;
  return null;
}

/**
 * The program that most likely runs this job, for the resubmit form to show (the user checks it): what the journal
 * knows (the console submitted it), else the jar named after the job, else the only jar. Arguments: the journal's,
 * else the job's global parameters as `--key value` (jobs built with ParameterTool keep their arguments there).
 */
export function guessProgram(facts: Pick<ClusterFacts, 'details' | 'jars' | 'userConfig'>, fromJournal: JarProgram | null): { program: JarProgram | null; source: string } {
  if (fromJournal) return { program: fromJournal, source: 'the program the console last submitted this job with' };
  const jars = facts.jars ?? [];
  const name = facts.details.name.toLowerCase();
  const jar = jars.find((j) => j.name.toLowerCase().replace(/\.jar$/, '') === name) ?? jars.find((j) => name.includes(j.name.toLowerCase().replace(/\.jar$/, ''))) ?? (jars.length === 1 ? jars[0] : undefined);
  if (!jar) {
    return {
      program: null,
      source:
        "no uploaded jar is named after the job: pick the one that runs it. If it was not started from an uploaded jar, run it again the way it was deployed (on Kubernetes, the FlinkDeployment's job.initialSavepointPath)",
    };
  }
  const args = Object.entries(facts.userConfig)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .flatMap(([k, v]) => [`--${k}`, String(v)]);
  const entryClasses = (jar.entry ?? []).map((e) => e.name);
  return {
    program: { jarId: jar.id, ...(entryClasses.length === 1 ? { entryClass: entryClasses[0] } : {}), programArgs: args },
    source: `jar ${jar.name}${args.length ? ', arguments from the job\'s global parameters' : ''}: check them`,
  };
}
