import { analyseState } from '../analysis/state-analysis.ts';
import type { JobState, StateOptions } from '../contracts/state.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireWhole } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { readStateInput } from './read-state-input.ts';
import { managedMemoryPerSlot, type StateLimit } from './managed-memory-limit.ts';
import { readRocksDbFigures } from './rocksdb-metrics.ts';

/** The longest window the State view reads: the history keeps 1,000 checkpoints, a week at 10 minutes. */
export const MAX_STATE_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * A job's State view: the history's checkpoints, RocksDB's native metrics from the cluster where it answers (`client`
 * null: not asked), and what the operator adds. The one way it is made, for the app, the CLI and the exports.
 */
export async function jobState(store: HistoryStore, client: FlinkRestClient | null, clusterId: string, jobId: string, windowMs: number, options: StateOptions = {}, endAt?: number): Promise<JobState> {
  const window = requireWhole(windowMs, 'window', 1_000, MAX_STATE_WINDOW_MS);
  const capacity = options.capacityBytes === undefined || options.capacityBytes === null ? null : requireWhole(options.capacityBytes, 'capacity (bytes)', 1);
  const keyCount = options.keyCount === undefined || options.keyCount === null ? null : requireWhole(options.keyCount, 'key count', 1);
  const input = readStateInput(store, clusterId, jobId, window, endAt);
  let rocksdbStatus: 'on' | 'off' | 'unknown' = 'unknown';
  const notes: string[] = [];
  if (client) {
    try {
      const figures = await readRocksDbFigures(client, jobId, input.vertices.filter((v) => v.checkpoints.some((c) => (c.stateBytes ?? 0) > 0)).map((v) => v.vertexId));
      for (const v of input.vertices) v.rocksdb = figures.get(v.vertexId) ?? null;
      rocksdbStatus = [...figures.values()].some((f) => f !== null) ? 'on' : 'off';
    } catch (error) {
      notes.push(`RocksDB's native metrics could not be read: ${error instanceof EngineError ? error.message : (error as Error).message}`);
    }
  }
  let limit: StateLimit | null = capacity !== null ? { bytes: capacity, source: 'the limit set' } : null;
  if (!limit && client) {
    try {
      limit = await managedMemoryPerSlot(client);
    } catch (error) {
      notes.push(`The TaskManagers' managed memory could not be read: ${error instanceof EngineError ? error.message : (error as Error).message}`);
    }
  }
  const state = analyseState({ ...input, rocksdbStatus, capacity: limit, keyCount });
  return { ...state, notKnown: [...notes, ...state.notKnown] };
}
