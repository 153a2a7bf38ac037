/** The operations service: savepoint, stop-with-savepoint, cancel, rescale, resubmit, cancel-application, and their journal. */

import type { BeforeAfter } from './before-after.ts';
import type { ResubmitPlan, ShapeChange, VertexShape } from './job-shape.ts';
import type { JobState } from './jobs.ts';
import type { RescaleOutcome, RescalePlan } from './rescale.ts';

export interface OperationsApi {
  /** What the Operations area of a job offers: savepoint folder, scheduler, jars, the operation in flight. */
  context(clusterId: string, jobId: string): Promise<OperationsContext>;
  /**
   * Starts an operation: written to the journal first, then sent. The same `triggerId` again returns the same entry
   * and sends nothing (a double click or a retry); another open operation of the job is refused.
   */
  start(request: OperationRequest): Promise<JournalEntry>;
  /** One journal entry by its trigger id, or null. */
  journalEntry(id: string): Promise<JournalEntry | null>;
  /** Newest first. */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  exportJournal(filter: JournalFilter, format: 'csv' | 'json'): Promise<JournalExport>;
  /** Predicts each keyed vertex's per-subtask load at the new parallelism; changes nothing. */
  planRescale(clusterId: string, jobId: string, request: RescalePlanRequest): Promise<RescalePlan>;
  /**
   * The plan Flink would run for a resubmit (`POST /jars/:jarid/plan`, the run's arguments) beside the stopped run's
   * vertices, with every difference named; sends nothing that runs. Bad arguments or a missing jar: a clear error.
   */
  planResubmit(request: ResubmitPlanRequest): Promise<ResubmitPlan>;
  /** A finished rescale's prediction beside the load measured now. */
  rescaleOutcome(entryId: string): Promise<RescaleOutcome>;
  /**
   * A finished rescale or resubmit: the job's figures (skew, busy, throughput, checkpoints, state) from the history
   * before it and once the job ran again. Kept in the journal entry once the after window is complete.
   */
  beforeAfter(entryId: string): Promise<BeforeAfter>;
  /** The job's savepoints and those of its earlier runs, newest first. */
  savepoints(clusterId: string, jobId: string): Promise<SavepointListing[]>;
  /** What disposing a savepoint loses, as far as the console knows it (its job, when, its size): for the confirmation. */
  disposalImpact(clusterId: string, savepointPath: string): Promise<SavepointDisposalImpact>;
}

/** A savepoint about to be disposed: what the confirmation names. */
export interface SavepointDisposalImpact {
  path: string;
  /** The run it came from, when the journal or the checkpoint history knows it. */
  jobId: string | null;
  jobName: string | null;
  time: number | null;
  /** Its checkpointed size in bytes, when the checkpoint history gives it. */
  sizeBytes: number | null;
  /** "Deletes file:/…/savepoint-1a2b3c-… (gatewaymeter, 12 MiB, 2026-…): no job can be restored from it afterwards." */
  sentence: string;
  /** An open disposal of this path (any process), which disables the button. */
  inFlight: JournalEntry | null;
}

export interface RescalePlanRequest {
  /** One parallelism for the job, or per vertex id. */
  parallelism: number | Record<string, number>;
  hotKeys?: HotKeyLoad[];
}

export type OperationKind = 'savepoint' | 'stop' | 'cancel' | 'rescale' | 'resubmit' | 'cancel-application' | 'dispose-savepoint';

export const OPERATION_KINDS: readonly OperationKind[] = ['savepoint', 'stop', 'cancel', 'rescale', 'resubmit', 'cancel-application', 'dispose-savepoint'];

/**
 * Where an operation stands. `pending`: in the journal, its request sent or about to be, no answer seen yet (it may
 * or may not have reached the cluster). `in-progress`: the cluster took it. The other four are outcomes:
 * `not-started` means the cluster provably never got it (nothing happened), `unknown` that the cluster lost track
 * of it and nobody can tell what happened (never reported as a success).
 */
