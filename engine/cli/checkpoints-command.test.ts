import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { JobWatcher } from '../sampling/job-watcher.ts';
import type { CheckpointsReport } from './checkpoints-command.ts';
import { openHistoryStore } from './open-history-store.ts';
import { runCli } from './testing/run-cli.ts';

/** `flink-ops checkpoints` against the local engine's hot-tenant scenario with checkpoints, and from the history. */
const dirs = tempDirs('flink-ops-cli-checkpoints-');
let handle: LocalEngineHandle;
let jobId: string;
let dataDir: string;

const run = (...args: string[]) => runCli(args);

beforeAll(async () => {
  // The CLI's history keeps samples for 24 h of the wall clock: the engine's time starts shortly before now, not on a
  // fixed date that the retention would one day find too old.
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(Date.now() - 10 * 60_000), scenario: 'hot-tenant', checkpointDir: dirs.make() });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  handle.engine.advance(75_000); // past the shift at 30 s: the hot subtask delays the barriers
}, 60_000);

afterAll(async () => {
  await handle?.close();
  dirs.removeAll();
});

describe('flink-ops checkpoints', () => {
  it('from the cluster: the summary, the last N and the outlier named', async () => {
    dataDir = dirs.make();
    const json = await run('checkpoints', '--url', handle.url, '--job', 'gatewaymeter', '--last', '3', '--json', '--data-dir', dataDir);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as CheckpointsReport;
    expect(report.source).toBe('cluster');
    expect(report.checkpoints.checkpoints).toHaveLength(3);
    expect(report.checkpoints.flink?.counts.completed).toBeGreaterThanOrEqual(6);
    expect(report.detail?.finding).toMatch(/^subtask 12 of tenant-cost started its checkpoint [\d.]+ s late while the others took < \d+ ms/);

    const text = await run('checkpoints', '--url', handle.url, '--job', jobId, '--data-dir', dataDir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\) RUNNING: checkpoints from the cluster\n/);
    expect(text.stdout).toMatch(/\nSUMMARY +MIN +AVG +MAX +P99\nend-to-end /);
    expect(text.stdout).toMatch(/\nCheckpoint \d+: subtask 12 of tenant-cost started its checkpoint/);
  }, 120_000);

  it('from the history when the console recorded the job, even once the cluster is gone', async () => {
    dataDir = dirs.make();
    const store = openHistoryStore(dataDir);
    const connection = connect(createClient({ name: 'local', url: handle.url, auth: { kind: 'none' }, timeoutMs: 5_000 }, undefined));
    const watcher = new JobWatcher({ history: store, connection: () => connection, now: () => handle.engine.now() });
    for (let i = 0; i < 4; i++) {
      await watcher.sampleNow('local-engine', jobId);
      handle.engine.advance(10_000);
    }
    await store.close();

    const recorded = await run('checkpoints', '--url', 'http://127.0.0.1:1', '--job', jobId, '--json', '--data-dir', dataDir);
    expect(recorded.code).toBe(0);
    const report = JSON.parse(recorded.stdout) as CheckpointsReport;
    expect(report).toMatchObject({ source: 'history', job: { id: jobId, name: 'gatewaymeter' } });
    expect(report.note).toMatch(/^The cluster did not answer \(Connection refused.*\); this is the console's recording\.$/);
    expect(report.checkpoints.checkpoints.length).toBeGreaterThanOrEqual(6);
    expect(report.detail?.finding).toMatch(/^subtask 12 of tenant-cost/);
  }, 120_000);

  it.each([
    [['--job', 'gatewaymeter', '--last', '0'], 2, /--last must be a whole number from 1 to 1000/],
    [['--job', 'no-such-job'], 4, /No job with id or name "no-such-job"/],
  ])('exits with one line for %j', async (args, code, message) => {
    const result = await run('checkpoints', '--url', handle.url, ...args, '--data-dir', dirs.make());
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('exits 3 when the cluster does not answer and the console never recorded the job', async () => {
    const result = await run('checkpoints', '--url', 'http://127.0.0.1:1', '--job', jobId, '--data-dir', dirs.make());
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/Connection refused/);
  }, 60_000);
});
