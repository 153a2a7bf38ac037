import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FlinkRestClient } from '../../flink-rest/client.ts';
import { HistoryStore } from '../../history/history-store.ts';
import { startLocalEngine, type LocalEngineHandle, type StartLocalEngineOptions } from '../../local/start-local-engine.ts';
import { ManualClock } from '../../local/time/clock.ts';
import type { OperationClock, OperationSettings } from '../driver-context.ts';
import { Operations, type OperationsCluster } from '../operations.ts';

/**
 * The operations against a real local engine on a manual clock, for tests and the benchmark: the operations' sleeps
 * advance the engine, so minutes of savepoints, stops and rescales run in seconds and always the same way.
 */
export interface OperationsKit {
  handle: LocalEngineHandle;
  operations: Operations;
  history: HistoryStore;
  cluster: OperationsCluster;
  client: FlinkRestClient;
  clock: OperationClock;
  dirs: { root: string; checkpoints: string; sink: string; data: string };
  /** The job the engine started with. */
  jobId: string;
  /** Another Operations on the same journal, as a second process (or a restarted one) would have. */
  reopen(options?: { clock?: OperationClock; settings?: Partial<OperationSettings> }): Operations;
  close(): Promise<void>;
}

export const KIT_START_TIME = 1_767_225_617_000;

export async function startOperationsKit(
  engine: StartLocalEngineOptions | ((dirs: OperationsKit['dirs']) => StartLocalEngineOptions) = {},
  settings: Partial<OperationSettings> = {},
  clockHook?: (ms: number, handle: LocalEngineHandle) => void,
): Promise<OperationsKit> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-operations-'));
  const dirs = { root, checkpoints: path.join(root, 'checkpoints'), sink: path.join(root, 'sink'), data: path.join(root, 'data') };
  const handle = await startLocalEngine({
    port: 0,
    time: 'manual',
    clock: new ManualClock(KIT_START_TIME),
    scenario: 'exactly-once',
    rate: 1000,
    checkpointDir: dirs.checkpoints,
    checkpointIntervalMs: 10_000,
    // Operations of these tests may name folders anywhere under the kit's own temporary folder.
    allowDirs: [root],
    ...(typeof engine === 'function' ? engine(dirs) : engine),
  });
  const client = new FlinkRestClient({ baseUrl: handle.url });
  const clock: OperationClock = {
    now: () => handle.engine.now(),
    sleep: async (ms) => {
      clockHook?.(ms, handle);
      handle.engine.advance(ms);
    },
  };
  const cluster: OperationsCluster = { id: 'local', name: 'Local engine', url: handle.url, client, metricsFetchIntervalMs: async () => 10_000 };
  const history = HistoryStore.open(dirs.data);
  const make = (options: { clock?: OperationClock; settings?: Partial<OperationSettings> } = {}) =>
    new Operations({ history, origin: 'app', cluster: () => cluster, clusterOfEntry: () => cluster, clock: options.clock ?? clock, settings: { ...settings, ...options.settings } });
  const operations = make();
  const jobId = [...handle.engine.cluster.jobs.keys()][0];
  return {
    handle,
    operations,
    history,
    cluster,
    client,
    clock,
    dirs,
    jobId,
    reopen: make,
    async close() {
      operations.close();
      await handle.close();
      await history.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** What the engine received: every savepoint/stop trigger request, and whether it started an operation. */
export async function engineTriggers(handle: LocalEngineHandle): Promise<Array<{ kind: string; jobId: string; triggerId: string; started: boolean }>> {
  const response = await fetch(`${handle.url}/local-engine/v1/async-operations`);
  return ((await response.json()) as { triggers: Array<{ kind: string; jobId: string; triggerId: string; started: boolean }> }).triggers;
}
