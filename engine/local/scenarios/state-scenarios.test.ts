import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { createClient } from '../../clusters/cluster-connections.ts';
import type { JobState, StateOptions } from '../../contracts/state.ts';
import { HistoryStore } from '../../history/history-store.ts';
import { jobState } from '../../state/job-state.ts';
import { recordCheckpointsNow } from '../../state/record-checkpoints-now.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { tempDirs } from '../testing/engine-test-kit.ts';
import { ManualClock } from '../time/clock.ts';
import { loadScenario } from './scenario.ts';

/**
 * The state scenarios of the stateful-processing chapter, each run for a few virtual minutes with checkpoints every
 * 10 s, then read back as the console reads a job it never watched (one sample of the graph, the checkpoints the
 * JobManager still keeps, with their per-subtask details) and classified by the state analysis. The figures they must
 * show are the arithmetic of each scenario's header.
 */
const dirs = tempDirs('state-scenarios-');
const CLUSTER = 'local-engine';

afterAll(() => dirs.removeAll());

interface Run {
  handle: LocalEngineHandle;
  jobId: string;
  checkpointDir: string;
  state: JobState;
}

/**
 * Runs `scenario` for `ms` of virtual time, ending at about the wall clock's now (the history keeps samples for a
 * day of the wall clock), and makes its State view. The caller closes the engine.
 */
async function runScenario(scenario: string, ms: number, options: StateOptions = {}): Promise<Run> {
  const checkpointDir = dirs.make();
  const handle = await startLocalEngine({ scenario, port: 0, time: 'manual', clock: new ManualClock(Date.now() - ms), checkpointDir, checkpointIntervalMs: 10_000 });
  handle.engine.advance(ms);
  const jobId = [...handle.engine.cluster.jobs.keys()][0];
  const store = HistoryStore.open(dirs.make());
  try {
    const client = createClient({ name: 'local', url: handle.url, auth: { kind: 'none' }, timeoutMs: 10_000 }, undefined);
    await recordCheckpointsNow(client, store, CLUSTER, jobId);
    const state = await jobState(store, null, CLUSTER, jobId, 10 * 60_000, options);
    return { handle, jobId, checkpointDir, state };
  } finally {
    await store.close();
  }
}

function vertexNamed(state: JobState, name: string) {
  const vertex = state.vertices.find((v) => v.name.startsWith(name));
  expect(vertex, `vertex ${name} in ${state.vertices.map((v) => v.name).join(', ')}`).toBeDefined();
  return vertex!;
}

const HOUR_S = 3600;

