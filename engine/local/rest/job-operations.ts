import { randomBytes } from 'node:crypto';
import type { BuiltInJobRun, LocalEngine } from '../engine.ts';
import { LocalEngineError } from '../engine.ts';
import { CheckpointLoadError } from '../checkpoint/checkpoint-storage.ts';
import { RestoreError } from '../checkpoint/restore-assignment.ts';
import { JarUploadError } from '../jars/uploaded-jars.ts';
import type { UploadedFile } from './multipart.ts';
import { BUILT_IN_JARS, parseJobArguments, ProgramArgumentError, splitProgramArgs } from '../jars/built-in-jars.ts';
import {
  parseTriggerRequest,
  TriggerRequestError,
  type CheckpointTriggerRequest,
  type OperationCache,
  type SavepointTriggerRequest,
  type StopWithSavepointRequest,
} from '../operations/async-operations.ts';
import { flinkErrorBody } from '../rest-spec/flink-error.ts';
import type { JobExecution, ParallelismBounds } from '../runtime/job.ts';
import { planOf } from './views.ts';

/**
 * The write side of Flink's REST API on the local engine: savepoints, stop-with-savepoint and manual checkpoints
 * (trigger-then-poll, client-chosen trigger IDs), resource requirements (adaptive-scheduler rescaling), jar runs, and
 * the engine-only TaskManager kill. Each returns `{status, body}` or throws {@link OperationError} with Flink's body.
 */

export interface OperationResult {
  status: number;
  body: unknown;
}

/** A request the operation refuses: HTTP status and Flink's `{"errors": [...]}` body. */
export class OperationError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: { errors: string[] } = flinkErrorBody(message),
  ) {
    super(message);
  }
}

const HEX32 = /^[0-9a-f]{32}$/;

function checkJobId(jobId: string): void {
  if (!HEX32.test(jobId)) throw new OperationError(400, `Bad request, could not parse parameters: Cannot parse JobID "${jobId}": a job ID is 32 hexadecimal characters.`);
}

function jobNotFound(jobId: string): Error {
  const error = new Error(`org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (${jobId})`);
  error.name = 'java.util.concurrent.CompletionException';
  return error;
}

/** The job the operation targets, or undefined when it is unknown or over (Flink: FlinkJobNotFoundException). */
function liveJob(engine: LocalEngine, jobId: string): JobExecution | undefined {
  const job = engine.cluster.jobs.get(jobId);
  return job && !job.isTerminal ? job : undefined;
}

function parseTrigger(kind: 'savepoint', body: unknown): SavepointTriggerRequest;
function parseTrigger(kind: 'stop', body: unknown): StopWithSavepointRequest;
function parseTrigger(kind: 'checkpoint', body: unknown): CheckpointTriggerRequest;
function parseTrigger(kind: 'savepoint' | 'stop' | 'checkpoint', body: unknown): object {
  try {
    return parseTriggerRequest(kind as 'savepoint', body);
  } catch (error) {
    if (error instanceof TriggerRequestError) throw new OperationError(400, error.message);
    throw error;
  }
}

/** `POST /jobs/:jobid/savepoints` (canonical savepoint; `cancel-job` cancels the job after it). */
export function triggerSavepoint(engine: LocalEngine, jobId: string, rawBody: unknown): OperationResult {
  checkJobId(jobId);
  const body = parseTrigger('savepoint', rawBody);
  const t = engine.operations.trigger('savepoint', jobId, body.triggerId, { ...body });
  if (t.isNew) {
    const id = t.body['request-id'];
    const job = liveJob(engine, jobId);
    if (!job) engine.operations.fail('savepoint', jobId, id, jobNotFound(jobId));
    else {
      job.triggerCheckpoint({
        kind: 'SAVEPOINT',
        targetDirectory: body['target-directory'],
        formatType: body.formatType,
        onComplete: (completed) => {
          engine.operations.complete('savepoint', jobId, id, { savepointLocation: completed.externalPath });
          if (body['cancel-job']) job.cancel();
        },
        onFailure: (cause) => engine.operations.fail('savepoint', jobId, id, cause),
      });
    }
  }
  return { status: 202, body: t.body };
}