export type OperationState = 'pending' | 'in-progress' | 'succeeded' | 'failed' | 'not-started' | 'unknown';

export const OPEN_OPERATION_STATES: readonly OperationState[] = ['pending', 'in-progress'];

/** Savepoint format (Flink's `formatType`): canonical is portable across state backends; native is faster. */
export type SavepointFormat = 'canonical' | 'native';

/** The program to run from a savepoint through `POST /jars/:jarid/run`. */
export interface JarProgram {
  jarId: string;
  /** The jar's main class when it has several. */
  entryClass?: string;
  programArgs?: string[];
}

/** A key whose load is known (typed in, or from a Kafka sample): placed exactly by the rescale plan. */
export interface HotKeyLoad {
  key: string;
  recordsPerSecond: number;
  /** Only this keyed vertex; absent = every keyed vertex of the job. */
  vertexId?: string;
}

/** What the user asks for. `triggerId` (32 hex) is made once per intent by the caller: a retry reuses it. */
export type OperationRequest =
  | { kind: 'savepoint'; clusterId: string; jobId: string; triggerId: string; targetDirectory?: string; format?: SavepointFormat }
  | { kind: 'stop'; clusterId: string; jobId: string; triggerId: string; targetDirectory?: string; format?: SavepointFormat; drain: boolean }
  | { kind: 'cancel'; clusterId: string; jobId: string; triggerId: string }
  /** Flink 2.3: cancel an application, and with it every job of it (`POST /applications/:id/cancel`). */
  | { kind: 'cancel-application'; clusterId: string; applicationId: string; triggerId: string }
  | {
      kind: 'rescale';
      clusterId: string;
      jobId: string;
      triggerId: string;
      /** One parallelism for every vertex, or per vertex id (the adaptive route only). */
      parallelism: number | Record<string, number>;
      /** @default adaptive where the cluster runs the adaptive scheduler, else savepoint */
      route?: 'adaptive' | 'savepoint';
      /** The savepoint route: the program to resubmit, and where the savepoint goes. */
      program?: JarProgram;
      targetDirectory?: string;
      hotKeys?: HotKeyLoad[];
    }
  /** `POST /savepoint-disposal`: deletes a savepoint; the console forgets it once Flink says it is done. */
  | { kind: 'dispose-savepoint'; clusterId: string; triggerId: string; savepointPath: string; /** The job it came from, if known. */ jobId?: string }
  | {
      kind: 'resubmit';
      clusterId: string;
      /** The job this run replaces (its savepoints), if any. */
      jobId?: string;
      triggerId: string;
      program: JarProgram;
      savepointPath?: string;
      parallelism?: number;
      allowNonRestoredState?: boolean;
    };

/** A resubmit as the user is about to ask for it: what `planResubmit` plans. */
export type ResubmitPlanRequest = Omit<Extract<OperationRequest, { kind: 'resubmit' }>, 'kind' | 'triggerId'>;

/** What an operation was asked to do, as the journal keeps it. */
export interface OperationParams {
  targetDirectory?: string;
  format?: SavepointFormat;
  drain?: boolean;
  route?: 'adaptive' | 'savepoint';
  /** Target parallelism per vertex id. */
  parallelism?: Record<string, number>;
  /** One job-wide parallelism (savepoint route, resubmit). */
  jobParallelism?: number;
  program?: JarProgram;
  savepointPath?: string;
  allowNonRestoredState?: boolean;
  /** The id the resubmitted job gets, chosen before the request so that a retry can never run it twice. */
  newJobId?: string;
  /** Steps of a rescale through a savepoint: their own journal entries. */
  stopTriggerId?: string;
  resubmitTriggerId?: string;
  hotKeys?: HotKeyLoad[];
  /** Resubmit: the stopped run's vertices and the plan the user confirmed, kept to compare the new job with. */
  stoppedShape?: VertexShape[];
  plannedShape?: VertexShape[];
  /** cancel-application: the application, and its jobs as they were when the cancel was confirmed (the ones that end). */
  applicationId?: string;
  applicationJobs?: Array<{ id: string; name: string; state: string }>;
  /** dispose-savepoint: Flink's trigger id of the disposal (Flink chooses it: known once the trigger is answered). */
  disposalTriggerId?: string;
  /** dispose-savepoint: a disposal request may have reached the cluster before the one now in flight. */
  disposalResent?: boolean;
  /** dispose-savepoint: the size the confirmation showed. */
  savepointSizeBytes?: number | null;
}

