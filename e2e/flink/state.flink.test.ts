import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateReport } from '../../engine/cli/state-command.ts';
import type { StateVertexView } from '../../engine/contracts/state.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';
import { cancelQuietly, jobDetails, runTestJob, waitState } from './testJobs.ts';
import { startWebUiPoller, type WebUiPoller } from './web-ui-poller.ts';

/**
 * The State view on a real Flink: the test job's StateGrowthJob keeps every key it sees (no TTL) on RocksDB with its
 * native metrics on, new keys arriving at a known rate. `flink-ops state --json` must name suspect B, report the sizes
 * Flink reports for the same checkpoints and the RocksDB figures Flink reports at the same moment — with another
 * client polling the JobManager as the Web UI does — and bytes per key and growth that match what the job stores.
 */
const cluster = readFlinkCluster();
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../engine/cli/flink-ops.mjs');

const KEYS_PER_S = 400;
const VALUE_BYTES = 256;
const CHECKPOINT_MS = 3_000;
/** What the job stores per key: its `long` key and its `byte[VALUE_BYTES]` value. */
const STORED_PER_KEY = 8 + VALUE_BYTES;
/**
 * Completed checkpoints before the console is asked: 45 s of keys. Bytes per key divide the newest checkpoint's size by
 * RocksDB's key estimate as the JobManager's metric store last fetched it, up to ~13 s earlier (its 10 s refresh, on
 * the 3 s of the Web UI's polls): over 45 s of keys that lag inflates bytes per key by 45 / 32 = 1.4× at worst; over
 * 20 s it could pass 2×.
 */
const WAIT_CHECKPOINTS = 15;
/** The analysis is of high confidence from 6 checkpoints in its window; the JobManager keeps the last 10. */
const CHECKPOINTS = 6;

const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

