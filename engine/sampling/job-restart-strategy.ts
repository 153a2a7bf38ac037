import { parseRestartStrategyDescription, restartStrategyOfConfiguration, type RestartStrategy } from '../analysis/restart-strategy.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';

/**
 * A job's restart strategy as its cluster reports it: the job's own configuration (`GET /jobs/:jobid/config`), and
 * when that defers to the cluster ("Cluster level default restart strategy") or says something unknown, the
 * configuration the job's JobManager runs with (`GET /jobs/:jobid/jobmanager/config`). 1 or 2 requests.
 */
export async function fetchRestartStrategy(client: FlinkRestClient, jobId: string): Promise<RestartStrategy> {
  const config = await client.request(endpoints.jobConfig, { jobid: jobId });
  const described = config['execution-config']?.['restart-strategy'];
  const parsed = described === undefined ? null : parseRestartStrategyDescription(described);
  if (parsed !== null && parsed !== 'cluster-default') return parsed;
  const entries = await client.request(endpoints.jobJobManagerConfig, { jobid: jobId });
  return restartStrategyOfConfiguration(Object.fromEntries(entries.map((e) => [e.key, e.value])));
}

/** The job's `numRestarts` metric; null when the cluster does not report it. */
export async function fetchNumRestarts(client: FlinkRestClient, jobId: string): Promise<number | null> {
  try {
    const metrics = await client.request(endpoints.jobMetrics, { jobid: jobId }, { get: 'numRestarts' });
    const value = Number(metrics.find((m) => m.id === 'numRestarts')?.value);
    return Number.isFinite(value) ? value : null;
  } catch (error) {
    if (error instanceof EngineError && (error.info.kind === 'not-found' || error.info.kind === 'server-error')) return null;
    throw error;
  }
}
