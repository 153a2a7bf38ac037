import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assignToKeyGroup, computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { murmur3x64_128Hex } from '../../analysis/key-groups/murmur.ts';
import { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import { TimerQueue } from '../state/timer-service.ts';
import { ManualClock } from '../time/clock.ts';
import {
  CheckpointLoadError,
  externalPointerOf,
  FileSystemCheckpointStorage,
  loadCompletedCheckpoint,
  localPathOf,
  type SnapshotOperatorInfo,
} from './checkpoint-storage.ts';
import { decodeValue, encodeValue } from './json-codec.ts';
import { restoreKeyGroup, snapshotKeyGroup, type TimerServices } from './keyed-state-snapshot.ts';
import { assembleOperatorState, operatorStateSizesOf, planRestore } from './restore-assignment.ts';
import type { KeyGroupSnapshot } from './snapshot-model.ts';

const JOB = 'ee33243ed702a032130139b8b1dcacb7';
const ASSEMBLE = murmur3x64_128Hex('assemble');
const SOURCE = murmur3x64_128Hex('gateway-events');
const MAX_P = 128;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ckpt-storage-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function operators(parallelism: number): SnapshotOperatorInfo[] {
  return [
    { operatorId: SOURCE, uid: 'gateway-events', name: 'Source: gateway-events', parallelism, maxParallelism: MAX_P, keyed: false },
    { operatorId: ASSEMBLE, uid: 'assemble', name: 'assemble', parallelism, maxParallelism: MAX_P, keyed: true },
  ];
}

const SAMPLE: KeyGroupSnapshot = {
  entries: [
    { stateName: 'open', key: 'req-1', value: { tenant_id: 't1', start_ts: 5, $weird: 1 } },
    { stateName: 'window-contents', key: 't1', namespace: 60_000, value: { nano: 12n, requests: 2 } },
    { stateName: 'map', key: 7, value: new Map<unknown, unknown>([['a', new Set([1, 2])], [3n, Number.NaN]]) },
  ],
  timers: [{ service: 'user-timers', domain: 'EVENT_TIME', timestamp: 300_005, key: 'req-1', namespace: 0 }],
};

describe('json codec', () => {
  it('round-trips what JSON alone would lose', () => {
    const value = { m: new Map([[1n, [Infinity, -Infinity, undefined]]]), s: new Set(['x']), $tag: { $map: 'not a map' }, plain: [1, 'two', null] };
    expect(decodeValue(JSON.parse(JSON.stringify(encodeValue(value))))).toEqual(value);
    expect(() => encodeValue(() => 1)).toThrow(/plain data/);
  });
});

describe('FileSystemCheckpointStorage: layout and atomic completion', () => {
  it('writes chk-<n> with one file per (operator, key group), operator state per subtask and _metadata', () => {
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir });
    const writer = storage.beginCheckpoint(JOB, 1, 1000, operators(2));
    const kgBytes = writer.writeKeyGroup(ASSEMBLE, 35, SAMPLE);
    expect(writer.writeKeyGroup(ASSEMBLE, 36, { entries: [], timers: [] })).toBe(0);
    writer.writeOperatorState(SOURCE, 0, { splits: { mode: 'SPLIT_DISTRIBUTE', partitions: [{ split: 0, offset: 17 }] } });
    expect(existsSync(path.join(dir, JOB, 'chk-1')), 'invisible until complete').toBe(false);
    const done = writer.complete(1500);
    expect(done.path).toBe(path.join(dir, JOB, 'chk-1'));
    expect(done.externalPath).toBe(`file:${path.join(dir, JOB, 'chk-1')}`);
    expect(readdirSync(path.join(dir, JOB)).sort()).toEqual(['chk-1', 'shared', 'taskowned']);
    expect(readdirSync(done.path).sort()).toEqual(['_metadata', ASSEMBLE, SOURCE].sort());
    expect(readdirSync(path.join(done.path, ASSEMBLE))).toEqual(['kg-35.json']);
    const meta = JSON.parse(readFileSync(path.join(done.path, '_metadata'), 'utf8'));
    expect(meta).toMatchObject({ jobId: JOB, checkpointId: 1, triggerTimestamp: 1000, completedTimestamp: 1500, isSavepoint: false, snapshotFormat: 'CANONICAL' });
    expect(meta.operators[1]).toMatchObject({ uid: 'assemble', maxParallelism: 128, keyedState: [{ keyGroup: 35, bytes: kgBytes, entries: 3, timers: 1 }] });
    expect(meta.operators[1].keyGroupRanges[1]).toEqual({ startKeyGroup: 64, endKeyGroup: 127 });

    const loaded = loadCompletedCheckpoint(done.externalPath);
    expect(loaded.readKeyGroup(ASSEMBLE, 35)).toEqual(SAMPLE);
    expect(loaded.readKeyGroup(ASSEMBLE, 36)).toEqual({ entries: [], timers: [] });
    expect(loaded.readOperatorState(SOURCE, 0)).toEqual({ splits: { mode: 'SPLIT_DISTRIBUTE', partitions: [{ split: 0, offset: 17 }] } });
    expect(loaded.readOperatorState(SOURCE, 1)).toEqual({});
  });

  it('abort leaves nothing behind; writes after completion are refused', () => {
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir });
    const w = storage.beginCheckpoint(JOB, 1, 0, operators(1));
    w.writeKeyGroup(ASSEMBLE, 1, SAMPLE);
    w.abort();
    expect(readdirSync(path.join(dir, JOB)).sort()).toEqual(['shared', 'taskowned']);
    const w2 = storage.beginCheckpoint(JOB, 2, 0, operators(1));
    w2.complete(1);
    expect(() => w2.writeKeyGroup(ASSEMBLE, 1, SAMPLE)).toThrow(/already completed/);
    expect(() => storage.beginCheckpoint(JOB, 3, 0, operators(1)).writeKeyGroup(ASSEMBLE, 128, SAMPLE)).toThrow(/outside 0..127/);
    expect(() => storage.beginCheckpoint(JOB, 4, 0, operators(1)).writeKeyGroup('0'.repeat(32), 1, SAMPLE)).toThrow(/not part of snapshot/);
  });

  it('retains the last num-retained checkpoints and reports the discarded ones', () => {
    const discarded: number[] = [];
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir, numRetained: 2, onDiscard: (_job, id) => discarded.push(id) });
    for (let id = 1; id <= 4; id++) storage.beginCheckpoint(JOB, id, id, operators(1)).complete(id + 1);
    expect(discarded).toEqual([1, 2]);
    expect(storage.retained(JOB).map((c) => c.checkpointId)).toEqual([3, 4]);
    expect(storage.latest(JOB)?.checkpointId).toBe(4);
    expect(readdirSync(path.join(dir, JOB)).filter((n) => n.startsWith('chk-')).sort()).toEqual(['chk-3', 'chk-4']);
  });

  it('savepoints: savepoint-<jobId6>-<12 hex>, never subsumed, same layout', () => {
    const spDir = path.join(dir, 'savepoints');
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: path.join(dir, 'ck'), savepointDirectory: `file://${spDir}`, randomHex: () => 'a4be710cc718' });
    storage.beginCheckpoint(JOB, 1, 0, operators(1)).complete(1);
    const sp = storage.beginSavepoint(JOB, 2, 10, operators(1), { kind: 'SYNC_SAVEPOINT' });
    sp.writeKeyGroup(ASSEMBLE, 3, SAMPLE);
    const done = sp.complete(20);
    expect(done.path).toBe(path.join(spDir, 'savepoint-ee3324-a4be710cc718'));
    expect(done.metadata).toMatchObject({ isSavepoint: true, checkpointType: 'SYNC_SAVEPOINT' });
    storage.beginCheckpoint(JOB, 3, 0, operators(1)).complete(1);
    expect(existsSync(done.path)).toBe(true);
    expect(storage.retained(JOB).map((c) => c.checkpointId)).toEqual([3]);
    expect(loadCompletedCheckpoint(path.join(done.path, '_metadata')).readKeyGroup(ASSEMBLE, 3)).toEqual(SAMPLE);
    expect(() => new FileSystemCheckpointStorage({ checkpointDirectory: dir }).beginSavepoint(JOB, 1, 0, [])).toThrow(/savepoint-dir/);
  });

  it('recover() finds completed checkpoints on disk and ignores folders without _metadata', () => {
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir, numRetained: 3 });
    for (let id = 1; id <= 2; id++) storage.beginCheckpoint(JOB, id, id, operators(1)).complete(id);
    mkdirSync(path.join(dir, JOB, 'chk-3'));
    const again = new FileSystemCheckpointStorage({ checkpointDirectory: dir, numRetained: 3 });
    expect(again.recover(JOB).map((c) => c.checkpointId)).toEqual([1, 2]);
  });
});

