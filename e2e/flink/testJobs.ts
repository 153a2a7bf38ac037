import type { FlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';

/**
 * Jobs of the test jar that the operations tests start for themselves (the cluster's own test job stays untouched for
 * the other suites): a light GatewayMeter run, no back-pressure, at the given parallelism.
 */

export const JOB_CLASS = 'dev.flinkops.testjob.GatewayMeterJob';
/** 200 events/s and 200 µs per record in `throttle`: no back-pressure, so savepoints complete in about a second. */
export const LIGHT_ARGS = ['--rate', '200', '--work-us', '200'];

export async function runTestJob(cluster: FlinkCluster, parallelism: number, extra: { savepointPath?: string; programArgs?: string[]; entryClass?: string } = {}): Promise<string> {
  const { programArgs = LIGHT_ARGS, entryClass = JOB_CLASS, ...rest } = extra;
  if (!cluster.jarId) throw new Error('cluster.json has no jarId: run `npm run flink:up` again.');
  const response = await fetch(`${cluster.restUrl}/jars/${cluster.jarId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entryClass, programArgsList: programArgs, parallelism, ...rest }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await response.json()) as { jobid?: string; errors?: string[] };
  if (!body.jobid) throw new Error(`POST /jars/${cluster.jarId}/run answered ${response.status}: ${body.errors?.[0]?.split('\n')[0]}`);
  await waitRunning(cluster, body.jobid);
  return body.jobid;
}

export interface JobDetails {
  state: string;
  vertices: Array<{ id: string; name: string; parallelism: number; status: string }>;
}

export async function jobDetails(cluster: FlinkCluster, jobId: string): Promise<JobDetails> {
  const response = await fetch(`${cluster.restUrl}/jobs/${jobId}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET /jobs/${jobId} answered ${response.status}`);
  return (await response.json()) as JobDetails;
}

export async function waitRunning(cluster: FlinkCluster, jobId: string, parallelism?: number): Promise<JobDetails> {
  return eventually(
    async () => {
      const d = await jobDetails(cluster, jobId);
      if (d.state === 'FAILED') throw new Error(`job ${jobId} FAILED`);
      const ready = d.state === 'RUNNING' && d.vertices.every((v) => v.status === 'RUNNING' && (parallelism === undefined || v.parallelism === parallelism));
      return ready ? d : undefined;
    },
    `job ${jobId} RUNNING${parallelism ? ` at parallelism ${parallelism}` : ''}`,
    180_000,
  );
}

/** `GET /jobs/:id` lags `GET /jobs/:id/status` by Flink's execution-graph cache (~3 s): wait for the state there. */
export async function waitState(cluster: FlinkCluster, jobId: string, state: string): Promise<void> {
  await eventually(async () => ((await jobDetails(cluster, jobId)).state === state ? true : undefined), `job ${jobId} ${state} in GET /jobs/:id`, 60_000);
}

/** Cancels, without waiting; for clean-up. */
export async function cancelQuietly(cluster: FlinkCluster, jobId: string): Promise<void> {
  await fetch(`${cluster.restUrl}/jobs/${jobId}?mode=cancel`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
}

/**
 * Where Flink routed each tenant: the `tenantsSeen` gauge of each subtask of the job's `throttle` vertex. Only when
 * every subtask reports, no tenant shows on two subtasks and the answer is the same over two metric refreshes (the
 * JobManager's metric store can still hold a value of the run before a rescale); undefined until then.
 */
export async function tenantsBySubtask(cluster: FlinkCluster, jobId: string): Promise<Map<string, number> | undefined> {
  const read = async (): Promise<Map<string, number> | undefined> => {
    const details = await jobDetails(cluster, jobId);
    const throttle = details.vertices.find((v) => v.name === 'throttle');
    if (!throttle) throw new Error(`job ${jobId} has no vertex named throttle: ${details.vertices.map((v) => v.name).join(', ')}`);
    const base = `${cluster.restUrl}/jobs/${jobId}/vertices/${throttle.id}/metrics`;
    const ids = Array.from({ length: throttle.parallelism }, (_, k) => `${k}.throttle.tenantsSeen`);
    const values = (await (await fetch(`${base}?get=${ids.join(',')}`)).json()) as Array<{ id: string; value: string }>;
    if (values.length !== throttle.parallelism) return undefined;
    const out = new Map<string, number>();
    for (const { id, value } of values) {
      const subtask = Number(id.split('.')[0]);
      for (const tenant of value.split(',').filter((t) => t !== '')) {
        if (out.has(tenant) && out.get(tenant) !== subtask) return undefined; // a stale value of the run before
        out.set(tenant, subtask);
      }
    }
    return TENANTS.every((t) => out.has(t)) ? out : undefined;
  };
  const first = await read();
  if (!first) return undefined;
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const second = await read();
  return second && TENANTS.every((t) => first.get(t) === second.get(t)) ? second : undefined;
}

export const TENANTS = ['acme', 'globex', 'umbrella', 'hooli', 'stark', 'wonka', 'initech', 'tyrell', 'soylent', 'massive', 'pied-piper'];
