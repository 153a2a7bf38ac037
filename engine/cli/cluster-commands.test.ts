import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobExceptions, JobGraph, JobSummary } from '../contracts/jobs.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { ManualClock } from '../local/time/clock.ts';
import { flinkBasics, json, startHostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { openClusterStore } from './data-dir.ts';
import { runCli } from './testing/run-cli.ts';

/**
 * Sequential on purpose: each test starts CLI processes, and the machine is shared.
 * The data commands against a real local engine (virtual time): every one prints one JSON document with --json, and
 * a job that no longer runs shows no rates, in the table as in the JSON.
 */

const run = (...args: string[]) => runCli(args);

/** One JSON document, and nothing else on stdout. */
async function runJson<T>(...args: string[]): Promise<T> {
  const result = await run(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  return JSON.parse(result.stdout) as T;
}

const dirs = tempDirs('flink-ops-cli-');
let running: LocalEngineHandle;
let failed: LocalEngineHandle;
let failedJobId: string;
let lostTaskManager: string;

beforeAll(async () => {
  const clock = () => new ManualClock(1_767_225_600_000);
  running = await startLocalEngine({ port: 0, time: 'manual', clock: clock(), scenario: 'hot-tenant' });
  running.engine.advance(20_000);
  // A second engine whose job lost a TaskManager without restarts: FAILED, with the loss in its history.
  failed = await startLocalEngine({ port: 0, time: 'manual', clock: clock() });
  failed.engine.advance(20_000);
  const [job] = failed.engine.cluster.jobs.values();
  failedJobId = job.jobId;
  lostTaskManager = failed.engine.cluster.taskManagers.find((tm) => tm.slots.includes(job.jobId))!.id;
  failed.engine.cluster.killTaskManager(lostTaskManager);
  expect(job.status).toBe('FAILED');
}, 90_000);

afterAll(async () => {
  await running?.close();
  await failed?.close();
  dirs.removeAll();
});

describe('--json on every data command: valid JSON, one document on stdout', { timeout: 90_000 }, () => {
  it('clusters: the saved clusters, never a secret', async () => {
    const dataDir = dirs.make();
    openClusterStore(dataDir).save({ name: 'prod', url: 'https://flink.example:8081', auth: { kind: 'basic', username: 'ops' }, timeoutMs: 10_000 });
    const clusters = await runJson<Array<{ name: string; url: string; auth: { kind: string } }>>('clusters', '--data-dir', dataDir);
    expect(clusters).toEqual([expect.objectContaining({ name: 'prod', url: 'https://flink.example:8081', auth: { kind: 'basic', username: 'ops' } })]);
    expect(await runJson('clusters', '--data-dir', dirs.make())).toEqual([]);
  });

  it('jobs', async () => {
    const jobs = await runJson<JobSummary[]>('jobs', '--url', running.url);
    expect(jobs).toEqual([expect.objectContaining({ name: 'gatewaymeter', state: 'RUNNING' })]);
  });

  it('graph', async () => {
    const graph = await runJson<JobGraph>('graph', '--url', running.url, '--job', 'gatewaymeter');
    expect(graph.state).toBe('RUNNING');
    expect(graph.vertices.length).toBeGreaterThan(1);
    expect(graph.vertices.some((v) => v.recordsOutPerSecond !== null && v.recordsOutPerSecond > 0)).toBe(true);
  });

  it('exceptions', async () => {
    const history = await runJson<JobExceptions>('exceptions', '--url', failed.url, '--job', failedJobId);
    expect(history.entries).toHaveLength(1);
    expect(history.entries[0]).toMatchObject({
      exceptionName: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException',
      message: `TaskManager with id ${lostTaskManager} is no longer reachable.`,
      taskName: null,
      concurrent: [],
    });
    expect(await runJson<JobExceptions>('exceptions', '--url', running.url, '--job', 'gatewaymeter')).toMatchObject({ entries: [], truncated: false });
  });
});

describe('the tables', { timeout: 90_000 }, () => {
  it('graph: units in the headers and the busy skew column', async () => {
    const { stdout, code } = await run('graph', '--url', running.url, '--job', 'gatewaymeter');
    expect(code).toBe(0);
    const header = stdout.split('\n').find((line) => line.startsWith('VERTEX'))!;
    expect(header).toMatch(/IN rec\/s +OUT rec\/s +BUSY MAX ms\/s +BUSY SKEW max\/avg +DATA SKEW % +BACKPRESSURE +NAME/);
    expect(stdout).toMatch(/tenant-cost.*/);
    expect(stdout).toMatch(/\d+\.\dx/);
  });

  it('graph of a FAILED job: its state, and no rates at all', async () => {
    const { stdout, code } = await run('graph', '--url', failed.url, '--job', failedJobId);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gatewaymeter \([0-9a-f]{32}\) FAILED\nThe job is FAILED since (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d: no rates \(only a RUNNING job has them\)\./);
    const rows = stdout.split('\n\n')[1].split('\n').slice(1).filter((line) => /^[0-9a-f]{32} /.test(line));
    expect(rows.length).toBeGreaterThan(1);
    // IN, OUT, BUSY MAX, SKEW and BACKPRESSURE are all "-".
    for (const row of rows) expect(row.split(/ {2,}/).slice(3, 8)).toEqual(['-', '-', '-', '-', '-']);
    const json = await runJson<JobGraph>('graph', '--url', failed.url, '--job', failedJobId);
    for (const v of json.vertices) {
      expect([v.recordsInPerSecond, v.recordsOutPerSecond, v.busyTimeMsPerSecond, v.busySkew, v.backpressureLevel]).toEqual([null, null, null, null, null]);
    }
  });

  it('exceptions: the root exception with its time, where, and the stack trace folded', async () => {
    const { stdout, code } = await run('exceptions', '--url', failed.url, '--job', failedJobId);
    expect(code).toBe(0);
    expect(stdout).toContain('1 exception, newest first');
    expect(stdout).toMatch(/ROOT EXCEPTION {2}(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d {2}org\.apache\.flink\.runtime\.resourcemanager\.exceptions\.ResourceManagerException\n/);
    expect(stdout).toContain(`  TaskManager with id ${lostTaskManager} is no longer reachable.\n  global failure (no task)\n`);
    expect(stdout).toContain('    at org.apache.flink.runtime.resourcemanager.ResourceManager$TaskManagerHeartbeatListener.notifyTargetUnreachable');
    const noHistory = await run('exceptions', '--url', running.url, '--job', 'gatewaymeter');
    expect(noHistory.stdout).toContain('No exceptions: the job has not failed or restarted.');
  });

  it('exceptions: a bad --max is a bad argument', async () => {
    const result = await run('exceptions', '--url', failed.url, '--job', failedJobId, '--max', 'lots');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('flink-ops: --max must be a positive whole number, not "lots".\n');
  });
});

describe('exceptions from a hostile cluster', { timeout: 60_000 }, () => {
  it('prints no terminal control characters from its messages or stack traces', async () => {
    const jobId = 'a'.repeat(32);
    const server = await startHostileServer((req, res) => {
      if (flinkBasics(req, res)) return;
      if (req.url === '/jobs/overview') return json(res, 200, { jobs: [{ jid: jobId, name: 'j', state: 'FAILED', 'start-time': 1, 'end-time': 2, duration: 1, tasks: {} }] });
      const stacktrace = 'java.lang.RuntimeException: \u001b]0;pwned\u0007boom\u001b[2J\n\tat x.Y.z(Y.java:1)\n';
      json(res, 200, { exceptionHistory: { entries: [{ exceptionName: 'java.lang.RuntimeException', stacktrace, timestamp: 1, failureLabels: {}, concurrentExceptions: [] }], truncated: false } });
    });
    try {
      const { stdout, code } = await run('exceptions', '--url', server.url, '--job', jobId);
      expect(code).toBe(0);
      // The escape sequences are gone whole (not only their ESC byte): the message reads as the cluster meant it.
      expect(stdout).toContain('java.lang.RuntimeException: boom');
      // eslint-disable-next-line no-control-regex
      expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(stdout).toContain('\tat x.Y.z(Y.java:1)'.replace('\t', '  '));
    } finally {
      await server.close();
    }
  });
});
