import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { RECORDED_WINDOW, recordedSeries, startReplayPrometheus, type ReplayPrometheus } from '../prometheus/testing/replay-prometheus.ts';
import { envWithEmptyHome, runCli } from './testing/run-cli.ts';

/**
 * `diagnose`, `report` and `bundle --prometheus URL`: the window read from the cluster's metrics store, not sampled
 * from the JobManager. The recorded answers of a real Prometheus are served again as if recorded up to now (the
 * CLI's window ends now).
 */
const dirs = tempDirs('flink-ops-cli-prometheus-');
const JOB = RECORDED_WINDOW.jobId;
const jobDetails = RECORDED_WINDOW.jobDetails as { jid: string; name: string; 'start-time': number };

let jm: HostileServer;
let prometheus: ReplayPrometheus;
const jmPaths: string[] = [];
const run = (args: string[]) => runCli(args, { timeout: 60_000, env: envWithEmptyHome(dirs) });

beforeAll(async () => {
  // The recording moved in time so that it ends at the last whole 5 s before now.
  const shiftS = Math.floor(Date.now() / 5000) * 5 - 5 - RECORDED_WINDOW.to / 1000;
  const series = recordedSeries().map((s) => ({ ...s, values: s.values.map(([t, v]): [number, string] => [t + shiftS, v]) }));
  prometheus = await startReplayPrometheus({ series });
  jm = await startHostileServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://jm');
    jmPaths.push(url.pathname);
    if (flinkBasics(req, res)) return;
    if (url.pathname === '/jobs/overview') {
      return json(res, 200, { jobs: [{ jid: JOB, name: jobDetails.name, state: 'RUNNING', 'start-time': jobDetails['start-time'] + shiftS * 1000, 'end-time': -1, duration: 1, tasks: {} }] });
    }
    if (url.pathname === `/jobs/${JOB}`) return json(res, 200, { ...jobDetails, 'start-time': jobDetails['start-time'] + shiftS * 1000 });
    return json(res, 503, { errors: ['not recorded'] });
  });
});

afterAll(async () => {
  await jm?.close();
  await prometheus?.close();
  dirs.removeAll();
});

describe('--prometheus', () => {
  it('diagnoses the window from the metrics store, says so, and samples nothing per subtask from the JobManager', async () => {
    const { code, stdout, stderr } = await run(['diagnose', '--url', jm.url, '--job', JOB, '--window', '4m', '--json', '--prometheus', prometheus.url]);
    expect(stderr).not.toMatch(/Sampling the job/);
    expect(code).toBe(0);
    const diagnosis = JSON.parse(stdout) as JobDiagnosis;
    expect(diagnosis.window.source).toBe('prometheus');
    expect(diagnosis.window.samples).toBeGreaterThan(40);
    expect(diagnosis.window.spanMs).toBeGreaterThanOrEqual(200_000);
    // The first look reads Flink's aggregated figures; nothing per subtask (details, watermarks) is asked of the JobManager.
    expect(jmPaths.filter((p) => /\/vertices\/[0-9a-f]{32}(\/watermarks)?$/.test(p))).toEqual([]);
    expect(prometheus.requests.some((r) => r.path === '/api/v1/query_range')).toBe(true);
  });

  it('makes the report from the metrics store; a store that does not answer ends the command with one readable line', async () => {
    const report = await run(['report', '--url', jm.url, '--job', JOB, '--window', '4m', '--format', 'json', '--prometheus', prometheus.url]);
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(new RegExp(`^Read from the metrics store ${prometheus.url.replace(/[.]/g, '\\.')}, \\d+ samples every 5 s\\.$`, 'm'));
    expect((JSON.parse(report.stdout) as { job: { id: string } }).job.id).toBe(JOB);

    const down = await run(['diagnose', '--url', jm.url, '--job', JOB, '--prometheus', 'http://127.0.0.1:1']);
    expect(down.code).toBe(3);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toMatch(/Metrics store: .*127\.0\.0\.1:1/);
  });
});