describe('loadCompletedCheckpoint: clear errors', () => {
  it('names the path and the problem', () => {
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir });
    const done = storage.beginCheckpoint(JOB, 1, 0, operators(1));
    done.writeKeyGroup(ASSEMBLE, 5, SAMPLE);
    const ok = done.complete(1);
    const missing = path.join(dir, 'nope');
    expect(() => loadCompletedCheckpoint(missing)).toThrow(new CheckpointLoadError(`Cannot find checkpoint or savepoint file/directory '${missing}' on file system 'file'.`));
    const partial = path.join(dir, JOB, 'chk-9');
    mkdirSync(partial);
    expect(() => loadCompletedCheckpoint(partial)).toThrow(/Cannot find meta data file '_metadata' in directory .*did not complete/);
    writeFileSync(path.join(partial, 'notes.txt'), 'x');
    expect(() => loadCompletedCheckpoint(path.join(partial, 'notes.txt'))).toThrow(/does not point to a checkpoint\/savepoint directory or metadata file/);
    writeFileSync(path.join(partial, '_metadata'), '{"format": "flink-ops-local-engine/checkpoint-metadata", "vers');
    expect(() => loadCompletedCheckpoint(partial)).toThrow(/is corrupt: it is not valid JSON/);
    writeFileSync(path.join(partial, '_metadata'), JSON.stringify({ format: 'something-else', version: 7, jobId: 'x', operators: [] }));
    expect(() => loadCompletedCheckpoint(partial)).toThrow(/is not valid: "format" is "something-else".*"version" is 7.*"jobId" must be 32/);
    rmSync(path.join(ok.path, ASSEMBLE, 'kg-5.json'));
    expect(() => loadCompletedCheckpoint(ok.path)).toThrow(`The checkpoint at ${ok.path} is incomplete: ${ASSEMBLE}/kg-5.json, listed in _metadata, is missing.`);
    expect(() => loadCompletedCheckpoint('s3://bucket/chk-1')).toThrow(/local file system only/);
  });

  it('accepts file: URIs in both spellings', () => {
    expect(localPathOf('file:/tmp/x/chk-1')).toBe('/tmp/x/chk-1');
    expect(localPathOf('file:///tmp/x/chk-1')).toBe('/tmp/x/chk-1');
    expect(externalPointerOf('/tmp/x/chk-1')).toBe('file:/tmp/x/chk-1');
  });
});

