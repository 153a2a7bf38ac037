import { afterEach, describe, expect, it } from 'vitest';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { jobMetricsHistory } from '../history/views/metrics-history.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { RECORDED_WINDOW, startReplayPrometheus, type ReplayPrometheus } from '../prometheus/testing/replay-prometheus.ts';
import { JobWatcher, type JobWatcherOptions } from './job-watcher.ts';

const dirs = tempDirs('flink-ops-store-samples-');
const { jobId: JOB, from: START, to: END, stepMs: STEP } = RECORDED_WINDOW;
const jobDetails = RECORDED_WINDOW.jobDetails as object;

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.reverse()) await o.close();
  open = [];
});

/** The recorded JobManager: the job's details; every per-subtask endpoint answers 503 and is counted. */
async function recordedJobManager(): Promise<HostileServer & { paths: string[] }> {
  const paths: string[] = [];
  const server = await startHostileServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://jm');
    paths.push(url.pathname);
    if (url.pathname === `/jobs/${JOB}`) return json(res, 200, jobDetails);
    // The TaskManager whose id the recorded series' `tm_id` is, as the reporter writes ids.
    if (url.pathname === '/taskmanagers') return json(res, 200, { taskmanagers: [{ id: '127.0.0.1:36173-09a991', slotsNumber: 2, freeSlots: 0 }] });
    if (url.pathname === '/config') return json(res, 200, { 'refresh-interval': 3000, 'timezone-name': 'UTC', 'timezone-offset': 0, 'flink-version': '2.3.0', 'flink-revision': 'x', features: {} });
    return json(res, 503, { errors: ['not recorded'] });
  });
  return { ...server, paths };
}

/** A watcher of the recorded job, its store the replayed Prometheus (or what `storeSampling` gives). */
async function watching(now: () => number, store: ReplayPrometheus | { storeSampling: JobWatcherOptions['storeSampling'] }) {
  const jm = await recordedJobManager();
  const history = HistoryStore.open(dirs.make(), { now });
  open.push(jm, history);
  const storeSampling =
    'storeSampling' in store ? store.storeSampling : async () => ({ store: new FlinkRestClient({ baseUrl: store.url, timeoutMs: 2_000 }), stepMs: STEP, backfillMs: END - START + STEP });
  const watcher = new JobWatcher({
    history,
    connection: () => connect(createClient({ name: 'recorded', url: jm.url, auth: { kind: 'none' }, timeoutMs: 2_000 }, undefined)),
    storeSampling,
    now,
  });
  return { jm, history, watcher };
}

/** The replayed Prometheus, answering 503 while `down`. */
async function switchableStore(): Promise<{ prometheus: ReplayPrometheus; down: boolean }> {
  const switchable = { prometheus: undefined as unknown as ReplayPrometheus, down: false };
  switchable.prometheus = await startReplayPrometheus({
    alter: (_request, _body, res) => {
      if (!switchable.down) return false;
      json(res, 503, { status: 'error', errorType: 'unavailable', error: 'the store is restarting' });
      return true;
    },
  });
  open.push(switchable.prometheus);
  return switchable;
}

