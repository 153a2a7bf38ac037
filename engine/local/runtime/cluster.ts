import type { StreamGraph } from '../api/datastream.ts';
import { murmur3x64_128Hex } from '../../analysis/key-groups/murmur.ts';
import type { ManualClock } from '../time/clock.ts';
import { VirtualScheduler } from '../time/scheduler.ts';
import { ClusterLogs } from '../logs/cluster-logs.ts';
import { JobExecution, newJobId, type JobHost, type JobOptions, type JobStatus, type SlotRef } from './job.ts';
import type { ExecutionState, Task } from './task.ts';
import { DEFAULT_NETWORK_CONFIG, type NetworkConfig } from './network.ts';

export interface ClusterOptions {
  /** The virtual clock; the cluster only advances it through `advance`. */
  clock: ManualClock;
  /** @default 4 (the course cluster: 1 JobManager, 4 TaskManagers × 2 slots) */
  taskManagers?: number;
  /** @default 2 */
  slotsPerTaskManager?: number;
  network?: Partial<NetworkConfig>;
  /** Virtual ms per scheduling step. @default 10 */
  stepMs?: number;
  /** Upper bound on scheduling passes in one step (data moves one hop per pass at most). @default 64 */
  maxPassesPerStep?: number;
  /**
   * A killed TaskManager comes back (a new process, new resource ID) after this long, as a process supervisor or a
   * Kubernetes deployment would restart it; undefined = never (a standalone cluster). @default 10000
   */
  taskManagerRestartDelayMs?: number | null;
}

export interface TaskManager {
  id: string;
  index: number;
  /** How often this TaskManager's process was restarted (part of its resource ID). */
  generation: number;
  /** `host:dataPort`, as Flink names where a subtask runs (its `endpoint`). */
  endpoint: string;
  dataPort: number;
  /** The port of its RPC endpoint (`path` in `/taskmanagers`; part of a real TaskManager's resource ID). */
  rpcPort: number;
  /** Job ID per slot, or null when free. */
  slots: Array<string | null>;
  registeredAt: number;
}

/**
 * The local engine's cluster: one JobManager's view of TaskManagers and slots, the jobs it runs, and the
 * deterministic virtual-time loop that runs them. `advance(ms)` is the only way time moves: the real-time driver
 * calls it to follow the wall clock; tests call it to jump minutes ahead in milliseconds.
 */
export class LocalCluster implements JobHost {
  readonly clock: ManualClock;
  readonly scheduler: VirtualScheduler;
  readonly taskManagers: TaskManager[];
  readonly taskManagerRestartDelayMs: number | null;
  readonly jobs = new Map<string, JobExecution>();
  readonly network: NetworkConfig;
  readonly startTime: number;
  readonly stepMs: number;
  readonly maxPassesPerStep: number;
  readonly slotsPerTaskManager: number;
  /** What its JobManager and TaskManagers log. */
  readonly logs: ClusterLogs;
  private running: JobExecution[] = [];

  constructor(options: ClusterOptions) {
    this.clock = options.clock;
    this.scheduler = new VirtualScheduler(this.clock);
    this.startTime = this.clock.now();
    this.logs = new ClusterLogs(this.startTime);
    this.network = { ...DEFAULT_NETWORK_CONFIG, ...options.network };
    this.stepMs = options.stepMs ?? 10;
    this.maxPassesPerStep = options.maxPassesPerStep ?? 64;
    const count = options.taskManagers ?? 4;
    this.slotsPerTaskManager = options.slotsPerTaskManager ?? 2;
    if (!(count >= 1) || !(this.slotsPerTaskManager >= 1)) throw new RangeError('A cluster needs at least one TaskManager with one slot.');
    this.taskManagerRestartDelayMs = options.taskManagerRestartDelayMs === undefined ? 10_000 : options.taskManagerRestartDelayMs;
    this.taskManagers = Array.from({ length: count }, (_, index) => this.newTaskManager(index, 0));
  }

  private newTaskManager(index: number, generation: number): TaskManager {
    const tm = this.describeTaskManager(index, generation);
    this.logs.taskManagerRegistered(tm.id, tm.index, tm.rpcPort, tm.registeredAt);
    return tm;
  }

  private describeTaskManager(index: number, generation: number): TaskManager {
    return {
      id: murmur3x64_128Hex(generation === 0 ? `local-engine/taskmanager/${index}` : `local-engine/taskmanager/${index}/${generation}`),
      index,
      generation,
      endpoint: `127.0.0.1:${41000 + index}`,
      dataPort: 41000 + index,
      rpcPort: 43000 + index,
      slots: new Array(this.slotsPerTaskManager).fill(null),
      registeredAt: this.clock.now(),
    };
  }

  get slotsTotal(): number {
    return this.taskManagers.length * this.slotsPerTaskManager;
  }

  get slotsAvailable(): number {
    let n = 0;
    for (const tm of this.taskManagers) for (const s of tm.slots) if (s === null) n++;
    return n;
  }