/** One operation in the journal, written before its request is sent and updated as it progresses. */
export interface JournalEntry {
  /** The trigger id: the idempotency key sent to Flink (savepoint, stop) or kept by the console. */
  id: string;
  kind: OperationKind;
  state: OperationState;
  clusterId: string;
  clusterName: string;
  clusterUrl: string;
  jobId: string | null;
  jobName: string | null;
  params: OperationParams;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** What is happening now, in words ("savepoint in progress", "waiting for parallelism 8"). */
  progress: string | null;
  /** The savepoint's path (savepoint, stop, rescale through a savepoint). */
  resultPath: string | null;
  /** The job a resubmit (or a rescale through a savepoint) started. */
  newJobId: string | null;
  /** Why it failed, or why its outcome is unknown, in words. */
  failure: string | null;
  /** Flink's own message behind `failure`. */
  failureDetail: string | null;
  origin: 'app' | 'cli';
  /** The rescale this step belongs to. */
  parentId: string | null;
  /** REST requests spent: the trigger(s), and the polling until the outcome. */
  requests: { trigger: number; poll: number };
  /** A rescale's plan, made before the user confirmed. */
  plan: RescalePlan | null;
  /** A savepoint or stop in flight: its savepoint's acknowledged subtasks, read while it runs (absent in older entries). */
  checkpoint?: SavepointProgress | null;
  /** What the operation did to the job's other checkpoints, e.g. the periodic checkpoint a stop abandoned. */
  checkpointNote?: string | null;
  /**
   * Resubmit: how the new job's vertices differ from the stopped run's (empty: the same shape), once it runs.
   * Absent when there was nothing to compare (no stopped run, or not running yet).
   */
  shapeChanges?: ShapeChange[];
  /**
   * An in-place rescale: where its outcome came from. `rescale-history`: Flink's own record of it (2.3+, adaptive
   * scheduler, `web.adaptive-scheduler.rescale-history.size` > 0); `observed`: the job's parallelism as the console
   * watched it (older Flink, or no history). Absent in older entries and other operations.
   */
  outcomeSource?: 'rescale-history' | 'observed';
  /** Flink's record of this rescale (its UUID, state, reason, each vertex before/after), when it has one. */
  rescaleRecord?: RescaleRecord | null;
  /** A rescale or resubmit: before vs after, kept once its after window was complete (absent before, and in older entries). */
  beforeAfter?: BeforeAfter | null;
}

/** One rescale as the adaptive scheduler's rescale history records it (Flink 2.3+, FLIP-495). */
export interface RescaleRecord {
  rescaleUuid: string;
  /** INITIAL_SCHEDULE, UPDATE_REQUIREMENT, NEW_RESOURCE_AVAILABLE, RECOVERABLE_FAILOVER. */
  triggerCause: string | null;
  /** COMPLETED, FAILED, IGNORED; null while it runs. */
  terminalState: string | null;
  /** SUCCEEDED, NO_RESOURCES_OR_PARALLELISMS_CHANGE, RESOURCE_REQUIREMENTS_UPDATED, EXCEPTION_OCCURRED, JOB_…. */
  terminatedReason: string | null;
  /** The reason (or the state) in words. */
  words: string;
  startedAt: number | null;
  endedAt: number | null;
  /** Empty where Flink sent none (its history list leaves them out; its details fill them). */
  vertices: Array<{ vertexId: string; vertexName: string | null; desired: number | null; before: number | null; after: number | null }>;
  slots: Array<{ slotSharingGroup: string; desired: number | null; minimal: number | null; before: number | null; after: number | null }>;
  /** The exception of a FAILED rescale (Flink's text), else null. */
  exception: string | null;
}

