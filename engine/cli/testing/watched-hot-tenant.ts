import path from 'node:path';
import { connect, createClient } from '../../clusters/cluster-connections.ts';
import { HistoryStore } from '../../history/history-store.ts';
import { startLocalEngine, type LocalEngineHandle } from '../../local/start-local-engine.ts';
import { ManualClock } from '../../local/time/clock.ts';
import { JobWatcher } from '../../sampling/job-watcher.ts';

export interface WatchedHotTenant {
  engine: LocalEngineHandle;
  /** The app's data folder (`--data-dir`): its history holds the job's samples and checkpoints. */
  dataDir: string;
}

/**
 * The app watched hot-tenant (with checkpoints, as the app runs it) for three minutes: its history holds the samples
 * and the checkpoints, ending now, or `stoppedAgoMs` ago (the app no longer watches the job). The engine runs on a
 * virtual clock, stopped, so what the CLI reads from the cluster and from the history cannot drift apart, and nothing
 * moves between two runs.
 */
export async function watchedHotTenant(dirs: { make(): string }, { stoppedAgoMs = 0 } = {}): Promise<WatchedHotTenant> {
  const clock = new ManualClock(Date.now() - stoppedAgoMs - 180_000);
  const engine = await startLocalEngine({ scenario: 'hot-tenant', port: 0, time: 'manual', clock, checkpointDir: dirs.make(), checkpointIntervalMs: 10_000 });
  const dataDir = dirs.make();
  const store = HistoryStore.open(path.join(dataDir, 'history'), { now: () => clock.now() });
  try {
    const connection = connect(createClient({ name: 'local', url: engine.url, auth: { kind: 'none' }, timeoutMs: 10_000 }, undefined));
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => clock.now() });
    const jobId = [...engine.engine.cluster.jobs.values()][0].jobId;
    for (let s = 0; s < 18; s++) {
      engine.engine.advance(10_000);
      await watcher.sampleNow('local-engine', jobId);
    }
  } finally {
    await store.close();
  }
  return { engine, dataDir };
}
