import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { mulberry32, type Random } from '../local/time/random.ts';
import { HISTORY_SCHEMA_VERSION, HistoryStore } from './history-store.ts';
import type { CheckpointRecord } from './checkpoint-history.ts';
import { SUBTASK_ACKNOWLEDGED, SUBTASK_UNALIGNED, checkpointSubtaskRows, emptyCheckpointSubtasks } from './checkpoint-subtasks.ts';
import { rollupOf } from './job-sample.ts';
import { encodeVertexSample } from './sample-codec.ts';
import { syntheticSample, vertexId } from './testing/sample-fixtures.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const dirs = tempDirs('flink-ops-history-');
afterAll(() => dirs.removeAll());
const JOB = 'a'.repeat(32);

describe('samples', () => {
  it('keep every column exactly, NaN included, and read back by window, by vertex and latest', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => 10_000 });
    for (const t of [1_000, 2_000, 3_000]) await store.samples.append(syntheticSample({ t }));

    const window = store.samples.window('c1', JOB, 1_500, 3_000);
    expect(window.map((s) => s.t)).toEqual([2_000, 3_000]);
    expect(window[0]).toEqual(syntheticSample({ t: 2_000 }));
    expect(Number.isNaN(window[0].vertices[0].subtasks!.watermark[0])).toBe(true);

    const series = store.samples.vertexWindow('c1', JOB, vertexId(1), 0, 10_000);
    expect(series.map((s) => s.t)).toEqual([1_000, 2_000, 3_000]);
    expect(series[2].vertex).toEqual(syntheticSample({ t: 3_000 }).vertices[1]);

    expect(store.samples.latest('c1', JOB)?.t).toBe(3_000);
    expect(store.samples.jobs('c1')).toEqual([expect.objectContaining({ jobId: JOB, samples: 3, firstSampleAt: 1_000, lastSampleAt: 3_000 })]);
    expect(store.samples.jobs('c2')).toEqual([]);
    await store.close();
  });

  it('replace a sample written again at the same time, keeping the first and last sample where they are', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => 10_000 });
    for (const t of [1_000, 2_000, 3_000]) await store.samples.append(syntheticSample({ t }));
    await store.samples.append({ ...syntheticSample({ t: 2_000 }), source: 'prometheus' });
    expect(store.samples.jobs('c1')).toEqual([expect.objectContaining({ samples: 3, firstSampleAt: 1_000, lastSampleAt: 3_000 })]);
    expect(store.samples.heads('c1', JOB, 0, 4_000).map((h) => h.source)).toEqual([undefined, 'prometheus', undefined]);
    await store.close();
  });

  it('keep each vertex\'s rollup in the head, so a time axis reads no column', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => 10_000 });
    const sample = syntheticSample({ t: 1_000 });
    await store.samples.append(sample);
    const [head] = store.samples.heads('c1', JOB, 0, 2_000);
    expect(head.vertices.map((v) => v.rollup)).toEqual(sample.vertices.map((v) => rollupOf(v)));
    expect(head.vertices[1].rollup).toMatchObject({ busyMax: 8, recordsInPerSecond: 10 });
    await store.close();
  });

  it('keep where a sample came from: read from Prometheus, or sampled from the JobManager (no source)', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => 10_000 });
    await store.samples.append({ ...syntheticSample({ t: 1_000 }), source: 'prometheus' });
    await store.samples.append(syntheticSample({ t: 2_000 }));
    const [fromPrometheus, sampled] = store.samples.window('c1', JOB, 0, 3_000);
    expect(fromPrometheus).toEqual({ ...syntheticSample({ t: 1_000 }), source: 'prometheus' });
    expect(sampled).toEqual(syntheticSample({ t: 2_000 }));
    expect(sampled).not.toHaveProperty('source');
    expect(store.samples.heads('c1', JOB, 0, 3_000).map((h) => h.source)).toEqual(['prometheus', undefined]);
    await store.close();
  });

  it('keep a vertex whose metrics were unavailable as such, not as zeros', async () => {
    const store = HistoryStore.open(dirs.make(), { now: () => 10 });
    const sample = syntheticSample({ t: 5 });
    sample.vertices[1] = { ...sample.vertices[1], subtasks: null, unavailable: 'GET /jobs/:jobid/vertices/:vertexid answered 503' };
    await store.samples.append(sample);
    expect(store.samples.window('c1', JOB, 0, 10)[0].vertices[1]).toEqual(sample.vertices[1]);
    await store.close();
  });

  it('drop samples older than the retention as they write, job by job', async () => {
    let now = 0;
    const store = HistoryStore.open(dirs.make(), { now: () => now, retention: { sampleMaxAgeMs: 10_000 } });
    for (let t = 0; t <= 30_000; t += 5_000) {
      now = t;
      await store.samples.append(syntheticSample({ t }));
    }
    expect(store.samples.heads('c1', JOB, -Infinity, Infinity).map((h) => h.t)).toEqual([20_000, 25_000, 30_000]);
    expect(store.samples.vertexWindow('c1', JOB, vertexId(0), -Infinity, Infinity)).toHaveLength(3);
    expect(store.samples.job('c1', JOB)).toMatchObject({ samples: 3, firstSampleAt: 20_000 });
    await store.close();
  });

  it('stay under the size bound by dropping the oldest samples of any job', async () => {
    const bytesPerSample = syntheticSample({ t: 0 }).vertices.reduce((sum, v) => sum + encodeVertexSample(v).length, 0);
    const bounded = HistoryStore.open(dirs.make(), { now: () => 0, retention: { maxSampleBytes: bytesPerSample * 4 } });
    for (let t = 1; t <= 3; t++) await bounded.samples.append(syntheticSample({ t, jobId: 'b'.repeat(32) }));
    for (let t = 10; t <= 12; t++) await bounded.samples.append(syntheticSample({ t }));
    const kept = bounded.samples.jobs().map((j) => [j.jobId[0], j.samples]);
    expect(kept.sort()).toEqual([['a', 3], ['b', 1]]);
    expect(bounded.samples.heads('c1', 'b'.repeat(32), -Infinity, Infinity).map((h) => h.t)).toEqual([3]);
    await bounded.close();
  });
});

