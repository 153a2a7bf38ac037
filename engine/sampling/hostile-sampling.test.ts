import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, createClient } from '../clusters/cluster-connections.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { HistoryStore } from '../history/history-store.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { JobWatcher, MAX_BACKOFF, nextBackoff, nextSampleDelay } from './job-watcher.ts';
import { VERTICES_PER_DEADLINE } from './sample-job.ts';
import { MAX_READING_REQUESTS } from './sampling-plan.ts';

/**
 * A JobManager whose vertex endpoints stall (they never answer): one sample of a 100-vertex job must end after a
 * bounded number of request deadlines — it took 100 × 2 requests / 3 background slots × 1 s = 67 s when every request
 * waited its turn with a deadline of its own — and say which vertices it could not read.
 */
const dirs = tempDirs('flink-ops-hostile-sampling-');
const servers: HostileServer[] = [];
const stores: HistoryStore[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const s of stores.splice(0)) await s.close();
});
afterEach(() => dirs.removeAll());

const JOB = 'a'.repeat(32);
const VERTICES = 100;
const TIMEOUT_MS = 300;
/** The client's background requests in flight at once (4 slots, one kept for pages). */
const BACKGROUND_SLOTS = 3;
const vertexId = (i: number) => i.toString(16).padStart(32, '0');

async function stallingJobManager(): Promise<{ url: string; vertexRequests: () => number }> {
  let vertexRequests = 0;
  const details = {
    jid: JOB,
    name: 'stalling',
    state: 'RUNNING',
    'start-time': 1,
    'end-time': -1,
    duration: 1000,
    maxParallelism: 128,
    vertices: Array.from({ length: VERTICES }, (_, i) => ({ id: vertexId(i + 1), name: `op-${i + 1}`, parallelism: 4, status: 'RUNNING', tasks: { RUNNING: 4 } })),
    plan: { jid: JOB, name: 'stalling', nodes: [] },
  };
  const server = await startHostileServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === `/jobs/${JOB}`) return json(res, 200, details);
    if (url.pathname.startsWith(`/jobs/${JOB}/vertices/`)) {
      vertexRequests++;
      return; // never answers
    }
    json(res, 404, { errors: ['Not found'] });
  });
  servers.push(server);
  return { url: server.url, vertexRequests: () => vertexRequests };
}

function watcherOn(url: string): JobWatcher {
  const store = HistoryStore.open(dirs.make());
  stores.push(store);
  const connection = connect(createClient({ name: 'hostile', url, auth: { kind: 'none' }, timeoutMs: TIMEOUT_MS }, undefined));
  return new JobWatcher({ history: store, connection: () => connection });
}

describe('a sample against vertex endpoints that stall', () => {
  it('a full sample of 100 vertices ends after ⌈100 / 25⌉ shared deadlines, each vertex not read marked so', async () => {
    const { url, vertexRequests } = await stallingJobManager();
    const sample = (await watcherOn(url).sampleNow('hostile', JOB))!;
    expect(sample.vertices).toHaveLength(VERTICES);
    expect(sample.vertices.every((v) => v.subtasks === null && v.unavailable !== undefined)).toBe(true);
    // Waves of one request deadline each, in the background slots, until the sample's own deadline: the rest never sent.
    const deadlines = Math.ceil(VERTICES / VERTICES_PER_DEADLINE);
    expect(vertexRequests()).toBeLessThanOrEqual((deadlines + 1) * BACKGROUND_SLOTS);
    const notRead = sample.vertices.filter((v) => /not read within the sample's deadline \(1200 ms\)/.test(v.unavailable!));
    expect(notRead.length).toBeGreaterThanOrEqual(VERTICES - (deadlines + 1) * BACKGROUND_SLOTS);
  });

  it('the loop\'s sample reads 25 vertices at most under one deadline, marks the rest as not read yet, and backs off', async () => {
    const { url, vertexRequests } = await stallingJobManager();
    const watcher = watcherOn(url);
    const sample = (await watcher.sampleNow('hostile', JOB, { planned: true }))!;
    expect(sample.vertices).toHaveLength(VERTICES);
    // The graph's aggregated metrics (one shared deadline) and the readings (another): one wave each, two at most.
    expect(vertexRequests()).toBeLessThanOrEqual(2 * 2 * BACKGROUND_SLOTS);
    expect(sample.vertices.every((v) => v.subtasks === null)).toBe(true);
    const read = sample.vertices.filter((v) => /not read within the sample's deadline \(300 ms\)/.test(v.unavailable ?? ''));
    expect(read.length).toBeLessThanOrEqual(MAX_READING_REQUESTS / 2);
    expect(read.length).toBeGreaterThan(0);
    // The others say why they have no figures: the graph's metrics request did not answer.
    expect(sample.vertices.filter((v) => v.unavailable === undefined)).toEqual([]);
    // Slow: the next samples come later and later, up to MAX_BACKOFF intervals apart, and at the interval again once
    // a sample ends within its deadline.
    let backoff = 1;
    for (let i = 0; i < 5; i++) backoff = nextBackoff(backoff, true);
    expect(backoff).toBe(MAX_BACKOFF);
    expect(nextSampleDelay(10_000, 600, backoff)).toBe(80_000 - 600);
    expect(nextBackoff(backoff, false)).toBe(1);
  });
});
