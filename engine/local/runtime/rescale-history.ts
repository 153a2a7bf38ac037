import { randomBytes } from 'node:crypto';
import { StatsSummary, type StatsSummaryWire } from '../checkpoint/stats-summary.ts';
import type { JobGraph } from './job-graph.ts';

/**
 * A job's rescale history as Flink 2.3's adaptive scheduler keeps it (FLIP-495, `RescaleTimeline`): every rescale
 * (the first deployment, a change of the resource requirements, a restart after a failure) with a UUID, its trigger
 * cause, times, the scheduler states it went through, how it ended, and each vertex's and slot sharing group's
 * parallelism wanted, sufficient, before and after. The last `size` rescales are kept, newest first; the counts and
 * duration statistics cover every rescale. Served as Flink's bodies by `rest/rescales.ts`.
 */

/** `TriggerCause`. */
export type RescaleTriggerCause = 'INITIAL_SCHEDULE' | 'UPDATE_REQUIREMENT' | 'NEW_RESOURCE_AVAILABLE' | 'RECOVERABLE_FAILOVER';
/** `TerminatedReason`. */
export type RescaleTerminatedReason =
  | 'SUCCEEDED'
  | 'EXCEPTION_OCCURRED'
  | 'RESOURCE_REQUIREMENTS_UPDATED'
  | 'NO_RESOURCES_OR_PARALLELISMS_CHANGE'
  | 'JOB_FINISHED'
  | 'JOB_FAILED'
  | 'JOB_CANCELED'
  | 'JOB_FAILOVER_RESTARTING';
export type RescaleTerminalState = 'COMPLETED' | 'FAILED' | 'IGNORED';

/** Flink's `TerminatedReason(TerminalState, …)`: each reason has its terminal state. */
const TERMINAL_STATE_OF: Record<RescaleTerminatedReason, RescaleTerminalState> = {
  SUCCEEDED: 'COMPLETED',
  EXCEPTION_OCCURRED: 'FAILED',
  RESOURCE_REQUIREMENTS_UPDATED: 'IGNORED',
  NO_RESOURCES_OR_PARALLELISMS_CHANGE: 'IGNORED',
  JOB_FINISHED: 'IGNORED',
  JOB_FAILED: 'IGNORED',
  JOB_CANCELED: 'IGNORED',
  JOB_FAILOVER_RESTARTING: 'IGNORED',
};

/** The adaptive scheduler's states a rescale goes through (Flink's state class names). */
export type SchedulerStateName = 'Created' | 'WaitingForResources' | 'CreatingExecutionGraph' | 'Executing' | 'Restarting' | 'Finished';

/** `VertexParallelismRescaleInfo` on the wire, fields in Flink's order. */
export interface RescaleVertexWire {
  jobVertexId: string;
  jobVertexName: string;
  slotSharingGroupId: string;
  slotSharingGroupName: string;
  desiredParallelism: number;
  sufficientParallelism: number;
  preRescaleParallelism: number | null;
  postRescaleParallelism: number | null;
}

/** `ResourceProfile` as Flink writes it: an unknown profile (slots are not sized by the local engine). */
const UNKNOWN_RESOURCE_PROFILE = { cpuCores: -1.0, taskHeapMemory: -1, taskOffHeapMemory: -1, managedMemory: -1, networkMemory: -1, extendedResources: {} };

/** `SlotSharingGroupRescaleInfo` on the wire. */
export interface RescaleSlotsWire {
  slotSharingGroupId: string;
  slotSharingGroupName: string;
  requestResourceProfile: typeof UNKNOWN_RESOURCE_PROFILE;
  desiredSlots: number;
  minimalRequiredSlots: number;
  preRescaleSlots: number | null;
  postRescaleSlots: number | null;
  acquiredResourceProfile: typeof UNKNOWN_RESOURCE_PROFILE;
}

/** `SchedulerStateSpan` on the wire. */
export interface SchedulerStateSpanWire {
  state: SchedulerStateName;
  enterTimestampInMillis: number;
  leaveTimestampInMillis: number | null;
  durationInMillis: number | null;
  stringifiedException: string | null;
}

/** `JobRescaleDetails` on the wire. */
export interface RescaleDetailsWire {
  rescaleUuid: string;
  resourceRequirementsUuid: string;
  rescaleAttemptId: number;
  vertices: Record<string, RescaleVertexWire>;
  slots: Record<string, RescaleSlotsWire>;
  schedulerStates: SchedulerStateSpanWire[];
  startTimestampInMillis: number;
  endTimestampInMillis: number | null;
  terminalState: RescaleTerminalState | null;
  triggerCause: RescaleTriggerCause;
  terminatedReason: RescaleTerminatedReason | null;
}

