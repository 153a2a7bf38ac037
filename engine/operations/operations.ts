import { randomBytes } from 'node:crypto';
import type { ResubmitPlan, VertexShape } from '../contracts/job-shape.ts';
import type { HotKeyLoad, JarProgram, JournalEntry, OperationParams, OperationRequest, OperationsContext, RecentCheckpoints, ResubmitPlanRequest, SavepointDisposalImpact } from '../contracts/operations.ts';
import type { BeforeAfter } from '../contracts/before-after.ts';
import type { RescaleOutcome, RescalePlan } from '../contracts/rescale.ts';
import { recentCheckpoints } from '../analysis/savepoint-progress.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { operationEndpoints } from '../flink-rest/operation-endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { loadFigures } from '../analysis/rescale-plan.ts';
import { fetchApplication, fetchApplications } from '../applications/cluster-applications.ts';
import { driveCancelApplication } from './cancel-application-operation.ts';
import { driveCancel } from './cancel-operation.ts';
import {
  guessProgram,
  jarSubmissionUnavailable,
  keyedVertexIds,
  readClusterFacts,
  savepointDirectory,
  schedulerOf,
  slotsUsedByJob,
  type ClusterFacts,
} from './cluster-facts.ts';
import { DEFAULT_OPERATION_SETTINGS, REAL_CLOCK, type DriveOptions, type DriverContext, type OperationClock, type OperationSettings } from './driver-context.ts';
import { isOpen, LeaseLostError, newEntry, OperationsJournal, publicEntry, type StoredJournalEntry } from './journal.ts';
import { compareShapes, matchVertices, shapeOfJob, shapeOfPlan } from './job-shape.ts';
import { readBeforeAfter } from './before-after.ts';
import { observeLoad } from './observed-load.ts';
import { jarPlanBody } from './request-bodies.ts';
import { driveRescale, isNewStep, type NewStep } from './rescale-operation.ts';
import { buildRescalePlan, targetParallelism, validateHotKeys } from './rescale-planning.ts';
import { driveResubmit } from './resubmit-operation.ts';
import { driveSavepoint } from './savepoint-operation.ts';
import { driveDisposal } from './dispose-savepoint-operation.ts';
import { flinkSpelling } from '../contracts/flink-path.ts';
import { bytesInIecUnits } from '../contracts/format-bytes.ts';

/** A cluster as the operations reach it. */
export interface OperationsCluster {
  id: string;
  name: string;
  url: string;
  client: FlinkRestClient;
  /** `metrics.fetcher.update-interval`: live load measurements are taken this far apart. */
  metricsFetchIntervalMs(): Promise<number>;
}

export interface OperationsDeps {
  history: HistoryStore;
  /** The cluster of an id; throws an EngineError when it is unknown. */
  cluster(clusterId: string): OperationsCluster;
  /**
   * The cluster of a journal entry written by another process (the app's entries in the CLI, or the reverse):
   * by id if this process knows it, else by its URL. undefined when it cannot be reached from here.
   */
  clusterOfEntry(entry: Pick<JournalEntry, 'clusterId' | 'clusterUrl' | 'clusterName'>): OperationsCluster | undefined;
  origin: 'app' | 'cli';
  clock?: OperationClock;
  settings?: Partial<OperationSettings>;
  journal?: OperationsJournal;
}

const TRIGGER_ID = /^[0-9a-f]{32}$/;
/** A plan made this recently is what the user confirmed: the rescale uses it rather than measuring again. */
const PLAN_REUSE_MS = 5 * 60_000;

export function newTriggerId(): string {
  return randomBytes(16).toString('hex');
}

