import type { ClusterCheck } from '../contracts/clusters.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { parseFlinkDuration } from '../flink-rest/duration.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { isSupportedVersion, parseFlinkVersion } from '../flink-rest/version.ts';

/** Flink's default `metrics.fetcher.update-interval`. */
export const DEFAULT_METRICS_FETCH_INTERVAL_MS = 10_000;

/**
 * Is this really a Flink REST API, which version, and how often are its metrics refreshed?
 * `/config` is the sniff: any Flink since 1.0 serves it, with `flink-version`.
 */
export async function checkFlinkCluster(client: FlinkRestClient): Promise<ClusterCheck> {
  let dashboard;
  try {
    dashboard = await client.request(endpoints.config);
  } catch (error) {
    // Valid JSON that fails validation (not an HTTP status): Flink's /config with one impossible field, or some other JSON API.
    if (error instanceof EngineError && error.info.kind === 'unexpected-response' && error.info.status === undefined) {
      const field = error.info.field;
      if (field !== undefined && field !== 'flink-version' && field !== '(body)') {
        throw new EngineError('not-flink', `${client.baseUrl} answers /config with a \`flink-version\`, but not as a Flink JobManager does: ${error.info.message}`, { endpoint: 'GET /config', field });
      }
      throw new EngineError(
        'not-flink',
        `${client.baseUrl} answers JSON, but not as a Flink JobManager does (no \`flink-version\` in /config): is this the JobManager's REST URL?`,
        { endpoint: 'GET /config' },
      );
    }
    if (error instanceof EngineError && ['not-found', 'unexpected-response', 'malformed-response'].includes(error.info.kind)) {
      throw new EngineError(
        'not-flink',
        `${client.baseUrl} does not look like a Flink REST API (GET /config: ${error.info.message}) — is this the JobManager's REST port?`,
        { endpoint: 'GET /config', status: error.info.status },
      );
    }
    throw error;
  }
  const version = parseFlinkVersion(dashboard['flink-version']);
  return {
    flinkVersion: dashboard['flink-version'],
    flinkRevision: dashboard['flink-revision'],
    metricsFetchIntervalMs: await readMetricsFetchInterval(client),
    versionSupported: isSupportedVersion(version),
  };
}

/** Reads `metrics.fetcher.update-interval`; a cluster that hides its configuration gets Flink's default. */
async function readMetricsFetchInterval(client: FlinkRestClient): Promise<number> {
  try {
    const entries = await client.request(endpoints.jobManagerConfig);
    const entry = entries.find((e) => e.key === 'metrics.fetcher.update-interval');
    return (entry && parseFlinkDuration(entry.value)) || DEFAULT_METRICS_FETCH_INTERVAL_MS;
  } catch (error) {
    if (error instanceof EngineError && ['forbidden', 'not-found'].includes(error.info.kind)) {
      return DEFAULT_METRICS_FETCH_INTERVAL_MS;
    }
    throw error;
  }
}