export interface RescalesCountsWire {
  ignored: number;
  inProgress: number;
  completed: number;
  failed: number;
}

/** What a rescale asks of each vertex: the parallelism wanted (upper bound) and enough to run (lower bound). */
export type RescaleDemand = Map<string, { desired: number; sufficient: number }>;

interface Rescale {
  details: RescaleDetailsWire;
}

const uuid = (): string => randomBytes(16).toString('hex');

export class RescaleHistory {
  /** Newest first, at most `size`. */
  private readonly kept: Rescale[] = [];
  private current: Rescale | undefined;
  private scheduler: { state: SchedulerStateName; enteredAt: number };
  private readonly counts: RescalesCountsWire = { ignored: 0, inProgress: 0, completed: 0, failed: 0 };
  private readonly durations: Record<'all' | RescaleTerminalState, StatsSummary>;

  /** @param size `web.adaptive-scheduler.rescale-history.size` (> 0). */
  constructor(
    readonly size: number,
    now: number,
  ) {
    if (!(Number.isInteger(size) && size > 0)) throw new RangeError(`The rescale history size must be a whole number above 0, got ${size}.`);
    // Percentiles over the rescales kept, as the history is what Flink keeps of them.
    this.durations = { all: new StatsSummary(size), COMPLETED: new StatsSummary(size), IGNORED: new StatsSummary(size), FAILED: new StatsSummary(size) };
    this.scheduler = { state: 'Created', enteredAt: now };
  }

  /** The rescale in progress, if any. */
  get inProgress(): RescaleDetailsWire | undefined {
    return this.current?.details;
  }

  /**
   * A new rescale of `graph` (its parallelism now is the "before"; null for the first deployment). A rescale still
   * in progress ends first: ignored for the newer requirements, or for the restart after a failure.
   */
  start(cause: RescaleTriggerCause, graph: JobGraph, demand: RescaleDemand, now: number, deployed = true): string {
    if (this.current) this.end(cause === 'RECOVERABLE_FAILOVER' ? 'JOB_FAILOVER_RESTARTING' : 'RESOURCE_REQUIREMENTS_UPDATED', now);
    const vertices: Record<string, RescaleVertexWire> = {};
    const slots: Record<string, RescaleSlotsWire> = {};
    for (const v of graph.vertices) {
      const d = demand.get(v.id) ?? { desired: v.parallelism, sufficient: 1 };
      const pre = deployed ? v.parallelism : null;
      vertices[v.id] = {
        jobVertexId: v.id,
        jobVertexName: v.name,
        slotSharingGroupId: v.slotSharingGroupId,
        slotSharingGroupName: v.slotSharingGroup,
        desiredParallelism: d.desired,
        sufficientParallelism: d.sufficient,
        preRescaleParallelism: pre,
        postRescaleParallelism: null,
      };
      // With slot sharing a group needs as many slots as its highest parallelism.
      const group = slots[v.slotSharingGroupId];
      slots[v.slotSharingGroupId] = {
        slotSharingGroupId: v.slotSharingGroupId,
        slotSharingGroupName: v.slotSharingGroup,
        requestResourceProfile: UNKNOWN_RESOURCE_PROFILE,
        desiredSlots: Math.max(group?.desiredSlots ?? 0, d.desired),
        minimalRequiredSlots: Math.max(group?.minimalRequiredSlots ?? 0, d.sufficient),
        preRescaleSlots: pre === null ? null : Math.max(group?.preRescaleSlots ?? 0, pre),
        postRescaleSlots: null,
        acquiredResourceProfile: UNKNOWN_RESOURCE_PROFILE,
      };
    }
    const rescale: Rescale = {
      details: {
        rescaleUuid: uuid(),
        resourceRequirementsUuid: uuid(),
        rescaleAttemptId: 1,
        vertices,
        slots,
        schedulerStates: [],
        startTimestampInMillis: now,
        endTimestampInMillis: null,
        terminalState: null,
        triggerCause: cause,
        terminatedReason: null,
      },
    };
    this.current = rescale;
    this.kept.unshift(rescale);
    if (this.kept.length > this.size) this.kept.length = this.size;
    this.counts.inProgress++;
    return rescale.details.rescaleUuid;
  }