  /**
   * Submits a job: allocates its slots (slot sharing: subtask i of every vertex shares slot i) and starts it.
   * Fails with a clear message, allocating nothing, when the job is invalid or the slots are not there.
   */
  submitJob(graph: StreamGraph, options: JobOptions = {}): JobExecution {
    const needed = JobExecution.slotsNeeded(graph);
    if (needed > this.slotsAvailable) {
      throw new Error(
        `Not enough task slots: "${graph.jobName}" needs ${needed} (its highest parallelism), the cluster has ` +
          `${this.slotsAvailable} free of ${this.slotsTotal} (${this.taskManagers.length} TaskManagers × ${this.slotsPerTaskManager} slots). ` +
          'Lower the parallelism or give the engine more TaskManagers or slots.',
      );
    }
    if (options.jobId && this.jobs.has(options.jobId)) throw new Error(`A job with ID ${options.jobId} already exists.`);
    const jobId = options.jobId ?? newJobId();
    const slots = this.allocateSlots(jobId, needed)!;
    let job: JobExecution;
    try {
      job = new JobExecution(graph, slots, this, { ...options, jobId });
    } catch (error) {
      this.releaseSlots(jobId);
      throw error;
    }
    this.jobs.set(job.jobId, job);
    this.running.push(job);
    return job;
  }

  /** `count` free slots for a job, spread over TaskManagers in order; undefined (nothing taken) if not free. */
  allocateSlots(jobId: string, count: number): SlotRef[] | undefined {
    const free: Array<{ tm: TaskManager; slot: number }> = [];
    for (const tm of this.taskManagers) tm.slots.forEach((s, slot) => s === null && free.push({ tm, slot }));
    if (free.length < count) return undefined;
    const chosen = free.slice(0, count);
    for (const { tm, slot } of chosen) tm.slots[slot] = jobId;
    return chosen.map(({ tm, slot }) => ({ taskManagerId: tm.id, endpoint: tm.endpoint, slotIndex: slot }));
  }

  releaseSlots(jobId: string): void {
    for (const tm of this.taskManagers) tm.slots = tm.slots.map((s) => (s === jobId ? null : s));
  }

  onTaskState(_job: JobExecution, task: Task, from: ExecutionState, to: ExecutionState, now: number): void {
    this.logs.taskState(task, from, to, now);
  }

  onJobStatus(job: JobExecution, from: JobStatus, to: JobStatus, now: number): void {
    this.logs.jobStatus(job.name, job.jobId, from, to, now);
  }

  onTerminal(job: JobExecution): void {
    this.releaseSlots(job.jobId);
    this.running = this.running.filter((j) => j !== job);
  }

  cancelJob(jobId: string): void {
    this.jobs.get(jobId)?.cancel();
  }

  /**
   * Kills a TaskManager process: it leaves the cluster with its slots, and every job with a task on it fails over.
   * With `taskManagerRestartDelayMs` a new process (new resource ID) registers after that delay. Returns the IDs of
   * the jobs that lost tasks; throws when no TaskManager has that ID.
   */
  killTaskManager(taskManagerId: string): { jobs: string[]; restartsAt: number | null } {
    const index = this.taskManagers.findIndex((t) => t.id === taskManagerId);
    if (index < 0) throw new Error(`Could not find TaskExecutor ${taskManagerId}.`);
    const [tm] = this.taskManagers.splice(index, 1);
    const affected = [...new Set(tm.slots.filter((s): s is string => s !== null))];
    this.logs.taskManagerLost(tm.id, this.clock.now());
    for (const jobId of affected) this.jobs.get(jobId)?.onTaskManagerLost(tm.id);
    let restartsAt: number | null = null;
    if (this.taskManagerRestartDelayMs !== null) {
      restartsAt = this.clock.now() + this.taskManagerRestartDelayMs;
      this.scheduler.scheduleAt(restartsAt, () => {
        const revived = this.newTaskManager(tm.index, tm.generation + 1);
        const at = this.taskManagers.findIndex((t) => t.index > tm.index);
        this.taskManagers.splice(at < 0 ? this.taskManagers.length : at, 0, revived);
      });
    }
    return { jobs: affected, restartsAt };
  }

  /** Runs the cluster for `ms` of virtual time, in steps. */
  advance(ms: number): void {
    const target = this.clock.now() + ms;
    while (this.clock.now() < target) {
      const now = this.clock.now();
      const dt = Math.min(this.stepMs, target - now);
      this.step(now, dt);
      this.clock.advanceTo(now + dt);
    }
  }

  /** Runs until `predicate` holds or `maxMs` of virtual time passed; returns whether it holds. */
  advanceUntil(predicate: () => boolean, maxMs: number): boolean {
    const deadline = this.clock.now() + maxMs;
    while (!predicate()) {
      if (this.clock.now() >= deadline) return false;
      this.advance(Math.min(this.stepMs, deadline - this.clock.now()));
    }
    return true;
  }

  private step(now: number, dt: number): void {
    this.scheduler.runDue(now);
    const jobs = this.running;
    if (jobs.length === 0) return;
    for (const job of jobs) job.beginStep(now, dt);
    for (let pass = 0; pass < this.maxPassesPerStep; pass++) {
      let progress = false;
      for (const job of jobs) if (job.runPass()) progress = true;
      if (!progress) break;
    }
    for (const job of [...jobs]) job.endStep(now + dt, dt);
  }
}
