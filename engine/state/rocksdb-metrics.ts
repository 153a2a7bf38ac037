import type { RocksDbFigures } from '../analysis/state-analysis.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';

/**
 * RocksDB's native metrics a job turns on with `state.backend.rocksdb.metrics.<property>: true`: Flink registers one
 * gauge per state (column family) under the operator, named after the RocksDB property (`rocksdb.estimate-num-keys`).
 * The JobManager's metric store replaces the dots (and spaces, commas, colons) of a name with `_`, so the REST ids read
 * `<operator>.<state>.rocksdb_estimate-num-keys` (seen on 2.3.0, the same rule in 1.20's `MetricQueryService`): they
 * are found by the property's name at the end of the id, either spelling.
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
    const names = [property, property.replace(/\./g, '_')];
    const matching = ids.filter((id) => names.some((name) => id === name || id.endsWith(`.${name}`)));
    if (matching.length > 0) out.set(figure, matching);
  }
  return out;
}

/**
 * Pure: the four figures of a vertex from each id's sum over the subtasks. Keys, live data and SST files are per state
 * and add up; the block cache is one per RocksDB instance, shared by its states (with Flink's default managed memory,
 * one per slot): every state of a subtask reports the same cache, so the largest is taken, not the sum.
 */
export function rocksDbFiguresOf(ids: Map<keyof RocksDbFigures, string[]>, sums: ReadonlyArray<{ id: string; sum?: number }>): RocksDbFigures {
  const of = (figure: keyof RocksDbFigures, combine: (values: number[]) => number): number | null => {
    const wanted = new Set(ids.get(figure) ?? []);
    const values = sums.filter((m) => wanted.has(m.id) && typeof m.sum === 'number' && Number.isFinite(m.sum)).map((m) => m.sum!);
    return values.length > 0 ? combine(values) : null;
  };
  const total = (values: number[]): number => values.reduce((a, b) => a + b, 0);
  return {
    estimateLiveDataSize: of('estimateLiveDataSize', total),
    totalSstFilesSize: of('totalSstFilesSize', total),
    estimateNumKeys: of('estimateNumKeys', total),
    blockCacheUsage: of('blockCacheUsage', (values) => Math.max(...values)),
  };
}

/**
 * Per vertex, the four figures over its subtasks (`subtasks/metrics?agg=sum`): 1 request to list a vertex's metric
 * ids, 1 more where it has any. null for a vertex with none of them (off, or not a RocksDB state).
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
    out.set(vertexId, rocksDbFiguresOf(ids, sums));
  }
  return out;
}
