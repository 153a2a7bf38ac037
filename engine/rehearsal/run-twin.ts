import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { loadFigures } from '../analysis/rescale-plan.ts';
import type { RehearsalLimits, RehearsalRun, SubtaskFigures } from '../contracts/rehearsal.ts';
import { LocalEngine } from '../local/engine.ts';
import type { ExecutionJobVertex } from '../local/runtime/job.ts';
import { ManualClock } from '../local/time/clock.ts';
import { RehearsalLimitError } from './rehearsal-limits.ts';
import { twinScenario, type TwinShape } from './twin-scenario.ts';

/**
 * One run of the twin: the local engine in this process, at its virtual clock, for the warm-up and then the measured
 * simulated time, in steps of one simulated second. Between steps it yields to the event loop (so a SIGINT or a
 * cancel call is heard), and stops when the signal is aborted, the wall-clock deadline passed or the heap grew past
 * its bound. Its checkpoints go to a temporary folder, removed afterwards.
 */

/** Where the virtual clock starts: fixed, so the same figures give the same run. */
const TWIN_START_TIME = 1_767_225_600_000;
const STEP_MS = 1000;
const CHECKPOINT_INTERVAL_MS = 10_000;

export class RehearsalCancelledError extends Error {
  constructor() {
    super('The rehearsal was cancelled.');
    this.name = 'RehearsalCancelledError';
  }
}

export interface TwinRunInput {
  shape: TwinShape;
  saltBuckets?: number;
  warmUpMs: number;
  measuredMs: number;
  limits: RehearsalLimits;
  /** Epoch ms (wall clock) by which the whole rehearsal must be done. */
  deadline: number;
  /** Heap used when the rehearsal began: growth past the limit stops it. */
  heapAtStart: number;
  signal?: AbortSignal;
}

interface Reading {
  records: number[];
  busyMs: number[];
  backPressuredMs: number[];
  upstreamBackPressuredMs: number[][];
}

function read(keyed: ExecutionJobVertex, upstream: ExecutionJobVertex[]): Reading {
  const times = keyed.tasks.map((t) => t.io.accumulatedTimes());
  return {
    records: keyed.tasks.map((t) => t.io.numRecordsIn.getCount()),
    busyMs: times.map((t) => t.busyMs),
    backPressuredMs: times.map((t) => t.backPressuredMs),
    upstreamBackPressuredMs: upstream.map((v) => v.tasks.map((t) => t.io.accumulatedTimes().backPressuredMs)),
  };
}

export async function runTwin(input: TwinRunInput): Promise<RehearsalRun> {
  const wallStart = Date.now();
  const { shape } = input;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-rehearsal-'));
  let engine: LocalEngine | undefined;
  try {
    engine = new LocalEngine({
      scenario: twinScenario(shape),
      job: shape.job,
      saltBuckets: input.saltBuckets,
      clock: new ManualClock(TWIN_START_TIME),
      checkpointDir: dir,
      checkpointIntervalMs: CHECKPOINT_INTERVAL_MS,
      seed: 42,
    });
    const job = [...engine.cluster.jobs.values()][0];
    const run = async (ms: number) => {
      for (let done = 0; done < ms; done += STEP_MS) {
        await yieldToLoop();
        if (input.signal?.aborted) throw new RehearsalCancelledError();
        if (Date.now() > input.deadline) {
          throw new RehearsalLimitError(`The rehearsal stopped at its wall-clock limit (${Math.round(input.limits.maxWallMs / 1000)} s): measure fewer simulated seconds, or a smaller parallelism.`);
        }
        if (process.memoryUsage().heapUsed - input.heapAtStart > input.limits.maxHeapGrowthBytes) {
          throw new RehearsalLimitError(`The rehearsal stopped at its memory limit (${Math.round(input.limits.maxHeapGrowthBytes / 1024 / 1024)} MB of heap): measure fewer simulated seconds, or a smaller parallelism.`);
        }
        engine!.advance(Math.min(STEP_MS, ms - done));
      }
    };
    const keyedUid = shape.job === 'gatewaymeter' ? 'tenant-cost' : 'tenant-cost-partial';
    const vertexOf = () => {
      const index = job.vertices.findIndex((v) => v.jobVertex.operators.some((o) => o.node.uid === keyedUid));
      return { keyed: job.vertices[index], upstream: job.vertices.slice(0, index) };
    };
    await run(input.warmUpMs);
    const before = read(vertexOf().keyed, vertexOf().upstream);
    await run(input.measuredMs);
    const { keyed, upstream } = vertexOf();
    const after = read(keyed, upstream);
    const seconds = input.measuredMs / 1000;
    const subtasks: SubtaskFigures[] = keyed.tasks.map((_, s) => ({
      subtask: s,
      recordsInPerSecond: (after.records[s] - before.records[s]) / seconds,
      busyTimeMsPerSecond: Math.min(1000, (after.busyMs[s] - before.busyMs[s]) / seconds),
      backPressuredTimeMsPerSecond: Math.min(1000, (after.backPressuredMs[s] - before.backPressuredMs[s]) / seconds),
    }));
    const busy = subtasks.map((s) => s.busyTimeMsPerSecond!);
    const upstreamBp = after.upstreamBackPressuredMs.flatMap((v, i) => v.map((ms, k) => (ms - before.upstreamBackPressuredMs[i][k]) / seconds));
    const watermarks = keyed.tasks.map((t) => t.io.currentInputWatermark).filter((w) => Number.isFinite(w));
    const checkpoint = job.checkpointTracker?.latestCompleted();
    return {
      job: shape.job,
      parallelism: shape.parallelism,
      saltBuckets: shape.job === 'gatewaymeter-salted' ? (input.saltBuckets ?? null) : null,
      simulatedMs: input.warmUpMs + input.measuredMs,
      wallMs: Date.now() - wallStart,
      throughputRecordsPerSecond: subtasks.reduce((a, s) => a + s.recordsInPerSecond!, 0),
      subtasks,
      busy: loadFigures(busy),
      hotSubtask: busy.indexOf(Math.max(...busy)),
      upstreamBackPressuredTimeMsPerSecond: upstreamBp.length ? Math.min(1000, Math.max(...upstreamBp)) : 0,
      watermarkLagMs: watermarks.length ? engine.now() - Math.min(...watermarks) : null,
      checkpoint: checkpoint ? { durationMs: checkpoint.endToEndDuration, stateSizeBytes: checkpoint.stateSize } : null,
    };
  } finally {
    for (const job of engine?.cluster.jobs.values() ?? []) job.cancel();
    rmSync(dir, { recursive: true, force: true });
  }
}
