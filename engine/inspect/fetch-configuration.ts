import type { ConfigurationView } from '../contracts/inspect.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { viewEndpoints } from '../flink-rest/view-endpoints.ts';
import { orWhenMissing } from '../sampling/vertex-subtasks.ts';
import { configEntries, flattenSettings } from './config-entries.ts';

/**
 * The JobManager's configuration and environment (2 requests), and with a job its execution config, user parameters
 * and checkpoint configuration (2 more). Values Flink redacted stay redacted: it never sends them.
 */
export async function fetchConfiguration(client: FlinkRestClient, clusterId: string, jobId: string | null): Promise<ConfigurationView> {
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const options = { tally };
  const [jobManager, environment, job, checkpoints] = await Promise.all([
    client.request(endpoints.jobManagerConfig, {}, undefined, options),
    // Flink before 1.17 has no environment endpoint (404): shown as not known.
    orWhenMissing(client.request(viewEndpoints.jobManagerEnvironment, {}, undefined, options), null),
    jobId === null ? null : client.request(endpoints.jobConfig, { jobid: jobId }, undefined, options),
    // A job without checkpointing answers 404 on some versions: no checkpoint configuration.
    jobId === null ? null : orWhenMissing(client.request(viewEndpoints.checkpointConfigDetails, { jobid: jobId }, undefined, options), null),
  ]);
  const execution = job?.['execution-config'];
  return {
    clusterId,
    jobId,
    job: job === null
      ? null
      : {
          name: job.name ?? null,
          restartStrategy: execution?.['restart-strategy'] ?? null,
          parallelism: execution?.['job-parallelism'] ?? null,
          objectReuse: execution?.['object-reuse-mode'] ?? null,
          userConfig: configEntries(Object.entries(execution?.['user-config'] ?? {})),
        },
    checkpoints: checkpoints === null ? null : configEntries(flattenSettings(checkpoints)),
    jobManager: configEntries(jobManager.map((e) => [e.key, e.value] as const)),
    environment: environment === null
      ? null
      : {
          jvmVersion: environment.jvm?.version ?? null,
          arch: environment.jvm?.arch ?? null,
          options: environment.jvm?.options ?? [],
          classpath: environment.classpath ?? [],
        },
    fetchedAt: Date.now(),
    requestCount: tally.requests,
  };
}