/** `POST /jobs/:jobid/stop`: stop-with-savepoint, with or without drain; polled at `/savepoints/:triggerid`. */
export function stopWithSavepoint(engine: LocalEngine, jobId: string, rawBody: unknown): OperationResult {
  checkJobId(jobId);
  const body = parseTrigger('stop', rawBody);
  const t = engine.operations.trigger('stop', jobId, body.triggerId, { ...body });
  if (t.isNew) {
    const id = t.body['request-id'];
    const job = liveJob(engine, jobId);
    if (!job) engine.operations.fail('savepoint', jobId, id, jobNotFound(jobId));
    else {
      job.stopWithSavepoint({
        targetDirectory: body.targetDirectory,
        drain: body.drain ?? false,
        formatType: body.formatType,
        onComplete: (completed) => engine.operations.complete('savepoint', jobId, id, { savepointLocation: completed.externalPath }),
        onFailure: (cause) => engine.operations.fail('savepoint', jobId, id, cause),
      });
    }
  }
  return { status: 202, body: t.body };
}

/** `POST /jobs/:jobid/checkpoints`: a manual checkpoint; polled at `/checkpoints/:triggerid`. */
export function triggerCheckpoint(engine: LocalEngine, jobId: string, rawBody: unknown): OperationResult {
  checkJobId(jobId);
  const body = parseTrigger('checkpoint', rawBody);
  const t = engine.operations.trigger('checkpoint', jobId, body.triggerId, { ...body });
  if (t.isNew) {
    const id = t.body['request-id'];
    const job = liveJob(engine, jobId);
    if (!job) engine.operations.fail('checkpoint', jobId, id, jobNotFound(jobId));
    else {
      job.triggerCheckpoint({
        kind: 'CHECKPOINT',
        onComplete: (completed) => engine.operations.complete('checkpoint', jobId, id, { checkpointId: completed.checkpointId }),
        onFailure: (cause) => engine.operations.fail('checkpoint', jobId, id, cause),
      });
    }
  }
  return { status: 202, body: t.body };
}

const STATUS_FRAMES: Record<OperationCache, string> = {
  savepoint: 'org.apache.flink.runtime.rest.handler.job.savepoints.SavepointHandlers$SavepointStatusHandler.maybeCreateNotFoundError(SavepointHandlers.java:325)',
  checkpoint: 'org.apache.flink.runtime.rest.handler.job.checkpoints.CheckpointHandlers$CheckpointStatusHandler.maybeCreateNotFoundError(CheckpointHandlers.java:226)',
  rescaling: 'org.apache.flink.runtime.rest.handler.async.AbstractAsynchronousOperationHandlers$StatusHandler.handleRequest(AbstractAsynchronousOperationHandlers.java:181)',
};

/** `GET /jobs/:jobid/savepoints/:triggerid` and `GET /jobs/:jobid/checkpoints/:triggerid`. */
export function operationStatus(engine: LocalEngine, cache: OperationCache, jobId: string, triggerId: string): OperationResult {
  checkJobId(jobId);
  if (!HEX32.test(triggerId)) throw new OperationError(400, `Bad request, could not parse parameters: Cannot parse TriggerId "${triggerId}": a trigger ID is 32 hexadecimal characters.`);
  const result = engine.operations.status(cache, jobId, triggerId);
  if (result.status === 404) throw new OperationError(404, result.message, flinkErrorBody(result.message, [STATUS_FRAMES[cache]]));
  return { status: 200, body: result.body };
}

/** `GET /jobs/:jobid/resource-requirements`. */
export function resourceRequirements(job: JobExecution): Record<string, { parallelism: ParallelismBounds }> {
  const out: Record<string, { parallelism: ParallelismBounds }> = {};
  for (const [vertexId, bounds] of job.currentResourceRequirements()) out[vertexId] = { parallelism: { ...bounds } };
  return out;
}

/**
 * `PUT /jobs/:jobid/resource-requirements`: validates the bounds of every vertex (1 ≤ lower ≤ upper ≤ max
 * parallelism), then the adaptive scheduler rescales the job to the upper bounds (as far as the cluster's slots go).
 */