describe('a watched job of a cluster with a metrics store', () => {
  it('reads the minutes before the watch from the store, and asks the JobManager only for the job and its checkpoints', async () => {
    const prometheus = await startReplayPrometheus();
    open.push(prometheus);
    const now = END + STEP;
    const { jm, history, watcher } = await watching(() => now, prometheus);

    await watcher.sampleNow('c', JOB);

    const samples = history.samples.window('c', JOB, 0, Infinity);
    expect(samples.length).toBeGreaterThan(50);
    expect(samples[0].t).toBe(START);
    expect(samples.at(-1)!.t).toBe(END);
    expect(samples.every((s) => s.source === 'prometheus')).toBe(true);
    // Per-subtask busy time over the subtask's own clock, within what a millisecond per second can be.
    const throttle = samples.at(-1)!.vertices.find((v) => v.name === 'throttle')!;
    const busy = Array.from(throttle.subtasks!.rates.busyTimeMsPerSecond);
    const idle = Array.from(throttle.subtasks!.rates.idleTimeMsPerSecond);
    const backPressured = Array.from(throttle.subtasks!.rates.backPressuredTimeMsPerSecond);
    busy.forEach((b, k) => expect(b + idle[k] + backPressured[k]).toBeCloseTo(1000, 0));
    expect(new Set(jm.paths)).toEqual(new Set([`/jobs/${JOB}`, `/jobs/${JOB}/checkpoints`, '/taskmanagers']));
    // The subtasks' TaskManager is the one the REST API lists, not the reporter's sanitised label.
    expect(samples.at(-1)!.taskManagers.map((tm) => tm.id)).toEqual(['127.0.0.1:36173-09a991']);
    // The metrics tab says where its samples came from.
    expect(jobMetricsHistory(history, 'c', JOB, START, END).samplesFrom).toEqual({ jobManager: 0, prometheus: samples.length });
  });

  it('fills a window that reaches back before the history\'s first sample from the store, once, without asking the JobManager', async () => {
    const prometheus = await startReplayPrometheus();
    open.push(prometheus);
    const now = END + STEP;
    // A watch whose first read reached back a minute only.
    const storeSampling = async () => ({ store: new FlinkRestClient({ baseUrl: prometheus.url, timeoutMs: 2_000 }), stepMs: STEP, backfillMs: 60_000 });
    const { jm, history, watcher } = await watching(() => now, { storeSampling });
    await watcher.sampleNow('c', JOB);
    const watchedFrom = history.samples.job('c', JOB)!.firstSampleAt;
    expect(watchedFrom).toBeGreaterThan(END - 70_000);

    const jmAsked = jm.paths.length;
    // The page's diagnosis and charts ask at the same moment: the store is read for one of them.
    const asked = prometheus.requests.length;
    await Promise.all([watcher.reachBack('c', JOB, { windowMs: END - START }), watcher.reachBack('c', JOB, { windowMs: END - START })]);
    const pair = prometheus.requests.slice(asked).map((r) => `${r.path}?${r.query}`);
    expect(pair.length).toBeGreaterThan(0);
    expect(new Set(pair).size).toBe(pair.length);
    const times = history.samples.heads('c', JOB, 0, Infinity).map((h) => h.t);
    expect(times[0]).toBe(START);
    expect(new Set(times.slice(1).map((t, i) => t - times[i]))).toEqual(new Set([STEP]));
    expect(history.samples.window('c', JOB, START, watchedFrom - 1).every((s) => s.source === 'prometheus')).toBe(true);
    expect(jm.paths.length).toBe(jmAsked);
    // Asked again, the store is not read twice.
    const before = prometheus.requests.length;
    await watcher.reachBack('c', JOB, { windowMs: END - START });
    expect(prometheus.requests.length).toBe(before);
    expect(history.samples.job('c', JOB)!.samples).toBe(times.length);
    expect(history.samples.job('c', JOB)!.firstSampleAt).toBe(START);
  });

  it('says when the store falls silent, samples the JobManager meanwhile, and reads the store again when it answers', async () => {
    const store = await switchableStore();
    const prometheus = store.prometheus;
    let now = START + 60_000;
    const { jm, history, watcher } = await watching(() => now, prometheus);
    await watcher.sampleNow('c', JOB);
    const fromStore = history.samples.window('c', JOB, 0, Infinity).length;

    store.down = true;
    now += 30_000;
    await watcher.sampleNow('c', JOB);
    const events = () => history.events.list('c', JOB).map((e) => e.kind);
    expect(events()).toContain('store-silent');
    expect(jm.paths.some((p) => p.includes('/vertices/'))).toBe(true);
    const during = history.samples.window('c', JOB, 0, Infinity);
    expect(during.length).toBe(fromStore + 1);
    expect(during.at(-1)!.source).toBeUndefined();

    store.down = false;
    now += 30_000;
    await watcher.sampleNow('c', JOB);
    expect(events()).toContain('store-answers');
    const markers = jobMetricsHistory(history, 'c', JOB, 0, now).markers.filter((m) => m.kind === 'store');
    expect(markers.map((m) => m.message)).toEqual([expect.stringMatching(/^The metrics store does not answer \(.*restarting.*\): the console samples the JobManager until it does\.$/), expect.stringMatching(/^The metrics store answers again after 30 s/)]);
    const after = history.samples.window('c', JOB, 0, Infinity);
    expect(after.at(-1)!.source).toBe('prometheus');
    expect(after.at(-1)!.t).toBeGreaterThan(during.at(-1)!.t);
  });

  it('says the store answers only when it did: a round one step after a JobManager sample, with nothing to read yet, asks it', async () => {
    const store = await switchableStore();
    const prometheus = store.prometheus;
    let now = START + 60_000;
    const { history, watcher } = await watching(() => now, prometheus);
    await watcher.sampleNow('c', JOB);
    const events = () => history.events.list('c', JOB).map((e) => e.kind);

    store.down = true;
    now += 30_000;
    await watcher.sampleNow('c', JOB);
    expect(events().filter((k) => k === 'store-silent')).toHaveLength(1);
    // One step later the store's window since that JobManager sample is still empty: nothing says the store is back.
    for (let round = 0; round < 3; round++) {
      now += STEP;
      await watcher.sampleNow('c', JOB);
    }
    expect(events()).not.toContain('store-answers');
    expect(events().filter((k) => k === 'store-silent')).toHaveLength(1);
    const during = history.samples.window('c', JOB, 0, Infinity);
    expect(during.slice(-4).map((s) => s.source)).toEqual([undefined, undefined, undefined, undefined]);

    store.down = false;
    now += STEP;
    await watcher.sampleNow('c', JOB);
    expect(events().filter((k) => k === 'store-answers')).toHaveLength(1);
    now += 3 * STEP;
    await watcher.sampleNow('c', JOB);
    const after = history.samples.window('c', JOB, 0, Infinity);
    expect(after.at(-1)!.source).toBe('prometheus');
    expect(after.at(-1)!.t).toBeGreaterThan(during.at(-1)!.t);
  });

  it('a store it cannot reach in this session (no secret) is said as a silence, and the JobManager is sampled', async () => {
    const storeSampling = async () => {
      throw new EngineError('unauthorized', 'No token for the metrics store http://prom:9090 in this session: edit the cluster to enter it again.');
    };
    const { history, watcher } = await watching(() => START + 60_000, { storeSampling });
    await watcher.sampleNow('c', JOB);
    expect(history.events.list('c', JOB).find((e) => e.kind === 'store-silent')?.message).toBe(
      'The metrics store does not answer (No token for the metrics store http://prom:9090 in this session: edit the cluster to enter it again.): the console samples the JobManager until it does.',
    );
    expect(history.samples.window('c', JOB, 0, Infinity).at(-1)?.source).toBeUndefined();
  });
});
