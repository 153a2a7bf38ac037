/**
 * Local engine: checkpoint duration and size against the number of open requests held in `assemble` (one `open`
 * ValueState entry and one 5-minute event-time timer per request, as the pipeline keeps them), and restore time, through
 * the integrated runtime: the checkpoint coordinator triggers, the barriers flow through the network, each subtask
 * snapshots its key groups and writes them, `_metadata` completes the checkpoint; then a TaskManager is killed and the
 * job restarts from that checkpoint (same parallelism), and a rescale restores it at another parallelism.
 *
 * Run: `npx tsx engine/bench/local-checkpoint.ts [10000 100000 1000000]`. Figures only; nothing asserts a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKPOINTING_DEFAULTS } from '../local/checkpoint/checkpoint-stats-rest.ts';
import { gatewayMeterJob, ABANDON_AFTER_MS } from '../local/gatewaymeter/pipelines.ts';
import { ResultStore, TenantCostSink } from '../local/gatewaymeter/sinks.ts';
import { assignToKeyGroup } from '../analysis/key-groups/key-group-range-assignment.ts';
import { LocalCluster } from '../local/runtime/cluster.ts';
import type { JobExecution } from '../local/runtime/job.ts';
import { DEFAULT_TRAFFIC } from '../local/scenarios/scenario.ts';
import { ManualClock } from '../local/time/clock.ts';
import { mulberry32, randomUuid } from '../local/time/random.ts';

export interface CheckpointBenchResult {
  openRequests: number;
  parallelism: number;
  /** Wall-clock time from the trigger until the checkpoint is complete (snapshot + write + `_metadata`). */
  checkpointWallMs: number;
  /** As the REST API reports it: end-to-end duration (measured CPU time drives the virtual clock here). */
  endToEndDurationMs: number;
  syncMaxMs: number;
  asyncMaxMs: number;
  /** `checkpointed_size` of the checkpoint (all subtasks). */
  checkpointedBytes: number;
  /** Failover at the same parallelism: wall time to load, plan and restore every key group. */
  restoreWallMs: number;
  /** Rescale 4 → 3 from the same checkpoint: wall time of the restore. */
  rescaleRestoreWallMs: number;
}

const T0 = 1_767_225_600_000;

/** Puts `n` open requests (state + abandon timer) into the assemble subtasks of a running job. */
function fillAssemble(job: JobExecution, n: number): void {
  const assemble = job.vertices.find((v) => v.jobVertex.name === 'assemble')!;
  const random = mulberry32(42);
  const maxP = assemble.jobVertex.maxParallelism;
  for (let i = 0; i < n; i++) {
    const id = randomUuid(random);
    const kg = assignToKeyGroup(id, maxP);
    const task = assemble.tasks[Math.floor((kg * assemble.tasks.length) / maxP)];
    const operator = task.head.operator;
    const backend = operator.keyedBackend!;
    backend.setCurrentKey(id, kg);
    const start = T0 - 60_000 + (i % 60_000);
    backend.table('open', false).put(backend.currentKeyGroupIndex, id, 0, {
      tenant_id: 'umbrella',
      model: 'model-a',
      start_ts: start,
      prompt_tokens: 1234,
      tool_calls: 0,
      agent_steps: 1,
      errors: 0,
    });
    operator.timerServicesForSnapshot!().get('user-timers')!.eventTime.add(start + ABANDON_AFTER_MS, id, 0, kg);
  }
}

function openRequestsOf(job: JobExecution): number {
  const assemble = job.vertices.find((v) => v.jobVertex.name === 'assemble')!;
  return assemble.tasks.reduce((s, t) => s + (t.head.operator.keyedBackend!.tables.get('open')?.size ?? 0), 0);
}