  /**
   * The adaptive scheduler moves to `state`. The rescale in progress records it: its first span is the state it
   * started in (entered before it), then each one after.
   */
  transition(state: SchedulerStateName, now: number): void {
    const previous = this.scheduler;
    if (previous.state === state) return;
    this.scheduler = { state, enteredAt: now };
    const spans = this.current?.details.schedulerStates;
    if (!spans) return;
    if (spans.length === 0) spans.push(openSpan(previous.state, previous.enteredAt));
    closeSpan(spans.at(-1)!, now);
    spans.push(openSpan(state, now));
  }

  /**
   * Ends the rescale in progress: on success with the parallelism `graph` runs at now; a failure keeps its
   * exception on the last scheduler state.
   */
  end(reason: RescaleTerminatedReason, now: number, outcome: { graph?: JobGraph; exception?: string } = {}): void {
    const rescale = this.current;
    if (!rescale) return;
    this.current = undefined;
    const d = rescale.details;
    const terminal = TERMINAL_STATE_OF[reason];
    d.terminalState = terminal;
    d.terminatedReason = reason;
    d.endTimestampInMillis = now;
    if (outcome.graph) {
      for (const v of outcome.graph.vertices) {
        const vertex = d.vertices[v.id];
        if (vertex) vertex.postRescaleParallelism = v.parallelism;
        const slots = d.slots[v.slotSharingGroupId];
        if (slots) slots.postRescaleSlots = Math.max(slots.postRescaleSlots ?? 0, v.parallelism);
      }
    }
    const last = d.schedulerStates.at(-1);
    if (last) {
      closeSpan(last, now);
      if (outcome.exception !== undefined) last.stringifiedException = outcome.exception;
    }
    this.counts.inProgress--;
    this.counts[terminal === 'COMPLETED' ? 'completed' : terminal === 'FAILED' ? 'failed' : 'ignored']++;
    const duration = now - d.startTimestampInMillis;
    this.durations.all.add(duration);
    this.durations[terminal].add(duration);
  }

  /** `GET …/rescales/history`: the kept rescales, newest first, without vertices, slots or scheduler states. */
  history(): RescaleDetailsWire[] {
    return this.kept.map((r) => brief(r.details));
  }

  /** `GET …/rescales/details/:rescaleuuid`: the whole record, or undefined when not kept. */
  details(rescaleUuid: string): RescaleDetailsWire | undefined {
    const found = this.kept.find((r) => r.details.rescaleUuid === rescaleUuid);
    return found ? structuredClone(found.details) : undefined;
  }

  /** `GET …/rescales/overview`: the counts and the latest kept rescale of each terminal state. */
  overview(): { rescalesCounts: RescalesCountsWire; latest: Record<'completed' | 'failed' | 'ignored', RescaleDetailsWire | null> } {
    const latest = (state: RescaleTerminalState) => {
      const found = this.kept.find((r) => r.details.terminalState === state);
      return found ? brief(found.details) : null;
    };
    return { rescalesCounts: { ...this.counts }, latest: { completed: latest('COMPLETED'), failed: latest('FAILED'), ignored: latest('IGNORED') } };
  }

  /** `GET …/rescales/summary`: the counts and the durations (ms) of the ended rescales, all and per terminal state. */
  summary(): {
    rescalesCounts: RescalesCountsWire;
    rescalesDurationStatsInMillis: StatsSummaryWire;
    completedRescalesDurationStatsInMillis: StatsSummaryWire;
    ignoredRescalesDurationStatsInMillis: StatsSummaryWire;
    failedRescalesDurationStatsInMillis: StatsSummaryWire;
  } {
    return {
      rescalesCounts: { ...this.counts },
      rescalesDurationStatsInMillis: this.durations.all.toWire(),
      completedRescalesDurationStatsInMillis: this.durations.COMPLETED.toWire(),
      ignoredRescalesDurationStatsInMillis: this.durations.IGNORED.toWire(),
      failedRescalesDurationStatsInMillis: this.durations.FAILED.toWire(),
    };
  }
}

function brief(d: RescaleDetailsWire): RescaleDetailsWire {
  return { ...d, vertices: {}, slots: {}, schedulerStates: [] };
}

function openSpan(state: SchedulerStateName, enteredAt: number): SchedulerStateSpanWire {
  return { state, enterTimestampInMillis: enteredAt, leaveTimestampInMillis: null, durationInMillis: null, stringifiedException: null };
}

function closeSpan(span: SchedulerStateSpanWire, now: number): void {
  if (span.leaveTimestampInMillis !== null) return;
  span.leaveTimestampInMillis = now;
  span.durationInMillis = now - span.enterTimestampInMillis;
}