describe('checkpoints', () => {
  const record = (id: number, trigger: number): CheckpointRecord => ({
    id,
    status: 'COMPLETED',
    isSavepoint: false,
    savepointFormat: null,
    checkpointType: 'CHECKPOINT',
    triggerTimestamp: trigger,
    latestAckTimestamp: trigger + 50,
    endToEndDurationMs: 50,
    checkpointedBytes: 1024,
    stateBytes: 1024,
    alignmentBufferedBytes: 0,
    processedBytes: 0,
    persistedBytes: 0,
    numSubtasks: 4,
    numAcknowledgedSubtasks: 4,
    externalPath: null,
    discarded: false,
    failureTimestamp: null,
    failureMessage: null,
    firstSeenAt: trigger,
    updatedAt: trigger,
  });

  it('keep both runs of an id after a JobManager restarts counting, and only the newest N per job', async () => {
    const store = HistoryStore.open(dirs.make(), { retention: { checkpointsPerJob: 3 } });
    await store.checkpoints.put('c1', JOB, record(1, 100));
    await store.checkpoints.put('c1', JOB, record(2, 200));
    await store.checkpoints.put('c1', JOB, { ...record(2, 200), status: 'FAILED', failureMessage: 'Checkpoint expired before completing.' });
    await store.checkpoints.put('c1', JOB, record(1, 900)); // the JobManager lost its state and counts from 1 again
    expect(store.checkpoints.list('c1', JOB).map((c) => [c.id, c.triggerTimestamp, c.status])).toEqual([
      [1, 100, 'COMPLETED'],
      [2, 200, 'FAILED'],
      [1, 900, 'COMPLETED'],
    ]);
    expect(store.checkpoints.get('c1', JOB, 1)?.triggerTimestamp).toBe(900);
    await store.checkpoints.put('c1', JOB, record(2, 1000));
    expect(store.checkpoints.recent('c1', JOB, 10).map((c) => c.triggerTimestamp)).toEqual([1000, 900, 200]);
    await store.close();
  });

  it('keep per-subtask details as exact columns for the newest N checkpoints, and drop them with their checkpoint', async () => {
    const store = HistoryStore.open(dirs.make(), { retention: { checkpointsPerJob: 3, checkpointDetailsPerJob: 2 } });
    const columns = (seed: number) => {
      const c = emptyCheckpointSubtasks(3);
      c.figures.startDelayMs.set([seed, seed + 1, Number.NaN]);
      c.figures.stateBytes.set([10, 20, 30]);
      c.flags.set([SUBTASK_ACKNOWLEDGED, SUBTASK_ACKNOWLEDGED | SUBTASK_UNALIGNED, 0]);
      return c;
    };
    for (const id of [1, 2, 3]) {
      await store.checkpoints.putDetails('c1', JOB, record(id, id * 100), new Map([['v1', columns(id)], ['v2', columns(id * 10)]]));
    }
    expect(store.checkpoints.subtasks('c1', JOB, 100, 1, 'v1')).toBeUndefined(); // beyond the newest 2 with details
    expect(store.checkpoints.find('c1', JOB, 100, 1)).toBeDefined(); // the record itself stays
    expect(store.checkpoints.subtasks('c1', JOB, 300, 3, 'v2')).toEqual(columns(30));
    await store.checkpoints.put('c1', JOB, record(4, 400)); // the 4th record pushes the 1st out
    await store.checkpoints.putDetails('c1', JOB, record(5, 500), new Map([['v1', columns(5)]]));
    expect(store.checkpoints.list('c1', JOB).map((c) => c.id)).toEqual([3, 4, 5]);
    expect(store.checkpoints.subtasks('c1', JOB, 200, 2, 'v1')).toBeUndefined();
    expect(checkpointSubtaskRows(store.checkpoints.subtasks('c1', JOB, 500, 5, 'v1')!)[1]).toMatchObject({ startDelayMs: 6, stateBytes: 20, status: 'completed', unaligned: true });
    await store.close();
  });
});