describe('the state scenarios, classified by the state analysis', () => {
  it('state-whale: one subtask of failed-logins holds most of the state (suspect A), its key groups named', async () => {
    const { handle, state } = await runScenario('state-whale', 180_000);
    try {
      expect(state.suspect).toBe('A');
      const v = vertexNamed(state, 'failed-logins');
      expect(state.vertexId).toBe(v.vertexId);
      // The whale's key group decides its subtask; its list grows by 200 failed logins/s × 76.7 B (the header).
      const whale = computeKeyGroupRangeForOperatorIndex(128, 4, v.hotSubtasks[0]);
      expect(v.hotSubtasks).toHaveLength(1);
      expect(v.subtasks[v.hotSubtasks[0]].share).toBeGreaterThan(0.95);
      expect(state.sentence).toContain(`key groups ${whale.startKeyGroup}–${whale.endKeyGroup}`);
      expect(v.subtasks[v.hotSubtasks[0]].growthPerHour! / (200 * 76.7 * HOUR_S)).toBeGreaterThan(0.9);
      expect(v.subtasks[v.hotSubtasks[0]].growthPerHour! / (200 * 76.7 * HOUR_S)).toBeLessThan(1.1);
    } finally {
      await handle.close();
    }
  }, 60_000);

  it("state-no-ttl: every subtask grows, without a plateau (suspect B), at the header's rate within 10%", async () => {
    const { handle, state } = await runScenario('state-no-ttl', 150_000);
    try {
      expect(state.suspect).toBe('B');
      const v = vertexNamed(state, 'failed-logins');
      expect(v.subtasks.every((s) => s.trend === 'growing')).toBe(true);
      // 200 new keys/s × 60 B = 43,200,000 B/h for the vertex, a quarter of it for each subtask.
      expect(Math.abs(v.growthPerHour! / 43_200_000 - 1)).toBeLessThan(0.1);
      expect(state.projection).not.toBeNull();
      expect(state.projection!.vertexId).toBe(v.vertexId);
      expect(Math.abs(state.projection!.growthPerHour / 10_800_000 - 1)).toBeLessThan(0.1);
      expect(state.sentence).toMatch(/^Every subtask of failed-logins grows steadily/);
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('state-ttl: the same traffic with a 60 s TTL levels off near 1 MB: bounded', async () => {
    const { handle, state } = await runScenario('state-ttl', 240_000);
    try {
      expect(state.suspect).toBe('bounded');
      const v = vertexNamed(state, 'failed-logins');
      expect(v.trend).toBe('flat');
      // ~12,000 live keys × 85 B, plus the keys expired but not yet cleaned up.
      expect(v.totalBytes).toBeGreaterThan(1_000_000);
      expect(v.totalBytes).toBeLessThan(1_150_000);
      expect(state.projection).toBeNull();
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('state-raw-list: with the key count given, far more bytes per key than a counter needs (suspect C)', async () => {
    const { handle, state } = await runScenario('state-raw-list', 150_000, { keyCount: 2000 });
    try {
      expect(state.suspect).toBe('C');
      const v = vertexNamed(state, 'failed-logins');
      expect(v.keyCountSource).toBe('operator');
      expect(v.bytesPerKey).toBeGreaterThan(1024);
      // 400 raw events/s × 76.7 B ≈ 110 MB/h over the vertex.
      expect(Math.abs(v.growthPerHour! / (400 * 76.7 * HOUR_S) - 1)).toBeLessThan(0.1);
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('state-raw-list without a key count: growth on every subtask is all the figures show (B), C not ruled out', async () => {
    const { handle, state } = await runScenario('state-raw-list', 120_000);
    try {
      expect(state.suspect).toBe('B');
      expect(state.confidence.reasons.join(' ')).toMatch(/raw events \(C\) cannot be ruled out/);
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('state-broadcast: the same table on every subtask of blocklist-filter, total = 4 × table (suspect D)', async () => {
    const { handle, state, jobId, checkpointDir } = await runScenario('state-broadcast', 90_000);
    try {
      expect(state.suspect).toBe('D');
      const v = vertexNamed(state, 'blocklist-filter');
      expect(state.vertexId).toBe(v.vertexId);
      expect(v.broadcastInput).toBe(true);
      expect(v.keyed).toBe(false);
      const sizes = v.subtasks.map((s) => s.stateBytes!);
      expect(new Set(sizes).size).toBe(1);
      // 20,000 entries × 98 B each, on every subtask.
      expect(Math.abs(sizes[0] / 1_960_000 - 1)).toBeLessThan(0.01);
      expect(v.totalBytes).toBe(4 * sizes[0]);

      // Honest sizes: each subtask's reported size is what its snapshot file holds (the newest checkpoint is kept).
      const retained = readdirSync(path.join(checkpointDir, jobId)).filter((d) => d.startsWith('chk-'));
      expect(retained).toHaveLength(1);
      const operatorDir = path.join(checkpointDir, jobId, retained[0], v.vertexId);
      const checkpointId = Number(retained[0].slice('chk-'.length));
      const details = (await (await fetch(`${handle.url}/jobs/${jobId}/checkpoints/details/${checkpointId}/subtasks/${v.vertexId}`)).json()) as {
        subtasks: Array<{ index: number; state_size: number; checkpointed_size: number }>;
      };
      for (const s of details.subtasks) {
        const written = statSync(path.join(operatorDir, `op-${s.index}.json`)).size;
        expect(s.state_size).toBe(written);
        expect(s.checkpointed_size).toBe(written);
      }
    } finally {
      await handle.close();
    }
  }, 60_000);

  it("a keyed subtask's reported size is the sum of its key groups' files", async () => {
    const { handle, jobId, checkpointDir, state } = await runScenario('state-whale', 40_000);
    try {
      const v = vertexNamed(state, 'failed-logins');
      const [retained] = readdirSync(path.join(checkpointDir, jobId)).filter((d) => d.startsWith('chk-'));
      const checkpointId = Number(retained.slice('chk-'.length));
      const details = (await (await fetch(`${handle.url}/jobs/${jobId}/checkpoints/details/${checkpointId}/subtasks/${v.vertexId}`)).json()) as {
        subtasks: Array<{ index: number; state_size: number }>;
      };
      const files = readdirSync(path.join(checkpointDir, jobId, retained, v.vertexId));
      for (const s of details.subtasks) {
        const range = computeKeyGroupRangeForOperatorIndex(128, 4, s.index);
        const mine = files.filter((f) => {
          const kg = Number(/^kg-(\d+)\.json$/.exec(f)?.[1] ?? -1);
          return kg >= range.startKeyGroup && kg <= range.endKeyGroup;
        });
        expect(mine.length).toBeGreaterThan(0);
        const bytes = mine.reduce((sum, f) => sum + statSync(path.join(checkpointDir, jobId, retained, v.vertexId, f)).size, 0);
        expect(s.state_size).toBe(bytes);
      }
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('each scenario names the failed-logins job and its variant', () => {
    for (const name of ['state-whale', 'state-no-ttl', 'state-raw-list', 'state-broadcast', 'state-ttl']) {
      const scenario = loadScenario(name);
      expect(scenario.job).toBe('failed-logins');
      expect(scenario.logins).toBeDefined();
    }
    expect(loadScenario('state-ttl').logins!.ttlMs).toBe(60_000);
    expect(loadScenario('state-no-ttl').logins!.ttlMs).toBeUndefined();
  });
});
