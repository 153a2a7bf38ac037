import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignToKeyGroup, computeKeyGroupRangeForOperatorIndex } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { murmur3x64_128Hex } from '../../analysis/key-groups/murmur.ts';
import { HeapKeyedStateBackend } from '../state/keyed-state-backend.ts';
import { TimerQueue } from '../state/timer-service.ts';
import { ManualClock } from '../time/clock.ts';
import { mulberry32, randomUuid } from '../time/random.ts';
import { FileSystemCheckpointStorage, loadCompletedCheckpoint } from './checkpoint-storage.ts';
import { restoreKeyGroup, snapshotKeyGroup, type TimerServices } from './keyed-state-snapshot.ts';
import { planRestore } from './restore-assignment.ts';

/**
 * Checkpoint cost of `assemble`'s keyed state against the number of open requests (one `open` ValueState entry and
 * one event-time timer per request, as the pipeline keeps them), and restore cost at another parallelism: the
 * storage layer alone, without the runtime. `npx tsx engine/local/checkpoint/checkpoint-bench.ts [10000 100000 ...]`.
 * Figures only; nothing asserts a time.
 */

export interface KeyedCheckpointCost {
  openRequests: number;
  parallelism: number;
  restoreParallelism: number;
  /** Copying every key group's entries (the synchronous part). */
  snapshotMs: number;
  /** Writing the files and `_metadata` (the asynchronous part). */
  writeMs: number;
  bytes: number;
  files: number;
  /** Loading `_metadata`, planning, reading every key group and filling the new subtasks' state. */
  restoreMs: number;
}

const MAX_P = 128;
const ASSEMBLE = murmur3x64_128Hex('assemble');

function subtask(parallelism: number, index: number) {
  const range = computeKeyGroupRangeForOperatorIndex(MAX_P, parallelism, index);
  const backend = new HeapKeyedStateBackend(MAX_P, range, new ManualClock(0));
  const timers: TimerServices = new Map([['user-timers', { eventTime: new TimerQueue(range), processingTime: new TimerQueue(range) }]]);
  return { backend, timers };
}

export function measureKeyedCheckpoint(openRequests: number, parallelism = 4, restoreParallelism = 3, copy = true): KeyedCheckpointCost {
  const random = mulberry32(42);
  const subtasks = Array.from({ length: parallelism }, (_, i) => subtask(parallelism, i));
  const ownerOf = (kg: number) => subtasks[Math.floor((kg * parallelism) / MAX_P)];
  for (let i = 0; i < openRequests; i++) {
    const id = randomUuid(random);
    const kg = assignToKeyGroup(id, MAX_P);
    const s = ownerOf(kg);
    s.backend.setCurrentKey(id, kg);
    const start = 1_700_000_000_000 + i;
    s.backend.table('open', false).put(s.backend.currentKeyGroupIndex, id, 0, {
      tenant_id: 'umbrella',
      model: 'model-a',
      start_ts: start,
      prompt_tokens: 1234,
      tool_calls: 0,
      agent_steps: 1,
      errors: 0,
    });
    s.timers.get('user-timers')!.eventTime.add(start + 300_000, id, 0, kg);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ckpt-bench-'));
  try {
    const storage = new FileSystemCheckpointStorage({ checkpointDirectory: dir });
    const jobId = '0123456789abcdef0123456789abcdef';
    const writer = storage.beginCheckpoint(jobId, 1, 0, [{ operatorId: ASSEMBLE, uid: 'assemble', parallelism, maxParallelism: MAX_P, keyed: true }]);
    let t = performance.now();
    const copies = subtasks.flatMap((s) => {
      const out = [];
      for (let kg = s.backend.keyGroupRange.startKeyGroup; kg <= s.backend.keyGroupRange.endKeyGroup; kg++) out.push({ kg, snap: snapshotKeyGroup(s.backend, s.timers, kg, { copy }) });
      return out;
    });
    const snapshotMs = performance.now() - t;
    t = performance.now();
    let files = 0;
    for (const { kg, snap } of copies) if (writer.writeKeyGroup(ASSEMBLE, kg, snap) > 0) files++;
    const done = writer.complete(1);
    const writeMs = performance.now() - t;
    t = performance.now();
    const loaded = loadCompletedCheckpoint(done.path);
    const plan = planRestore({
      pointer: done.externalPath,
      snapshot: loaded.metadata.operators,
      operators: [{ operatorId: ASSEMBLE, uid: 'assemble', parallelism: restoreParallelism, maxParallelism: MAX_P }],
      allowNonRestoredState: false,
    });
    const restored = Array.from({ length: restoreParallelism }, (_, i) => subtask(restoreParallelism, i));
    for (const s of plan.operators[0].keyed) {
      for (const kg of s.keyGroupsWithState) restoreKeyGroup(restored[s.subtaskIndex].backend, restored[s.subtaskIndex].timers, kg, loaded.readKeyGroup(ASSEMBLE, kg));
    }
    const restoreMs = performance.now() - t;
    const total = restored.reduce((n, s) => n + s.backend.numEntries(), 0);
    if (total !== openRequests) throw new Error(`restored ${total} of ${openRequests} open requests`);
    return { openRequests, parallelism, restoreParallelism, snapshotMs, writeMs, bytes: done.metadata.totalBytes, files: files + 1, restoreMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  console.log('open requests   copy   snapshot     write      size   files   restore(p 4→3)');
  for (const n of sizes.length > 0 ? sizes : [10_000, 100_000, 1_000_000]) for (const copy of [true, false]) {
    const c = measureKeyedCheckpoint(n, 4, 3, copy);
    console.log(
      [
        String(n).padStart(13),
        (copy ? 'yes' : 'no').padStart(4),
        `${c.snapshotMs.toFixed(0)} ms`.padStart(9),
        `${c.writeMs.toFixed(0)} ms`.padStart(9),
        `${(c.bytes / 1024 / 1024).toFixed(1)} MiB`.padStart(9),
        String(c.files).padStart(7),
        `${c.restoreMs.toFixed(0)} ms`.padStart(12),
      ].join('  '),
    );
  }
}