describe('events and watches', () => {
  it('list a job\'s events in time order and keep watches across a reopen', async () => {
    const dir = dirs.make();
    const store = HistoryStore.open(dir);
    await store.events.append({ clusterId: 'c1', jobId: JOB, t: 20, kind: 'gap-ended', message: 'The cluster answers again.' });
    await store.events.append({ clusterId: 'c1', jobId: JOB, t: 10, kind: 'gap-started', message: 'The cluster is unreachable.' });
    await store.watches.put({ clusterId: 'c1', jobId: JOB, jobName: 'j', pinned: true, intervalMs: null, createdAt: 1, lastOpenedAt: 1 });
    await store.close();

    const reopened = HistoryStore.open(dir);
    expect(reopened.events.list('c1', JOB).map((e) => e.kind)).toEqual(['gap-started', 'gap-ended']);
    expect(reopened.watches.list()).toEqual([expect.objectContaining({ jobId: JOB, pinned: true })]);
    await reopened.close();
  });
});

describe('the store on disk', () => {
  it('refuses a store written by a newer console, naming the fix', async () => {
    const dir = dirs.make();
    const raw = open({ path: dir, compression: true, maxDbs: 32 });
    raw.openDB('meta', {}).putSync('schemaVersion', HISTORY_SCHEMA_VERSION + 1);
    await raw.close();
    expect(() => HistoryStore.open(dir)).toThrow(/written by a newer Flink Ops Console .*Upgrade the console, or use another data folder/);
  });

  // Seeded: a failure names its seed, and `HISTORY_CRASH_SEED=<seed> npx vitest run engine/history/history-store.test.ts`
  // draws the same kills again (their exact moment still depends on the machine's scheduling).
  const seed = Number(process.env.HISTORY_CRASH_SEED ?? 21);
  it(`loses at most the sample in flight when the writer is killed with SIGKILL, again and again (seed ${seed})`, async () => {
    const random = mulberry32(seed);
    const dir = dirs.make();
    let committed = 0;
    for (let round = 0; round < 12; round++) {
      // Kill after a random number of committed samples, at a random moment inside the next write.
      const target = committed + 1 + Math.floor(random() * 4);
      committed = await runWriterUntil(dir, target, random);
      const store = HistoryStore.open(dir, { retention: { sampleMaxAgeMs: Number.MAX_SAFE_INTEGER } });
      const times = store.samples.heads('c1', JOB, -Infinity, Infinity).map((h) => h.t);
      const context = `seed ${seed}, round ${round}, ${committed} samples reported committed`;
      // Every sample reported committed is there, complete and exact; at most one more (in flight) made it.
      expect(times.slice(0, committed), context).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
      expect(times.length - committed, context).toBeLessThanOrEqual(1);
      for (const sample of store.samples.window('c1', JOB, 1, times.length)) {
        expect(sample, `${context}, sample ${sample.t}`).toEqual(syntheticSample({ t: sample.t, vertices: 4, parallelism: 256 }));
      }
      committed = times.length;
      await store.close();
    }
  }, 120_000);
});

/** Starts the crash writer, SIGKILLs it once it has committed `target` samples (plus a random delay), returns what it reported. */
function runWriterUntil(dir: string, target: number, random: Random): Promise<number> {
  // Drawn up front: how often stdout reports must not change what the generator gives next.
  const killDelayMs = random() * 5;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'testing/crash-writer.ts'), dir, '256'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let reported = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = chunk.toString().trim().split('\n');
      reported = Math.max(reported, Number(lines[lines.length - 1]));
      if (reported >= target && child.exitCode === null) setTimeout(() => child.kill('SIGKILL'), killDelayMs);
    });
    child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(reported) : reject(new Error(`The writer exited on its own: ${stderr}`))));
  });
}