export function updateResourceRequirements(engine: LocalEngine, job: JobExecution, body: unknown): OperationResult {
  const bad = (why: string) => new OperationError(400, `Request did not match expected format JobResourceRequirementsBody. (${why})`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body must be a JSON object of vertex ID → {"parallelism": {"lowerBound", "upperBound"}}');
  const entries = Object.entries(body as Record<string, unknown>);
  const requirements = new Map<string, ParallelismBounds>();
  for (const [vertexId, raw] of entries) {
    const vertex = job.jobGraph.vertices.find((v) => v.id === vertexId);
    if (!vertex) throw new OperationError(400, `Invalid resource requirements: the job has no vertex ${vertexId} (its vertices: ${job.jobGraph.vertices.map((v) => v.id).join(', ')}).`);
    const p = (raw as { parallelism?: { lowerBound?: unknown; upperBound?: unknown } } | null)?.parallelism;
    const lower = p?.lowerBound;
    const upper = p?.upperBound;
    if (!Number.isInteger(lower) || !Number.isInteger(upper)) throw bad(`vertex ${vertexId}: "parallelism" needs whole-number "lowerBound" and "upperBound"`);
    const lo = lower as number;
    const hi = upper as number;
    if (lo < 1 || lo > hi) throw new OperationError(400, `Invalid resource requirements for vertex ${vertexId} ("${vertex.name}"): the lower bound (${lo}) must be at least 1 and at most the upper bound (${hi}).`);
    if (hi > vertex.maxParallelism) {
      throw new OperationError(400, `Invalid resource requirements for vertex ${vertexId} ("${vertex.name}"): the upper bound (${hi}) is higher than its max parallelism (${vertex.maxParallelism}).`);
    }
    requirements.set(vertexId, { lowerBound: lo, upperBound: hi });
  }
  const missing = job.jobGraph.vertices.filter((v) => !requirements.has(v.id));
  if (missing.length > 0) throw new OperationError(400, `Invalid resource requirements: give bounds for every vertex of the job; missing ${missing.map((v) => `${v.id} ("${v.name}")`).join(', ')}.`);
  if (job.isTerminal) throw new OperationError(409, `Job ${job.jobId} is in a terminal state (${job.status}); its resource requirements cannot change.`);
  // The adaptive scheduler uses as many slots as the cluster can give, up to the upper bound.
  const obtainable = engine.cluster.slotsAvailable + job.slots.length;
  const target = new Map([...requirements].map(([id, b]) => [id, { lowerBound: b.lowerBound, upperBound: Math.max(b.lowerBound, Math.min(b.upperBound, obtainable)) }]));
  try {
    job.requestRescale(target, requirements);
  } catch (error) {
    throw new OperationError(400, `Invalid resource requirements: ${(error as Error).message}`);
  }
  job.resourceRequirements = requirements;
  return { status: 200, body: {} };
}

/** `GET /jars`: the uploaded jars (newest first, as Flink lists them), then the built-in ones. */
export function listJars(engine: LocalEngine, address: string): OperationResult {
  return {
    status: 200,
    body: {
      address,
      files: [
        ...engine.uploadedJars.list().map((jar) => ({ id: jar.id, name: jar.name, uploaded: jar.uploaded, entry: jar.entryClass ? [{ name: jar.entryClass, description: null }] : [] })),
        ...BUILT_IN_JARS.map((jar) => ({ id: jar.id, name: jar.name, uploaded: engine.startedAt, entry: [{ name: jar.entryClass, description: null }] })),
      ],
    },
  };
}

/** `POST /jars/upload` (multipart, one file): kept as `<uuid>_<name>`; Flink's `JarUploadResponseBody`. */
export function uploadJar(engine: LocalEngine, file: UploadedFile): OperationResult {
  try {
    const jar = engine.uploadedJars.add(file.fileName, file.bytes, engine.now());
    return { status: 200, body: { filename: engine.uploadedJars.fileOf(jar.id), status: 'success' } };
  } catch (error) {
    if (error instanceof JarUploadError) throw new OperationError(400, error.message);
    throw error;
  }
}

/** `DELETE /jars/:jarid`: 200 with an empty body; an unknown jar is Flink's 400. */
export function deleteJar(engine: LocalEngine, jarId: string): OperationResult {
  if (jarId.includes('/') || jarId.includes('\\') || jarId === '..' || jarId === '.') {
    throw new OperationError(400, `Bad request, could not parse parameters: jarid must be a filename only (${jarId})`);
  }
  if (BUILT_IN_JARS.some((j) => j.id === jarId)) throw new OperationError(400, `${jarId} is a built-in jar of the local engine: it cannot be deleted.`);
  if (!engine.uploadedJars.remove(jarId)) throw new OperationError(400, `File ${jarId} does not exist in ${engine.uploadedJars.folder()}.`);
  return { status: 200, body: {} };
}

/** `POST /savepoint-disposal` `{"savepoint-path"}`: a trigger id; the disposal runs on its own. */
export function triggerSavepointDisposal(engine: LocalEngine, rawBody: unknown): OperationResult {
  const body = rawBody as Record<string, unknown> | undefined;
  const pointer = body && typeof body === 'object' && !Array.isArray(body) ? body['savepoint-path'] : undefined;
  if (typeof pointer !== 'string' || pointer.trim() === '') {
    throw new OperationError(400, 'Request did not match expected format SavepointDisposalRequest. ("savepoint-path" must be a path)');
  }
  return { status: 200, body: { 'request-id': engine.disposals.trigger(pointer.trim()) } };
}

/** `GET /savepoint-disposal/:triggerid`. */
export function savepointDisposalStatus(engine: LocalEngine, triggerId: string): OperationResult {
  if (!HEX32.test(triggerId)) throw new OperationError(400, `Bad request, could not parse parameters: Cannot parse TriggerId "${triggerId}": a trigger ID is 32 hexadecimal characters.`);
  const status = engine.disposals.status(triggerId);
  if (!status) {
    const message = `Operation not found under key: org.apache.flink.runtime.rest.handler.job.AsynchronousJobOperationKey@${triggerId}`;
    throw new OperationError(404, message, flinkErrorBody(message, [STATUS_FRAMES.rescaling]));
  }
  return { status: 200, body: status };
}

/** The fields of a jar request body: `POST /jars/:jarid/plan` takes the run's, less those that restore state. */
const JAR_REQUEST_FIELDS = {
  JarRunRequestBody: ['entryClass', 'programArgs', 'programArgsList', 'parallelism', 'jobId', 'allowNonRestoredState', 'savepointPath', 'restoreMode', 'claimMode', 'flinkConfiguration'],
  JarPlanRequestBody: ['entryClass', 'programArgs', 'programArgsList', 'parallelism', 'jobId', 'flinkConfiguration'],
} as const;

/**
 * An uploaded jar as the built-in job its main class names. The engine runs no Java: a jar whose main class is none of
 * the built-in jobs' is refused as Flink refuses a jar whose entry class it cannot load.
 */
function builtInOfUpload(engine: LocalEngine, jarId: string): (typeof BUILT_IN_JARS)[number] | undefined {
  const uploaded = engine.uploadedJars.get(jarId);
  if (!uploaded) return undefined;
  if (uploaded.builtIn) return { ...uploaded.builtIn, id: uploaded.id };
  const message = uploaded.entryClass
    ? `The program's entry point class '${uploaded.entryClass}' was not found in the jar file. (The local engine runs only its built-in jobs: ${BUILT_IN_JARS.map((j) => j.entryClass).join(', ')}.)`
    : `Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file.`;
  throw new OperationError(400, message, flinkErrorBody(message, [], 'org.apache.flink.client.program.ProgramInvocationException'));
}

/** A jar request (body first, else query parameters, as Flink reads them), checked field by field. */
function parseJarRequest(engine: LocalEngine, jarId: string, rawBody: unknown, query: Record<string, string | undefined>, bodyType: keyof typeof JAR_REQUEST_FIELDS): BuiltInJobRun {
  const jar = BUILT_IN_JARS.find((j) => j.id === jarId) ?? builtInOfUpload(engine, jarId);
  if (!jar) throw new OperationError(404, `Jar file ${jarId} does not exist. The local engine has the built-in jars ${BUILT_IN_JARS.map((j) => j.id).join(', ')}.`);
  if (rawBody !== undefined && rawBody !== null && (typeof rawBody !== 'object' || Array.isArray(rawBody))) {
    throw new OperationError(400, `Request did not match expected format ${bodyType}. (the body must be a JSON object)`);
  }
  const body = (rawBody ?? {}) as Record<string, unknown>;
  const known: readonly string[] = JAR_REQUEST_FIELDS[bodyType];
  for (const key of Object.keys(body)) if (!known.includes(key)) throw new OperationError(400, `Request did not match expected format ${bodyType}. (unknown field "${key}"; known: ${known.join(', ')})`);
  const typeError = (field: string, want: string) => new OperationError(400, `Request did not match expected format ${bodyType}. ("${field}" must be ${want})`);
  const entryClass = body.entryClass ?? query['entry-class'];
  if (entryClass !== undefined && entryClass !== null && entryClass !== jar.entryClass) {
    throw new OperationError(400, `Could not find class ${String(entryClass)} in ${jar.id}: its entry point is ${jar.entryClass}.`);
  }
  let args: string[] = [];
  if (body.programArgsList !== undefined && body.programArgsList !== null) {
    if (!Array.isArray(body.programArgsList) || body.programArgsList.some((a) => typeof a !== 'string')) throw typeError('programArgsList', 'a list of strings');
    args = body.programArgsList as string[];
  } else if (typeof body.programArgs === 'string') args = splitProgramArgs(body.programArgs);
  else if (query.programArg !== undefined) args = query.programArg.split(',').filter((a) => a !== '');
  else if (query['program-args'] !== undefined) args = splitProgramArgs(query['program-args']);
  const parallelismRaw = body.parallelism ?? (query.parallelism !== undefined ? Number(query.parallelism) : undefined);
  if (parallelismRaw !== undefined && parallelismRaw !== null && !(Number.isInteger(parallelismRaw) && (parallelismRaw as number) > 0)) throw typeError('parallelism', 'a whole number > 0');
  const savepointPath = body.savepointPath ?? query.savepointPath;
  if (savepointPath !== undefined && savepointPath !== null && typeof savepointPath !== 'string') throw typeError('savepointPath', 'a string');
  const allowRaw = body.allowNonRestoredState ?? (query.allowNonRestoredState !== undefined ? query.allowNonRestoredState === 'true' : undefined);
  if (allowRaw !== undefined && allowRaw !== null && typeof allowRaw !== 'boolean') throw typeError('allowNonRestoredState', 'true or false');
  const jobId = body.jobId;
  if (jobId !== undefined && jobId !== null && !(typeof jobId === 'string' && HEX32.test(jobId))) throw typeError('jobId', '32 lower-case hex characters');
  const conf = body.flinkConfiguration;
  if (conf !== undefined && conf !== null && (typeof conf !== 'object' || Array.isArray(conf) || Object.values(conf).some((v) => typeof v !== 'string'))) {
    throw typeError('flinkConfiguration', 'an object of string values');
  }
  for (const mode of [body.restoreMode, body.claimMode]) {
    if (mode !== undefined && mode !== null && mode !== 'CLAIM' && mode !== 'NO_CLAIM' && mode !== 'LEGACY') throw typeError('claimMode', 'CLAIM, NO_CLAIM or LEGACY');
  }
  let parsed;
  try {
    parsed = parseJobArguments(args);
  } catch (error) {
    if (error instanceof ProgramArgumentError) throw new OperationError(400, error.message, flinkErrorBody(error.message, [], error.name));
    throw error;
  }
  return {
    ...parsed,
    job: jar.job,
    ...(parallelismRaw !== undefined && parallelismRaw !== null ? { parallelism: parallelismRaw as number } : {}),
    ...(typeof savepointPath === 'string' ? { savepointPath } : {}),
    allowNonRestoredState: allowRaw === true,
    ...(conf ? { flinkConfiguration: conf as Record<string, string> } : {}),
    ...(jobId ? { jobId: jobId as string } : {}),
  };
}

/**
 * `POST /jars/:jarid/plan`: the job graph the same request would run (`JobPlanInfo`), each vertex at the parallelism
 * it would get (an operator's own parallelism kept, as in Flink); nothing is started.
 */
export function planJar(engine: LocalEngine, jarId: string, rawBody: unknown, query: Record<string, string | undefined>): OperationResult {
  const run = parseJarRequest(engine, jarId, rawBody, query, 'JarPlanRequestBody');
  try {
    const graph = engine.planBuiltInJob(run);
    return { status: 200, body: { plan: planOf(run.jobId ?? randomBytes(16).toString('hex'), graph) } };
  } catch (error) {
    if (error instanceof LocalEngineError) throw new OperationError(400, error.message);
    throw error;
  }
}

/**
 * `POST /jars/:jarid/run`: runs a built-in job with its program arguments, optionally from a savepoint at another
 * parallelism. Unlike a real Flink (which answers 200 and then fails the job), a restore that cannot work is refused
 * here with 400 and Flink's message, so the caller sees why at once.
 */
export function runJar(engine: LocalEngine, jarId: string, rawBody: unknown, query: Record<string, string | undefined>): OperationResult {
  const run = parseJarRequest(engine, jarId, rawBody, query, 'JarRunRequestBody');
  if (run.jobId && engine.cluster.jobs.has(run.jobId)) throw new OperationError(409, `Job ID ${run.jobId} is already taken by another job.`);
  try {
    const job = engine.runBuiltInJob(run);
    return { status: 200, body: { jobid: job.jobId } };
  } catch (error) {
    if (error instanceof RestoreError || error instanceof CheckpointLoadError) {
      const cls = error instanceof RestoreError ? 'java.lang.IllegalStateException' : 'java.io.FileNotFoundException';
      throw new OperationError(400, error.message, flinkErrorBody(error.message, [], cls));
    }
    if (error instanceof LocalEngineError) throw new OperationError(400, error.message);
    throw error;
  }
}

/** `POST /local-engine/v1/taskmanagers/:taskmanagerid/kill` (engine only): the TaskManager process dies. */
export function killTaskManager(engine: LocalEngine, taskManagerId: string): OperationResult {
  let result;
  try {
    result = engine.cluster.killTaskManager(taskManagerId);
  } catch (error) {
    throw new OperationError(404, (error as Error).message);
  }
  return { status: 200, body: { killed: taskManagerId, failedJobs: result.jobs, restartsAt: result.restartsAt } };
}
