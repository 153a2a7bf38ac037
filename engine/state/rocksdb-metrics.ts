import type { RocksDbFigures } from '../analysis/state-analysis.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';

/**
 * RocksDB's native metrics a job turns on with `state.backend.rocksdb.metrics.<property>: true`: Flink registers one
 * gauge per state (column family) under the operator, named after the RocksDB property
 * (`<operator>.<state>.rocksdb.estimate-num-keys`, with a scope that varies by version), so they are found by the
 * property's name at the end of the id and summed over states and subtasks.
 */
export const ROCKSDB_PROPERTIES: Record<keyof RocksDbFigures, string> = {
  estimateLiveDataSize: 'rocksdb.estimate-live-data-size',
  totalSstFilesSize: 'rocksdb.total-sst-files-size',
  estimateNumKeys: 'rocksdb.estimate-num-keys',
  blockCacheUsage: 'rocksdb.block-cache-usage',
};

/** Pure: which of the vertex's metric ids carry which RocksDB figure. */
export function rocksDbMetricIds(ids: readonly string[]): Map<keyof RocksDbFigures, string[]> {
  const out = new Map<keyof RocksDbFigures, string[]>();
  for (const [figure, property] of Object.entries(ROCKSDB_PROPERTIES) as Array<[keyof RocksDbFigures, string]>) {
    const matching = ids.filter((id) => id === property || id.endsWith(`.${property}`));
    if (matching.length > 0) out.set(figure, matching);
  }
  return out;
}

/**
 * Per vertex, the four figures summed over its subtasks (`subtasks/metrics?agg=sum`): 1 request to list a vertex's
 * metric ids, 1 more where it has any. null for a vertex with none of them (off, or not a RocksDB state).
 */
export async function readRocksDbFigures(client: FlinkRestClient, jobId: string, vertexIds: readonly string[]): Promise<Map<string, RocksDbFigures | null>> {
  const out = new Map<string, RocksDbFigures | null>();
  for (const vertexId of vertexIds) {
    const listed = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertexId });
    const ids = rocksDbMetricIds(listed.map((m) => m.id));
    if (ids.size === 0) {
      out.set(vertexId, null);
      continue;
    }
    const all = [...ids.values()].flat();
    const sums = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertexId }, { get: all.join(','), agg: 'sum' });
    const sumOf = (figure: keyof RocksDbFigures): number | null => {
      const wanted = new Set(ids.get(figure) ?? []);
      const values = sums.filter((m) => wanted.has(m.id) && typeof m.sum === 'number' && Number.isFinite(m.sum)).map((m) => m.sum!);
      return values.length > 0 ? values.reduce((a, b) => a + b, 0) : null;
    };
    out.set(vertexId, {
      estimateLiveDataSize: sumOf('estimateLiveDataSize'),
      totalSstFilesSize: sumOf('totalSstFilesSize'),
      estimateNumKeys: sumOf('estimateNumKeys'),
      blockCacheUsage: sumOf('blockCacheUsage'),
    });
  }
  return out;
}