function cli(args: string[], timeoutMs = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

let jobId: string;
let rememberId: string;
let dataDir: string;
let poller: WebUiPoller;

/** The console's own path: `flink-ops state --json`, with an empty data folder (so from what the JobManager keeps). */
async function stateNow(): Promise<{ report: StateReport; remember: StateVertexView }> {
  const result = await cli(['state', '--url', cluster.restUrl, '--job', jobId, '--json', '--data-dir', dataDir]);
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as StateReport;
  const remember = report.state.vertices.find((v) => v.vertexId === rememberId);
  expect(remember, `the State view has the remember vertex: ${report.state.vertices.map((v) => v.name).join(', ')}`).toBeDefined();
  return { report, remember: remember! };
}

interface FlinkRocksDb {
  estimateNumKeys: number;
  estimateLiveDataSize: number;
  totalSstFilesSize: number;
  /** Per subtask, its RocksDB instance's block cache (the same figure in each of its column families). */
  blockCacheBySubtask: number[];
  /** Records into `remember`: every one a new key. */
  keysArrived: number;
}

/** Flink's own RocksDB figures of `remember` now: its metric store's values, straight from the REST API. */
async function flinkRocksDbNow(): Promise<FlinkRocksDb> {
  const base = `/jobs/${jobId}/vertices/${rememberId}`;
  const listed = await get<Array<{ id: string }>>(`${base}/subtasks/metrics`);
  const named = (property: string) => listed.map((m) => m.id).filter((id) => id.endsWith(`.rocksdb_${property}`));
  const [keys, live, sst, cache] = ['estimate-num-keys', 'estimate-live-data-size', 'total-sst-files-size', 'block-cache-usage'].map(named);
  const sums = await get<Array<{ id: string; sum: number }>>(`${base}/subtasks/metrics?get=${[...keys, ...live, ...sst, 'numRecordsIn'].join(',')}&agg=sum`);
  const sumOf = (ids: string[]) => sums.filter((m) => ids.includes(m.id)).reduce((total, m) => total + m.sum, 0);
  const blockCacheBySubtask = await Promise.all(
    [0, 1].map(async (k) => {
      const values = await get<Array<{ id: string; value: string }>>(`${base}/subtasks/${k}/metrics?get=${cache.join(',')}`);
      return Math.max(...values.map((m) => Number(m.value)));
    }),
  );
  return {
    estimateNumKeys: sumOf(keys),
    estimateLiveDataSize: sumOf(live),
    totalSstFilesSize: sumOf(sst),
    blockCacheBySubtask,
    keysArrived: sumOf(['numRecordsIn']),
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-state-test-'));
  jobId = await runTestJob(cluster, 2, {
    entryClass: 'dev.flinkops.testjob.StateGrowthJob',
    programArgs: ['--keys-per-s', String(KEYS_PER_S), '--value-bytes', String(VALUE_BYTES), '--checkpoint-ms', String(CHECKPOINT_MS), '--parallelism', '2'],
  });
  poller = startWebUiPoller(cluster.restUrl, jobId);
  const details = await jobDetails(cluster, jobId);
  rememberId = details.vertices.find((v) => v.name.startsWith('remember'))!.id;
  await eventually(
    async () => {
      const statistics = await get<{ counts: { completed: number } }>(`/jobs/${jobId}/checkpoints`);
      return statistics.counts.completed >= WAIT_CHECKPOINTS ? true : undefined;
    },
    `${WAIT_CHECKPOINTS} completed checkpoints of the state-growth job`,
    120_000,
  );
}, 180_000);

afterAll(async () => {
  await poller?.stop();
  if (jobId) {
    await cancelQuietly(cluster, jobId);
    // its 2 slots free again before the next suite asks for some
    await waitState(cluster, jobId, 'CANCELED');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe(`State on a real Flink ${cluster.version}: keys that never expire, on RocksDB with its native metrics on`, () => {
  it('names suspect B: every subtask of the keyed vertex grows, without a plateau; RocksDB is on', async () => {
    const { report, remember } = await stateNow();
    expect(report.source).toBe('cluster');
    expect(report.state.window.checkpoints).toBeGreaterThanOrEqual(CHECKPOINTS);
    expect(report.state.suspect, report.state.sentence).toBe('B');
    expect(report.state.vertexId).toBe(rememberId);
    expect(report.state.sentence).toContain('(suspect B)');
    expect(remember.keyed).toBe(true);
    expect(remember.trend).toBe('growing');
    expect(remember.growthPerHour).toBeGreaterThan(0);
    expect(remember.subtasks.map((s) => s.trend)).toEqual(['growing', 'growing']);
    expect(remember.subtasks.map((s) => s.keyGroups)).toEqual([{ start: 0, end: 63 }, { start: 64, end: 127 }]);
    expect(report.state.projection?.vertexId).toBe(rememberId);
    // No --capacity: the limit is the tightest TaskManager's managed memory per slot, as Flink's /taskmanagers says.
    const { taskmanagers } = await get<{ taskmanagers: Array<{ slotsNumber: number; memoryConfiguration: { managedMemory: number } }> }>('/taskmanagers');
    const perSlot = Math.min(...taskmanagers.map((tm) => Math.floor(tm.memoryConfiguration.managedMemory / tm.slotsNumber)));
    expect(report.state.projection).toMatchObject({ targetBytes: perSlot, targetSource: expect.stringMatching(/^a TaskManager's managed memory per slot: /) });
    expect(report.state.rocksdb.status).toBe('on');
    expect(remember.keyCountSource).toBe('rocksdb');
  });

  it("per subtask, the sizes of every checkpoint equal what Flink's REST reports for that checkpoint", async () => {
    const { remember } = await stateNow();
    let compared = 0;
    for (const point of remember.series) {
      // Flink keeps the statistics of its last `web.checkpoints.history` (10) checkpoints: older ones are gone
      const response = await fetch(`${cluster.restUrl}/jobs/${jobId}/checkpoints/details/${point.checkpointId}/subtasks/${rememberId}`);
      if (response.status === 404) continue;
      const flink = (await response.json()) as { state_size: number; subtasks: Array<{ index: number; state_size: number; checkpointed_size: number }> };
      const what = `checkpoint ${point.checkpointId}`;
      expect(point.totalBytes, `${what}: the vertex's full size`).toBe(flink.state_size);
      expect(point.subtaskBytes, `${what}: per subtask`).toEqual([...flink.subtasks].sort((a, b) => a.index - b.index).map((s) => s.state_size));
      compared++;
    }
    // a checkpoint or two may have completed since, pushing the oldest out of Flink's history
    expect(compared, 'checkpoints compared with Flink').toBeGreaterThanOrEqual(Math.max(CHECKPOINTS, remember.series.length - 2));
    // The subtasks' figures are the newest checkpoint's: full and written sizes (full checkpoints: the same)
    const newest = remember.series[remember.series.length - 1];
    const flink = await get<{ subtasks: Array<{ index: number; state_size: number; checkpointed_size: number }> }>(`/jobs/${jobId}/checkpoints/details/${newest.checkpointId}/subtasks/${rememberId}`);
    const bySubtask = [...flink.subtasks].sort((a, b) => a.index - b.index);
    expect(remember.subtasks.map((s) => s.stateBytes)).toEqual(bySubtask.map((s) => s.state_size));
    expect(remember.subtasks.map((s) => s.checkpointedBytes)).toEqual(bySubtask.map((s) => s.checkpointed_size));
    expect(remember.totalBytes).toBe(newest.totalBytes);
    expect(poller.requests()).toBeGreaterThan(0);
  });

  it("RocksDB's figures equal Flink's own metric values at the same moment", async () => {
    // "The same moment": Flink's figures read before and after the console's, unchanged in between (no refresh of the
    // JobManager's metric store fell inside: the keys keep arriving, so every refresh changes them).
    let compared = 0;
    for (let attempt = 0; attempt < 15 && compared === 0; attempt++) {
      const before = await flinkRocksDbNow();
      const { report } = await stateNow();
      const after = await flinkRocksDbNow();
      if (JSON.stringify(before) !== JSON.stringify(after)) continue;
      const ours = report.state.rocksdb.vertices.find((v) => v.vertexId === rememberId);
      expect(ours, `attempt ${attempt}: RocksDB figures of remember`).toBeDefined();
      expect(ours!.estimateNumKeys, `attempt ${attempt}: estimate-num-keys`).toBe(before.estimateNumKeys);
      expect(ours!.estimateLiveDataSize, `attempt ${attempt}: estimate-live-data-size`).toBe(before.estimateLiveDataSize);
      expect(ours!.totalSstFilesSize, `attempt ${attempt}: total-sst-files-size`).toBe(before.totalSstFilesSize);
      // one cache per RocksDB instance, each of its column families reporting it: counted once per subtask
      expect(ours!.blockCacheUsage, `attempt ${attempt}: block-cache-usage`).toBe(before.blockCacheBySubtask.reduce((a, b) => a + b, 0));
      // RocksDB's estimate against the keys that really arrived (each record is a new key), from the same refresh
      expect(before.estimateNumKeys / before.keysArrived, `estimate-num-keys ${before.estimateNumKeys} vs ${before.keysArrived} keys arrived`).toBeGreaterThan(0.75);
      expect(before.estimateNumKeys / before.keysArrived).toBeLessThanOrEqual(1.05);
      console.info(`estimate-num-keys ${before.estimateNumKeys} of ${before.keysArrived} keys arrived; ${before.estimateLiveDataSize} B live data, ${before.totalSstFilesSize} B in SST files, block cache ${before.blockCacheBySubtask.join(' + ')} B`);
      compared++;
    }
    expect(compared, "a moment when Flink's figures stood still around the console's request").toBe(1);
  });

  it('bytes per key within 2× of what the job stores; growth within 2× of the key arrival rate × bytes per key', async () => {
    const { remember } = await stateNow();
    expect(remember.bytesPerKey, "bytes per key (RocksDB's estimate-num-keys on)").not.toBeNull();
    expect(remember.growthPerHour).not.toBeNull();
    const perKey = remember.bytesPerKey!;
    const growth = remember.growthPerHour!;
    console.info(`state ${remember.totalBytes} B, ${perKey.toFixed(1)} B per key (${remember.keyCount} keys; the job stores ${STORED_PER_KEY}), growth ${Math.round(growth)} B/h (expected ${KEYS_PER_S * 3600 * STORED_PER_KEY})`);
    // A full checkpoint writes each entry in Flink's own format: the key (8 B) and value (4 B of length + 256 B) plus a
    // key group prefix, the namespace and the lengths, ~270 B; the key estimate lags the checkpoint (WAIT_CHECKPOINTS)
    // and runs up to ~10% low: 1.045 × 1.4 × 1.1 = 1.6× at worst, within the 2× bound.
    expect(perKey).toBeGreaterThanOrEqual(STORED_PER_KEY / 2);
    expect(perKey).toBeLessThanOrEqual(STORED_PER_KEY * 2);
    const expected = KEYS_PER_S * 3600 * perKey;
    expect(growth, `growth ${growth} B/h vs ${KEYS_PER_S} keys/s × ${perKey} B`).toBeGreaterThanOrEqual(expected / 2);
    expect(growth).toBeLessThanOrEqual(expected * 2);
    expect(growth, `growth ${growth} B/h vs ${KEYS_PER_S} keys/s × the ${STORED_PER_KEY} B the job stores`).toBeGreaterThanOrEqual((KEYS_PER_S * 3600 * STORED_PER_KEY) / 2);
    expect(growth).toBeLessThanOrEqual(KEYS_PER_S * 3600 * STORED_PER_KEY * 2);
  });
});