/** A subtask's keyed state as E3's runtime holds it. */
function subtaskState(parallelism: number, index: number) {
  const range = computeKeyGroupRangeForOperatorIndex(MAX_P, parallelism, index);
  const backend = new HeapKeyedStateBackend(MAX_P, range, new ManualClock(0));
  const timers: TimerServices = new Map([['user-timers', { eventTime: new TimerQueue(range), processingTime: new TimerQueue(range) }]]);
  return { backend, timers };
}

describe('keyed state through a checkpoint, restored at another parallelism', () => {
  const KEYS = Array.from({ length: 500 }, (_, i) => `request-${i}`);

  for (const [from, to] of [
    [2, 3],
    [3, 1],
    [1, 8],
    [8, 32],
    [4, 128],
  ] as const) {
    it(`p=${from} → p=${to}: every key and timer lands in the subtask that owns its key group`, () => {
      // Fill the old subtasks.
      const old = Array.from({ length: from }, (_, i) => subtaskState(from, i));
      for (const key of KEYS) {
        const kg = assignToKeyGroup(key, MAX_P);
        const owner = old.find((s) => kg >= s.backend.keyGroupRange.startKeyGroup && kg <= s.backend.keyGroupRange.endKeyGroup)!;
        owner.backend.setCurrentKey(key);
        owner.backend.table('open', false).put(owner.backend.currentKeyGroupIndex, key, 0, { key, n: key.length });
        owner.backend.table('window-contents', true).put(owner.backend.currentKeyGroupIndex, key, 60_000, { nano: 5 });
        owner.timers.get('user-timers')!.eventTime.add(300_000 + key.length, key, 0, kg);
      }
      // Checkpoint them.
      const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir });
      const writer = storage.beginCheckpoint(JOB, 7, 0, operators(from));
      old.forEach((s, i) => {
        for (let kg = s.backend.keyGroupRange.startKeyGroup; kg <= s.backend.keyGroupRange.endKeyGroup; kg++) {
          writer.writeKeyGroup(ASSEMBLE, kg, snapshotKeyGroup(s.backend, s.timers, kg));
        }
        writer.writeOperatorState(SOURCE, i, { splits: { mode: 'SPLIT_DISTRIBUTE', partitions: [{ split: i, offset: 100 + i }] } });
      });
      const done = writer.complete(1);
      // Restore at the new parallelism.
      const loaded = loadCompletedCheckpoint(done.path);
      const oldOpState = Array.from({ length: from }, (_, i) => loaded.readOperatorState(SOURCE, i));
      const plan = planRestore({
        pointer: done.externalPath,
        snapshot: loaded.metadata.operators,
        operatorStateSizes: new Map([[SOURCE, operatorStateSizesOf(oldOpState)], [ASSEMBLE, Array.from({ length: from }, () => ({}))]]),
        operators: [
          { operatorId: SOURCE, uid: 'gateway-events', parallelism: to, maxParallelism: MAX_P },
          { operatorId: ASSEMBLE, uid: 'assemble', parallelism: to, maxParallelism: MAX_P },
        ],
        allowNonRestoredState: false,
      });
      const assemble = plan.operators.find((o) => o.operatorId === ASSEMBLE)!;
      const restored = Array.from({ length: to }, (_, i) => subtaskState(to, i));
      for (const sub of assemble.keyed) {
        for (const kg of sub.keyGroupsWithState) restoreKeyGroup(restored[sub.subtaskIndex].backend, restored[sub.subtaskIndex].timers, kg, loaded.readKeyGroup(ASSEMBLE, kg));
      }
      let found = 0;
      for (const key of KEYS) {
        const kg = assignToKeyGroup(key, MAX_P);
        const owner = restored.find((s) => kg >= s.backend.keyGroupRange.startKeyGroup && kg <= s.backend.keyGroupRange.endKeyGroup)!;
        const idx = kg - owner.backend.keyGroupRange.startKeyGroup;
        expect(owner.backend.table('open', false).get(idx, key, 0)).toEqual({ key, n: key.length });
        expect(owner.backend.table('window-contents', true).get(idx, key, 60_000)).toEqual({ nano: 5 });
        found++;
      }
      expect(found).toBe(KEYS.length);
      expect(restored.reduce((n, s) => n + s.backend.numEntries(), 0)).toBe(2 * KEYS.length);
      expect(restored.reduce((n, s) => n + s.timers.get('user-timers')!.eventTime.size, 0)).toBe(KEYS.length);
      // Source offsets: every split exactly once across the new subtasks.
      const source = plan.operators.find((o) => o.operatorId === SOURCE)!;
      const splits = source.operatorState.flatMap((a) => assembleOperatorState(a, oldOpState).splits?.partitions ?? []);
      expect(splits).toHaveLength(from);
      expect(new Set(splits.map((s) => (s as { split: number }).split)).size).toBe(from);
    });
  }

  it('the snapshot is a copy: mutating state after the snapshot does not change it', () => {
    const s = subtaskState(1, 0);
    s.backend.setCurrentKey('k');
    const value = { count: 1 };
    s.backend.table('open', false).put(s.backend.currentKeyGroupIndex, 'k', 0, value);
    const snap = snapshotKeyGroup(s.backend, s.timers, s.backend.currentKeyGroup);
    value.count = 99;
    expect(snap.entries[0].value).toEqual({ count: 1 });
    expect(snapshotKeyGroup(s.backend, s.timers, s.backend.currentKeyGroup, { copy: false }).entries[0].value, 'copy: false shares the live value').toBe(value);
    expect(() => snapshotKeyGroup(subtaskState(2, 0).backend, s.timers, 100)).toThrow(/outside this subtask's range/);
    const fresh = subtaskState(1, 0);
    expect(() =>
      restoreKeyGroup(fresh.backend, fresh.timers, s.backend.currentKeyGroup, { entries: [], timers: [{ service: 'x', domain: 'EVENT_TIME', timestamp: 1, key: 'k', namespace: 0 }] }),
    ).toThrow(/timers of service "x" that this operator does not have \(it has: user-timers\)/);
  });
});