function since(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

const KIND_WORDS: Record<JournalEntry['kind'], string> = {
  savepoint: 'savepoint',
  stop: 'stop-with-savepoint',
  cancel: 'cancel',
  rescale: 'rescale',
  resubmit: 'resubmit',
  'cancel-application': 'cancel of the application',
  'dispose-savepoint': 'disposal of this savepoint',
};

/**
 * The operations of the console: savepoint, stop-with-savepoint, cancel, rescale and resubmit. Each is written to the
 * journal before anything is sent, then driven to its outcome (trigger-then-poll); one process drives an entry at a
 * time (its lease). On start the app and the CLI resume the open entries nobody drives.
 */
export class Operations {
  readonly journal: OperationsJournal;
  private readonly clock: OperationClock;
  private readonly settings: OperationSettings;
  /** Entries this process drives now: a second start or resume of one joins it. */
  private readonly running = new Map<string, Promise<StoredJournalEntry>>();
  private readonly plans = new Map<string, RescalePlan>();
  private background: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: OperationsDeps) {
    this.journal = deps.journal ?? new OperationsJournal(deps.history);
    this.clock = deps.clock ?? REAL_CLOCK;
    this.settings = { ...DEFAULT_OPERATION_SETTINGS, ...deps.settings };
  }

  // --- starting -----------------------------------------------------------------------------------------------

  /**
   * Validates, writes the entry, and starts driving it. Returns at once with the entry and a promise of its outcome.
   * The same trigger id again returns the existing entry and sends nothing.
   */
  async start(request: OperationRequest, options: DriveOptions = {}): Promise<{ entry: StoredJournalEntry; done: Promise<StoredJournalEntry> }> {
    if (typeof request !== 'object' || request === null) throw new EngineError('invalid-input', 'No operation given.');
    if (typeof request.triggerId !== 'string' || !TRIGGER_ID.test(request.triggerId)) {
      throw new EngineError('invalid-input', `The trigger id must be 32 lower-case hex characters, not "${String(request.triggerId)}".`);
    }
    const existing = this.journal.get(request.triggerId);
    if (existing) return { entry: existing, done: this.running.get(existing.id) ?? Promise.resolve(existing) };
    const cluster = this.deps.cluster(request.clusterId);
    const draft = await this.prepare(request, cluster);
    const created = await this.journal.create(draft, (open) => open.clusterId === draft.clusterId && open.parentId === null && conflicts(open, draft));
    if (!created.created) {
      if (created.reason === 'same-id') return { entry: created.entry, done: this.running.get(created.entry.id) ?? Promise.resolve(created.entry) };
      const open = created.entry;
      throw new EngineError(
        'invalid-input',
        `A ${KIND_WORDS[open.kind]} of this job is in flight (started ${since(this.clock.now() - open.createdAt)} from the ${open.origin === 'cli' ? 'CLI' : 'app'}, trigger ${open.id}): wait for its outcome, or see the journal.`,
      );
    }
    if (!isOpen(created.entry.state)) return { entry: created.entry, done: Promise.resolve(created.entry) };
    const done = this.track(created.entry.id, () => this.driveEntry(created.entry, cluster, true, options));
    return { entry: created.entry, done };
  }

  private base(request: OperationRequest, cluster: OperationsCluster, jobName: string | null, jobId = 'jobId' in request ? (request.jobId ?? null) : null): Omit<StoredJournalEntry, 'lease' | 'phase' | 'params' | 'kind'> {
    return newEntry(request.triggerId, this.clock.now(), {
      clusterId: cluster.id,
      clusterName: cluster.name,
      clusterUrl: cluster.url,
      jobId,
      jobName,
      origin: this.deps.origin,
      parentId: null,
    });
  }

  /** The entry to write for a request: validated, with defaults from the cluster; a refusal is an entry too. */
  private async prepare(request: OperationRequest, cluster: OperationsCluster): Promise<Omit<StoredJournalEntry, 'lease'>> {
    if (request.kind === 'resubmit') return this.prepareResubmit(request, cluster);
    if (request.kind === 'cancel-application') return this.prepareCancelApplication(request, cluster);
    if (request.kind === 'dispose-savepoint') return this.prepareDisposal(request, cluster);
    if (!['savepoint', 'stop', 'cancel', 'rescale'].includes(request.kind)) throw new EngineError('invalid-input', `Unknown operation "${String((request as { kind: unknown }).kind)}".`);
    requireJobId(request.jobId);
    let facts: ClusterFacts;
    try {
      facts = await readClusterFacts(cluster.client, request.jobId);
    } catch (error) {
      if (error instanceof EngineError && error.info.status === 404) {
        throw new EngineError('not-found', `${cluster.name} has no job ${request.jobId}.`, { status: 404 });
      }
      throw error;
    }
    const base = this.base(request, cluster, facts.details.name);
    const refused = (why: string): Omit<StoredJournalEntry, 'lease'> => ({
      ...base,
      kind: request.kind,
      phase: 'refused',
      params: {},
      state: 'failed',
      finishedAt: base.createdAt,
      failure: why,
    });
    if (isEndedJobState(facts.details.state) || (request.kind !== 'cancel' && facts.details.state !== 'RUNNING')) {
      const verb = { savepoint: 'take a savepoint of', stop: 'stop', cancel: 'cancel', rescale: 'rescale' }[request.kind];
      return refused(`Not sent: the job is ${facts.details.state}, so there is nothing to ${verb}${isEndedJobState(facts.details.state) ? '' : ' until it runs'}.`);
    }

    if (request.kind === 'cancel') return { ...base, kind: 'cancel', phase: 'request', params: {} };

    if (request.kind === 'savepoint' || request.kind === 'stop') {
      const params: OperationParams = { targetDirectory: this.targetDirectory(request.targetDirectory, facts), format: checkFormat(request.format) };
      if (request.kind === 'stop') {
        if (typeof request.drain !== 'boolean') throw new EngineError('invalid-input', 'Say whether to drain: `drain` must be true or false.');
        params.drain = request.drain;
      }
      return { ...base, kind: request.kind, phase: 'trigger', params };
    }

    // rescale
    const target = targetParallelism(facts, request.parallelism);
    const hotKeys = validateHotKeys(request.hotKeys);
    const plan = await this.plan(cluster, facts, target, hotKeys, request.route);
    if (plan.refusals.length > 0) throw new EngineError('invalid-input', plan.refusals.join(' '));
    const params: OperationParams = { route: plan.route, parallelism: target, hotKeys };
    if (plan.route === 'savepoint') {
      const program = request.program ?? (await this.defaultProgram(facts, request.jobId)).program;
      const unavailable = jarSubmissionUnavailable(facts);
      if (!program || unavailable) throw new EngineError('invalid-input', `A rescale through a savepoint resubmits the job from a jar. ${unavailable ?? 'Say which jar runs this job.'}`);
      checkProgram(program, facts);
      Object.assign(params, {
        jobParallelism: Object.values(target)[0],
        program,
        targetDirectory: this.targetDirectory(request.targetDirectory, facts),
        stopTriggerId: newTriggerId(),
        resubmitTriggerId: newTriggerId(),
        newJobId: newTriggerId(),
      });
    }
    return { ...base, kind: 'rescale', phase: plan.route === 'savepoint' ? 'stop' : 'request', params, plan };
  }

  /**
   * The application and its jobs as they are now, kept in the entry: what the user confirmed ends. Its only job (a
   * single-job application) is the entry's job, so the job's page shows the cancel and no other operation of it starts.
   */
  private async prepareCancelApplication(request: Extract<OperationRequest, { kind: 'cancel-application' }>, cluster: OperationsCluster): Promise<Omit<StoredJournalEntry, 'lease'>> {
    const applicationId = requireApplicationId(request.applicationId);
    const list = await fetchApplications(cluster.client, cluster.id);
    if (!list.supported) throw new EngineError('invalid-input', `${list.unsupported} Cancel its jobs instead.`);
    const app = await fetchApplication(cluster.client, cluster.id, applicationId);
    const applicationJobs = app.jobs.map((j) => ({ id: j.id, name: j.name, state: j.state }));
    const base = this.base(request, cluster, app.name, applicationJobs.length === 1 ? applicationJobs[0].id : null);
    const params: OperationParams = { applicationId, applicationJobs };
    if (app.endTime !== null || isEndedJobState(app.state)) {
      return { ...base, kind: 'cancel-application', phase: 'refused', params, state: 'failed', finishedAt: base.createdAt, failure: `Not sent: the application is ${app.state}, so there is nothing to cancel.` };
    }
    return { ...base, kind: 'cancel-application', phase: 'request', params };
  }

  /** A disposal: its path as the user confirmed it, and the run it came from when known (the job's journal lists it). */
  private async prepareDisposal(request: Extract<OperationRequest, { kind: 'dispose-savepoint' }>, cluster: OperationsCluster): Promise<Omit<StoredJournalEntry, 'lease'>> {
    const path = typeof request.savepointPath === 'string' ? request.savepointPath.trim() : '';
    if (path === '') throw new EngineError('invalid-input', 'Which savepoint? Give its path (as Flink printed it, e.g. file:/savepoints/savepoint-1a2b3c-0123456789ab).');
    if (request.jobId !== undefined) requireJobId(request.jobId);
    const impact = await this.disposalImpact(cluster.id, path);
    const jobId = request.jobId ?? impact.jobId;
    return {
      ...this.base(request, cluster, impact.jobName, jobId ?? null),
      kind: 'dispose-savepoint',
      phase: 'trigger',
      params: { savepointPath: path, savepointSizeBytes: impact.sizeBytes },
    };
  }

  /** What disposing `savepointPath` loses, from the journal and the job's checkpoint history. */
  async disposalImpact(clusterId: string, savepointPath: string): Promise<SavepointDisposalImpact> {
    if (typeof savepointPath !== 'string' || savepointPath.trim() === '') throw new EngineError('invalid-input', 'Which savepoint? Give its path.');
    const path = savepointPath.trim();
    const cluster = this.deps.cluster(clusterId);
    const same = (p: string | null | undefined) => typeof p === 'string' && flinkSpelling(p) === flinkSpelling(path);
    const entries = this.journal.list({ clusterId: cluster.id, limit: Number.MAX_SAFE_INTEGER });
    const taken = entries.find((e) => same(e.resultPath) && e.jobId && (e.kind === 'savepoint' || e.kind === 'stop' || e.kind === 'rescale'));
    const jobId = taken?.jobId ?? null;
    let sizeBytes: number | null = null;
    let time = taken ? (taken.finishedAt ?? taken.updatedAt) : null;
    if (jobId) {
      try {
        const body = await cluster.client.request(operationEndpoints.savepointHistory, { jobid: jobId });
        const found = [...(body.history ?? []), ...(body.latest?.savepoint ? [body.latest.savepoint] : [])].find((c) => same(c.external_path));
        if (found) {
          sizeBytes = found.checkpointed_size ?? null;
          time = found.latest_ack_timestamp && found.latest_ack_timestamp > 0 ? found.latest_ack_timestamp : (time ?? found.trigger_timestamp);
        }
      } catch {
        // The cluster no longer lists that run: the journal's record stands.
      }
    }
    const open = entries.find((e) => e.kind === 'dispose-savepoint' && isOpen(e.state) && same(e.params.savepointPath));
    const facts = [taken?.jobName ? `of ${taken.jobName} (${jobId})` : jobId ? `of job ${jobId}` : 'of a job the console has no record of', sizeBytes !== null ? bytesInIecUnits(sizeBytes) : null, time ? new Date(time).toISOString() : null]
      .filter((f): f is string => f !== null)
      .join(', ');
    return {
      path,
      jobId,
      jobName: taken?.jobName ?? null,
      time,
      sizeBytes,
      sentence: `Deletes the savepoint ${path} (${facts}) for good: no job can be restored from it afterwards. The console forgets it once Flink says the disposal completed.`,
      inFlight: open ? publicEntry(open) : null,
    };
  }

  private async prepareResubmit(request: Extract<OperationRequest, { kind: 'resubmit' }>, cluster: OperationsCluster): Promise<Omit<StoredJournalEntry, 'lease'>> {
    const { plan, jobName } = await this.resubmitPlanOf(request, cluster);
    // A jar run from a savepoint of a job the journal knows replaces that job: its savepoints stay linked to the new run.
    return {
      ...this.base(request, cluster, jobName, request.jobId ?? plan.stoppedJob?.jobId ?? null),
      kind: 'resubmit',
      phase: 'submit',
      params: {
        program: request.program,
        jobParallelism: request.parallelism,
        savepointPath: request.savepointPath?.trim(),
        allowNonRestoredState: request.allowNonRestoredState === true,
        newJobId: newTriggerId(),
        ...(plan.stopped ? { stoppedShape: plan.stopped } : {}),
        plannedShape: plan.planned,
      },
    };
  }

  /**
   * What a resubmit would run (Flink's plan of the jar with the run's arguments) beside the stopped run; starts
   * nothing. Bad arguments, a jar that is gone, an entry class the jar lacks: an error that says so.
   */
  async planResubmit(request: ResubmitPlanRequest): Promise<ResubmitPlan> {
    if (typeof request !== 'object' || request === null) throw new EngineError('invalid-input', 'No resubmit given.');
    return (await this.resubmitPlanOf(request, this.deps.cluster(request.clusterId))).plan;
  }

  private async resubmitPlanOf(request: ResubmitPlanRequest, cluster: OperationsCluster): Promise<{ plan: ResubmitPlan; jobName: string | null }> {
    if (request.jobId !== undefined) requireJobId(request.jobId);
    const program = request.program;
    if (!program || typeof program.jarId !== 'string' || program.jarId === '') throw new EngineError('invalid-input', 'Which jar? A resubmit runs an uploaded jar: give its id.');
    if (program.programArgs !== undefined && (!Array.isArray(program.programArgs) || program.programArgs.some((a) => typeof a !== 'string'))) {
      throw new EngineError('invalid-input', 'Program arguments must be a list of strings.');
    }
    if (request.parallelism !== undefined && !(Number.isInteger(request.parallelism) && request.parallelism > 0)) {
      throw new EngineError('invalid-input', `The parallelism must be a whole number of at least 1, not "${String(request.parallelism)}".`);
    }
    if (request.savepointPath !== undefined && (typeof request.savepointPath !== 'string' || request.savepointPath.trim() === '')) {
      throw new EngineError('invalid-input', 'The savepoint path is empty.');
    }
    // A jar run from a savepoint names no job: the job the journal took that savepoint of is what it is compared with.
    const savepointJob = request.jobId === undefined && request.savepointPath ? this.jobOfSavepoint(cluster.id, request.savepointPath) : null;
    const comparedJobId = request.jobId ?? savepointJob ?? undefined;
    const { jarListFacts, jobName, stopped } = await this.resubmitFacts(cluster, comparedJobId);
    const unavailable = jarSubmissionUnavailable(jarListFacts);
    if (unavailable) throw new EngineError('invalid-input', unavailable);
    checkProgram(program, jarListFacts);
    let answer;
    try {
      answer = await cluster.client.request(operationEndpoints.planJar, { jarid: program.jarId }, undefined, { body: jarPlanBody(program, { jobParallelism: request.parallelism }) });
    } catch (error) {
      // The plan runs the program's main(): its failure is the run's (bad arguments, a missing class or jar).
      if (error instanceof EngineError && error.info.status !== undefined) {
        throw new EngineError('invalid-input', `Not sent: Flink could not plan ${program.jarId} with these arguments (${error.info.message}). Check the jar, the entry class and the program arguments.`);
      }
      throw error;
    }
    const planned = shapeOfPlan(answer.plan);
    // A planned vertex the stopped run had goes by the name the job showed (a plan has only descriptions).
    if (stopped) for (const [before, after] of matchVertices(stopped, planned)) if (after) after.name = before.name;
    return {
      plan: {
        planned,
        stopped,
        changes: stopped ? compareShapes(stopped, planned) : [],
        jobParallelism: request.parallelism ?? null,
        stoppedJob: stopped && comparedJobId ? { jobId: comparedJobId, source: request.jobId ? 'request' : 'savepoint' } : null,
        graph: { nodes: answer.plan.nodes.map((n) => ({ id: n.id, description: n.description ?? '', parallelism: n.parallelism ?? 1, inputs: (n.inputs ?? []).map((i) => ({ id: i.id, ship_strategy: i.ship_strategy })) })) },
      },
      jobName,
    };
  }

  /** The job the journal took a savepoint at this path of (a savepoint, a stop, a rescale's stop step). */
  private jobOfSavepoint(clusterId: string, savepointPath: string): string | null {
    const path = flinkSpelling(savepointPath.trim());
    const taken = this.journal.list({ clusterId, limit: Number.MAX_SAFE_INTEGER }).find((e) => e.resultPath && flinkSpelling(e.resultPath) === path && e.jobId && e.kind !== 'dispose-savepoint');
    return taken?.jobId ?? null;
  }

  private async resubmitFacts(
    cluster: OperationsCluster,
    jobId: string | undefined,
  ): Promise<{ jarListFacts: Pick<ClusterFacts, 'webSubmit' | 'jars'>; jobName: string | null; stopped: VertexShape[] | null }> {
    if (jobId) {
      try {
        const facts = await readClusterFacts(cluster.client, jobId);
        return { jarListFacts: facts, jobName: facts.details.name, stopped: shapeOfJob(facts.details) };
      } catch (error) {
        if (!(error instanceof EngineError && error.info.status === 404)) throw error;
      }
    }
    let jars = null;
    let webSubmit = null;
    try {
      jars = (await cluster.client.request(operationEndpoints.jars)).files;
    } catch (error) {
      if (!(error instanceof EngineError && [403, 404, 405].includes(error.info.status ?? 0))) throw error;
    }
    try {
      webSubmit = (await cluster.client.request(operationEndpoints.dashboardFeatures)).features?.['web-submit'] ?? null;
    } catch {
      webSubmit = null;
    }
    return { jarListFacts: { jars, webSubmit }, jobName: null, stopped: null };
  }

  private targetDirectory(given: string | undefined, facts: ClusterFacts): string {
    if (given !== undefined && typeof given !== 'string') throw new EngineError('invalid-input', 'The target directory must be a path.');
    const dir = given?.trim() || savepointDirectory(facts)?.value;
    if (!dir) {
      throw new EngineError(
        'invalid-input',
        'No target directory: this cluster has no default savepoint folder (execution.checkpointing.savepoint-dir / state.savepoints.dir). Give one the JobManager can write, e.g. s3://bucket/savepoints or file:///data/savepoints.',
      );
    }
    return dir;
  }

  // --- driving ------------------------------------------------------------------------------------------------

  private track(id: string, run: () => Promise<StoredJournalEntry>): Promise<StoredJournalEntry> {
    const existing = this.running.get(id);
    if (existing) return existing;
    const promise = run().finally(() => this.running.delete(id));
    this.running.set(id, promise);
    return promise;
  }

  private context(cluster: OperationsCluster, options: DriveOptions): DriverContext {
    return {
      journal: this.journal,
      client: cluster.client,
      clock: this.clock,
      settings: this.settings,
      options,
      drive: (step) => this.driveStep(step, cluster, options),
    };
  }

  private async driveEntry(entry: StoredJournalEntry, cluster: OperationsCluster, fresh: boolean, options: DriveOptions): Promise<StoredJournalEntry> {
    const ctx = this.context(cluster, options);
    try {
      switch (entry.kind) {
        case 'savepoint':
        case 'stop':
          return await driveSavepoint(entry, ctx, fresh);
        case 'cancel':
          return await driveCancel(entry, ctx, fresh);
        case 'cancel-application':
          return await driveCancelApplication(entry, ctx, fresh);
        case 'resubmit':
          return await driveResubmit(entry, ctx, fresh);
        case 'rescale':
          return await driveRescale(entry, ctx, fresh);
        case 'dispose-savepoint':
          return await driveDisposal(entry, ctx, fresh);
      }
    } catch (error) {
      if (!(error instanceof LeaseLostError)) {
        // A fault of the console itself: the entry stays open (its lease released) and is resumed on the next start.
        await this.journal.release(entry.id).catch(() => undefined);
        throw error;
      }
    }
    return this.journal.get(entry.id) ?? entry;
  }

  /** A step of a rescale: written if new, else taken over if free; a step held by another live process is left to it. */
  private async driveStep(step: StoredJournalEntry | NewStep, cluster: OperationsCluster, options: DriveOptions): Promise<StoredJournalEntry> {
    if (isNewStep(step)) {
      const { isNewStep: _marker, lease: _lease, ...draft } = step;
      const now = this.clock.now();
      const created = await this.journal.create({ ...draft, createdAt: now, updatedAt: now });
      if (!created.created) return this.driveStep(created.entry, cluster, options);
      return this.track(created.entry.id, () => this.driveEntry(created.entry, cluster, true, options));
    }
    if (!isOpen(step.state)) return step;
    const running = this.running.get(step.id);
    if (running) return running;
    const claimed = await this.journal.claim(step.id);
    if (!claimed) return this.journal.get(step.id) ?? step;
    return this.track(claimed.id, () => this.driveEntry(claimed, cluster, false, options));
  }

  /**
   * Resumes the open entries nobody drives (their process died or gave up): each is claimed, then asked about with
   * its trigger id and driven to its outcome. Steps of a rescale are resumed through their rescale.
   */
  async resumeOrphans(options: DriveOptions = {}): Promise<StoredJournalEntry[]> {
    const resumed = new Map<string, Promise<StoredJournalEntry>>();
    for (const orphan of this.journal.orphans()) {
      const top = this.rootOf(orphan);
      if (resumed.has(top.id) || this.running.has(top.id)) continue;
      const cluster = this.deps.clusterOfEntry(top);
      if (!cluster) continue;
      const claimed = await this.journal.claim(top.id);
      if (!claimed) continue;
      resumed.set(top.id, this.track(claimed.id, () => this.driveEntry(claimed, cluster, false, options)));
    }
    return Promise.all(resumed.values());
  }

  /** The open rescale a step belongs to (which drives it), else the entry itself. */
  private rootOf(entry: StoredJournalEntry): StoredJournalEntry {
    const parent = entry.parentId !== null ? this.journal.get(entry.parentId) : undefined;
    return parent && isOpen(parent.state) ? this.rootOf(parent) : entry;
  }

  /** The app: resume now and then, so an entry left by a killed CLI is settled while the app runs. */
  startBackground(intervalMs = 15_000): void {
    const tick = () => void this.resumeOrphans().catch(() => undefined);
    tick();
    this.background = setInterval(tick, intervalMs);
    this.background.unref?.();
  }

  /** Stops resuming; entries being driven keep their lease until it lapses, then the next process resumes them. */
  close(): void {
    if (this.background) clearInterval(this.background);
  }

  // --- reading ------------------------------------------------------------------------------------------------

  /** The facts a job's Operations area shows. */
  async operationsContext(clusterId: string, jobId: string): Promise<OperationsContext> {
    requireJobId(jobId);
    const cluster = this.deps.cluster(clusterId);
    const facts = await readClusterFacts(cluster.client, jobId);
    const keyed = keyedVertexIds(facts.details);
    const guess = await this.defaultProgram(facts, jobId);
    const open = this.journal.list({ clusterId }).find((e) => isOpen(e.state) && e.parentId === null && (e.jobId === jobId || e.newJobId === jobId));
    const recent = await readRecentCheckpoints(cluster.client, jobId);
    return {
      clusterId,
      jobId,
      jobName: facts.details.name,
      jobState: facts.details.state,
      flinkVersion: facts.flinkVersion,
      savepointDirectory: savepointDirectory(facts),
      scheduler: schedulerOf(facts),
      vertices: facts.details.vertices.map((v) => ({
        id: v.id,
        name: v.name,
        parallelism: v.parallelism,
        maxParallelism: v.maxParallelism ?? facts.details.maxParallelism ?? null,
        keyed: keyed.has(v.id),
      })),
      slots: { total: facts.slots.total, available: facts.slots.available, usedByJob: slotsUsedByJob(facts.details) },
      jars: (facts.jars ?? []).map((j) => ({ id: j.id, name: j.name, uploaded: j.uploaded ?? 0, entryClasses: (j.entry ?? []).map((e) => e.name) })),
      jarSubmissionUnavailable: jarSubmissionUnavailable(facts),
      resubmitDefaults: {
        program: guess.program,
        // The stopped run's own default: operators that set their own parallelism keep it (a plan shows it).
        parallelism: facts.jobParallelism,
        source: guess.source,
      },
      inFlight: open ? publicEntry(open) : null,
      recentCheckpoints: recent,
    };
  }

  /** The program the console last ran this job (or an earlier run of it) with, else a guess from the cluster. */
  private async defaultProgram(facts: ClusterFacts, jobId: string): Promise<{ program: JarProgram | null; source: string }> {
    const submitted = this.journal.list({}).find((e) => e.newJobId === jobId && e.params.program);
    return guessProgram(facts, submitted?.params.program ?? null);
  }

  /** The rescale plan; measured load comes from the history when the job is watched, else from two live samples. */
  async planRescale(clusterId: string, jobId: string, request: { parallelism: number | Record<string, number>; hotKeys?: HotKeyLoad[]; route?: 'adaptive' | 'savepoint' }): Promise<RescalePlan> {
    requireJobId(jobId);
    const cluster = this.deps.cluster(clusterId);
    const facts = await readClusterFacts(cluster.client, jobId);
    // Asked for explicitly: measure again (the plan a rescale then starts with is this one).
    return this.plan(cluster, facts, targetParallelism(facts, request?.parallelism), validateHotKeys(request?.hotKeys), request?.route, false);
  }

  /** The plan for a rescale; `reuse`: the one the user just saw, if it was made for the same request. */
  private async plan(cluster: OperationsCluster, facts: ClusterFacts, target: Record<string, number>, hotKeys: HotKeyLoad[], route?: 'adaptive' | 'savepoint', reuse = true): Promise<RescalePlan> {
    const key = JSON.stringify([cluster.id, facts.details.jid, target, hotKeys, route ?? null]);
    const cached = this.plans.get(key);
    const now = this.clock.now();
    if (reuse && cached && now - cached.createdAt < PLAN_REUSE_MS) return cached;
    const keyed = [...keyedVertexIds(facts.details)];
    const load = await observeLoad({
      history: this.deps.history,
      client: cluster.client,
      clusterId: cluster.id,
      jobId: facts.details.jid,
      vertexIds: keyed,
      metricsFetchIntervalMs: await cluster.metricsFetchIntervalMs(),
      clock: this.clock,
    });
    const plan = buildRescalePlan({ clusterId: cluster.id, facts, target, hotKeys, load, route, now: this.clock.now() });
    this.plans.set(key, plan);
    return plan;
  }

  /**
   * Before vs after a finished rescale or resubmit, from the history; once the after window is complete the journal
   * keeps it (the history's samples age out, the entry stays).
   */
  async beforeAfter(entryId: string): Promise<BeforeAfter> {
    const entry = this.journal.get(entryId);
    if (!entry) throw new EngineError('not-found', `No operation with trigger id ${entryId} in the journal.`);
    if (entry.beforeAfter?.complete) return entry.beforeAfter;
    const figures = readBeforeAfter(this.deps.history, publicEntry(entry), this.clock.now());
    if (figures.complete && figures.after) await this.journal.keepBeforeAfter(entryId, figures);
    return figures;
  }

  /** What a finished rescale's plan predicted beside the load measured on the job now. */
  async rescaleOutcome(entryId: string): Promise<RescaleOutcome> {
    const entry = this.journal.get(entryId);
    if (!entry || entry.kind !== 'rescale' || !entry.plan) throw new EngineError('not-found', `No rescale with trigger id ${entryId} in the journal.`);
    if (entry.state !== 'succeeded') throw new EngineError('invalid-input', `The rescale ${entryId} has not succeeded (${entry.state}): there is nothing to compare yet.`);
    const jobId = entry.newJobId ?? entry.jobId!;
    const cluster = this.deps.clusterOfEntry(entry);
    if (!cluster) throw new EngineError('not-found', `The cluster of this rescale (${entry.clusterName}) is not known here.`);
    const plan = entry.plan;
    const load = await observeLoad({
      history: this.deps.history,
      client: cluster.client,
      clusterId: cluster.id,
      jobId,
      vertexIds: plan.vertices.map((v) => v.vertexId),
      metricsFetchIntervalMs: await cluster.metricsFetchIntervalMs(),
      clock: this.clock,
      since: entry.finishedAt ?? undefined,
    });
    return {
      entryId,
      plan,
      jobId,
      measuredAt: this.clock.now(),
      load: { source: load.source, from: load.from, to: load.to, samples: load.samples },
      vertices: plan.vertices.map((v) => {
        const observed = load.vertices.get(v.vertexId);
        const values = observed ? Array.from(observed.recordsInPerSecond) : null;
        return {
          vertexId: v.vertexId,
          vertexName: v.vertexName,
          parallelism: observed?.parallelism ?? v.to,
          predicted: v.after,
          observed: values && values.some(Number.isFinite) ? loadFigures(values.map((r) => (Number.isFinite(r) ? r : 0))) : null,
          subtasks: Array.from({ length: Math.max(v.to, values?.length ?? 0) }, (_, s) => ({
            subtask: s,
            predicted: v.predicted[s]?.recordsPerSecond ?? null,
            observed: values && Number.isFinite(values[s]) ? values[s] : null,
          })),
        };
      }),
    };
  }
}