export function measureCheckpoint(openRequests: number, parallelism = 4): CheckpointBenchResult {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'le-ckpt-bench-'));
  try {
    const clock = new ManualClock(T0);
    const cluster = new LocalCluster({ clock, taskManagers: 4, slotsPerTaskManager: 2, taskManagerRestartDelayMs: 0 });
    // A trickle of traffic: the state under test is the one put into assemble.
    const graph = gatewayMeterJob({
      parallelism,
      maxParallelism: 128,
      generator: { ...DEFAULT_TRAFFIC, seed: 1, rate: 10 },
      sink: new TenantCostSink(new ResultStore()),
    });
    const job = cluster.submitJob(graph, {
      measureCpu: true,
      checkpointing: { ...CHECKPOINTING_DEFAULTS, intervalMs: 3_600_000 },
      checkpointStorage: { checkpointDirectory: dir },
      restartStrategy: { type: 'fixed-delay', attempts: 10, delayMs: 0 },
    });
    cluster.advance(1_000);
    fillAssemble(job, openRequests);
    let completedId = -1;
    let started = performance.now();
    job.triggerCheckpoint({ kind: 'CHECKPOINT', onComplete: (c) => (completedId = c.checkpointId) });
    while (completedId < 0) cluster.advance(10);
    const checkpointWallMs = performance.now() - started;
    const stats = job.checkpointTracker!.byId(completedId)!;
    let syncMax = 0;
    let asyncMax = 0;
    for (const task of stats.tasks.values()) {
      syncMax = Math.max(syncMax, task.summary.syncDuration.max);
      asyncMax = Math.max(asyncMax, task.summary.asyncDuration.max);
    }
    // Failover at the same parallelism.
    cluster.killTaskManager(job.slots[0].taskManagerId);
    started = performance.now();
    cluster.advanceUntil(() => job.status === 'RUNNING', 60_000);
    const restoreWallMs = performance.now() - started;
    if (openRequestsOf(job) < openRequests) throw new Error(`restored ${openRequestsOf(job)} of ${openRequests} open requests`);
    // Restore at another parallelism: the rescale waits for the next checkpoint (FLIP-461) and restarts from it.
    const target = new Map(job.jobGraph.vertices.map((v) => [v.id, { lowerBound: 1, upperBound: 3 }]));
    job.requestRescale(target);
    let checkpointDone = Number.NaN;
    job.triggerCheckpoint({ kind: 'CHECKPOINT', onComplete: () => (checkpointDone = performance.now()) });
    if (!cluster.advanceUntil(() => job.status === 'RUNNING' && job.numRescales === 1, 60_000)) throw new Error('the rescale did not happen');
    const rescaleRestoreWallMs = performance.now() - checkpointDone;
    if (openRequestsOf(job) < openRequests) throw new Error(`rescaled ${openRequestsOf(job)} of ${openRequests} open requests`);
    job.cancel();
    return {
      openRequests,
      parallelism,
      checkpointWallMs,
      endToEndDurationMs: stats.endToEndDuration,
      syncMaxMs: syncMax,
      asyncMaxMs: asyncMax,
      checkpointedBytes: stats.checkpointedSize,
      restoreWallMs,
      rescaleRestoreWallMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  console.log('Checkpoint of assemble (parallelism 4) against open requests; restore by failover (p 4) and by rescale (p 4 → 3)');
  console.log(['open requests', ' checkpoint', ' end-to-end', ' sync max', 'async max', '      size', '  restore p4', ' restore 4→3'].join('  '));
  for (const n of sizes.length > 0 ? sizes : [10_000, 100_000, 1_000_000]) {
    const r = measureCheckpoint(n);
    console.log(
      [
        String(n).padStart(13),
        `${r.checkpointWallMs.toFixed(0)} ms`.padStart(11),
        `${r.endToEndDurationMs} ms`.padStart(11),
        `${r.syncMaxMs} ms`.padStart(9),
        `${r.asyncMaxMs} ms`.padStart(9),
        `${(r.checkpointedBytes / 1024 / 1024).toFixed(1)} MiB`.padStart(10),
        `${r.restoreWallMs.toFixed(0)} ms`.padStart(12),
        `${r.rescaleRestoreWallMs.toFixed(0)} ms`.padStart(12),
      ].join('  '),
    );
  }
  console.log('\ncheckpoint: wall time from the trigger to the completed checkpoint (the whole engine is one thread: the job');
  console.log('stands still meanwhile). end-to-end: as GET /jobs/:id/checkpoints reports it, from measured sync + async time.');
}