export interface JournalFilter {
  clusterId?: string;
  jobId?: string;
  kind?: OperationKind;
  state?: OperationState;
  /** Matches id, job, path, failure, progress. */
  text?: string;
  /** Newest first. @default 500 */
  limit?: number;
}

/** A journal export, for a download or a save dialog. */
export interface JournalExport {
  fileName: string;
  mimeType: string;
  content: string;
}

/** What the Operations area needs to offer the right choices for a job. */
export interface OperationsContext {
  clusterId: string;
  jobId: string;
  jobName: string;
  jobState: JobState;
  flinkVersion: string;
  /** The cluster's default savepoint folder and the key it came from; null = the user must give one. */
  savepointDirectory: { value: string; key: string } | null;
  scheduler: { kind: 'adaptive' | 'default'; reason: string };
  vertices: Array<{ id: string; name: string; parallelism: number; maxParallelism: number | null; keyed: boolean }>;
  slots: { total: number; available: number; usedByJob: number };
  /** Jars uploaded to the cluster (`GET /jars`). */
  jars: Array<{ id: string; name: string; uploaded: number; entryClasses: string[] }>;
  /** null when jobs can be run from an uploaded jar; else why not and what to do instead. */
  jarSubmissionUnavailable: string | null;
  /** Best guess of the program that runs this job, for the resubmit form (always shown to the user to check). */
  /** `parallelism`: the stopped run's job parallelism; null when unknown (none is sent: the program's and the cluster's default). */
  resubmitDefaults: { program: JarProgram | null; parallelism: number | null; source: string };
  /** An open operation of this job (any process), which disables the buttons. */
  inFlight: JournalEntry | null;
  /**
   * How long the job's recent checkpoints took (`GET /jobs/:id/checkpoints`), for the savepoint and stop
   * confirmations; null when the JobManager gives no checkpoint statistics.
   */
  recentCheckpoints: RecentCheckpoints | null;
}

/** The job's recent checkpoints, as a savepoint's confirmation tells them. */
export interface RecentCheckpoints {
  /** Completed checkpoints and savepoints in the JobManager's history (`web.checkpoints.history`). */
  completed: number;
  minMs: number | null;
  maxMs: number | null;
  /** Flink's summary p50 (its window of recent checkpoints), else the history's median. */
  p50Ms: number | null;
  /** "Recent checkpoints took 14–20 s (p50 18 s, last 5): this savepoint will likely take about as long, under backpressure longer." */
  sentence: string;
  /** Stop-with-savepoint only: what stopping does to a checkpoint in flight. */
  stopNote: string;
}

/** The savepoint of a running savepoint or stop-with-savepoint, as the job's checkpoint statistics show it. */
export interface SavepointProgress {
  /** Its checkpoint id (a savepoint is a checkpoint with `is_savepoint`). */
  checkpointId: number;
  acknowledged: number;
  total: number;
  triggerTimestamp: number;
  /** Per vertex in the job's order (`/checkpoints/details/:id`); null when not read. */
  vertices: Array<{ vertexId: string; name: string; acknowledged: number; total: number }> | null;
  /** When the console read it (epoch ms). */
  readAt: number;
}

/** A savepoint of a job or of an earlier run of it. */
export interface SavepointListing {
  path: string;
  /** When it completed (or was triggered, when that is all that is known). */
  time: number;
  format: SavepointFormat | null;
  /** The run it came from. */
  jobId: string;
  jobName: string | null;
  /** How it was taken. */
  kind: 'savepoint' | 'stop' | 'unknown';
  source: 'journal' | 'checkpoint-history';
  /** Checkpoint id within that run, when known. */
  checkpointId: number | null;
}