/** How long the job's recent checkpoints took, for the confirmation; null when the JobManager gives no statistics. */
async function readRecentCheckpoints(client: FlinkRestClient, jobId: string): Promise<RecentCheckpoints | null> {
  try {
    return recentCheckpoints(await client.request(endpoints.jobCheckpoints, { jobid: jobId }));
  } catch (error) {
    if (error instanceof EngineError) return null;
    throw error;
  }
}

function requireApplicationId(id: unknown): string {
  if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new EngineError('invalid-input', `"${String(id)}" is not a Flink application id (32 hex characters).`);
  return id;
}

/** The jobs an entry ends or changes: its job, the job it started, and an application's jobs. */
function jobsOf(entry: Pick<JournalEntry, 'jobId' | 'newJobId' | 'params'>): string[] {
  return [entry.jobId, entry.newJobId, ...(entry.params.applicationJobs ?? []).map((j) => j.id)].filter((id): id is string => id !== null && id !== undefined);
}

/** Two operations that must not run alongside: of the same application, or touching a job in common. */
function conflicts(open: StoredJournalEntry, draft: Omit<StoredJournalEntry, 'lease'>): boolean {
  // A disposal touches a savepoint, not its job: it conflicts only with another disposal of the same path.
  if (open.kind === 'dispose-savepoint' || draft.kind === 'dispose-savepoint') {
    return open.kind === draft.kind && flinkSpelling(open.params.savepointPath ?? '') === flinkSpelling(draft.params.savepointPath ?? '');
  }
  if (open.params.applicationId !== undefined && open.params.applicationId === draft.params.applicationId) return true;
  const draftJobs = new Set([draft.jobId, ...(draft.params.applicationJobs ?? []).map((j) => j.id)].filter((id) => id !== null));
  return jobsOf(open).some((id) => draftJobs.has(id));
}

function requireJobId(jobId: unknown): asserts jobId is string {
  if (typeof jobId !== 'string' || !/^[0-9a-f]{32}$/.test(jobId)) throw new EngineError('invalid-input', `"${String(jobId)}" is not a Flink job id (32 hex characters).`);
}

function checkFormat(format: unknown): 'canonical' | 'native' {
  if (format === undefined) return 'canonical';
  if (format !== 'canonical' && format !== 'native') throw new EngineError('invalid-input', `The savepoint format is canonical or native, not "${String(format)}".`);
  return format;
}

function checkProgram(program: JarProgram, facts: Pick<ClusterFacts, 'jars'>): void {
  const jar = facts.jars?.find((j) => j.id === program.jarId);
  if (!jar) {
    const known = (facts.jars ?? []).map((j) => `${j.id} (${j.name})`).join(', ') || 'none';
    throw new EngineError('invalid-input', `The cluster has no jar "${program.jarId}". Uploaded jars: ${known}.`);
  }
}
