import express, { type Request, type Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalEngine } from '../engine.ts';
import { ENGINE_REVISION } from '../engine.ts';
import type { ExecutionJobVertex, JobExecution } from '../runtime/job.ts';
import {
  AGGREGATION_MODES,
  aggregateMetrics,
  jobMetrics,
  parseSubtaskFilter,
  subtaskMetrics,
  taskManagerMetrics,
  jobManagerMetrics,
  type AggregationMode,
  type MetricValues,
} from './metric-store.ts';
import { renderCheckpointConfig, renderCheckpointDetails, renderCheckpointingStatistics, renderTaskCheckpointDetails } from '../checkpoint/checkpoint-stats-rest.ts';
import { DEFAULT_MAX_EXCEPTIONS, renderExceptionHistory } from '../restart/exception-history.ts';
import { flinkErrorBody } from '../rest-spec/flink-error.ts';
import { answerClientErrors, flinkErrorHandler, internalErrorBody } from './error-responses.ts';
import * as ops from './job-operations.ts';
import { OperationError, type OperationResult } from './job-operations.ts';
import { JAR_UPLOAD_PATHS, requestGuard, type RequestGuardOptions } from './request-guard.ts';
import { LOG_ROUTES } from './log-routes.ts';
import { MultipartError, singleFile } from './multipart.ts';
import { rescaleRoutes } from './rescales.ts';
import * as views from './views.ts';

/** A REST error: status and Flink's `{"errors": [...]}` body (the message alone unless a body is given). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: { errors: string[] } = { errors: [message] },
  ) {
    super(message);
  }
}

interface HandlerContext {
  engine: LocalEngine;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  now: number;
  /** The parsed JSON request body (undefined when empty). */
  body: unknown;
  /** `http://host:port` of this server. */
  address: string;
}

/** `text`: the body is a file's content, sent as `text/plain` (Flink's file handlers), not JSON. */
type Handler = (ctx: HandlerContext) => { status?: number; body: unknown; text?: true };

/** One route: Flink's `XxxHeaders` (method + URL template) with its handler. */
export interface RouteSpec {
  method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: Handler;
}

/** Runs a write-side operation, turning its refusal into the REST error. */
function operation(run: () => OperationResult): { status: number; body: unknown } {
  try {
    return run();
  } catch (error) {
    if (error instanceof OperationError) throw new RestError(error.status, error.message, error.body);
    throw error;
  }
}

function restResult<T>(result: { status: 200; body: T } | { status: 404; message: string }, frame: string): { body: T } {
  if (result.status === 404) throw new RestError(404, result.message, flinkErrorBody(result.message, [frame]));
  return { body: result.body };
}

function checkpointIdParam(ctx: HandlerContext): number {
  const raw = ctx.params.checkpointid;
  if (!/^\d+$/.test(raw)) throw new RestError(400, `Bad request, could not parse parameters: Cannot parse checkpoint ID "${raw}".`);
  return Number(raw);
}

const CHECKPOINT_HANDLER_FRAME = 'org.apache.flink.runtime.rest.handler.job.checkpoints.AbstractCheckpointHandler.handleCheckpointStatsRequest(AbstractCheckpointHandler.java:95)';

const JOB_ID = /^[0-9a-f]{32}$/;

function job(ctx: HandlerContext): JobExecution {
  const id = ctx.params.jobid;
  if (!JOB_ID.test(id)) throw new RestError(400, `Bad request, could not parse parameters: Cannot parse JobID "${id}": a job ID is 32 hexadecimal characters.`);
  const found = ctx.engine.cluster.jobs.get(id);
  if (!found) throw new RestError(404, `Job ${id} not found`);
  return found;
}

function vertex(ctx: HandlerContext): { job: JobExecution; vertex: ExecutionJobVertex } {
  const j = job(ctx);
  const id = ctx.params.vertexid;
  if (!JOB_ID.test(id)) throw new RestError(400, `Bad request, could not parse parameters: Cannot parse JobVertexID "${id}".`);
  const v = j.findVertex(id);
  if (!v) throw new RestError(404, `JobVertexId ${id} not found`);
  return { job: j, vertex: v };
}

/** The vertex, or undefined where it (or its job) is not known; a malformed id is still a bad request. */
function knownVertex(ctx: HandlerContext): ExecutionJobVertex | undefined {
  try {
    return vertex(ctx).vertex;
  } catch (error) {
    if (error instanceof RestError && error.status === 404) return undefined;
    throw error;
  }
}

function subtaskIndex(ctx: HandlerContext, v: ExecutionJobVertex): number {
  const raw = ctx.params.subtaskindex;
  const index = Number(raw);
  if (!/^\d+$/.test(raw)) throw new RestError(400, `Bad request, could not parse parameters: Cannot parse subtask index "${raw}".`);
  if (index >= v.tasks.length) throw new RestError(404, `Invalid subtask index for vertex ${v.jobVertex.id}`);
  return index;
}

function metricNames(query: HandlerContext['query']): string[] | undefined {
  const get = query.get;
  if (get === undefined || get === '') return undefined;
  return get.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function aggregationModes(query: HandlerContext['query']): AggregationMode[] {
  const agg = query.agg;
  if (agg === undefined || agg === '') return ['min', 'max', 'avg', 'sum', 'skew'];
  const modes = agg.split(',').map((s) => s.trim().toLowerCase());
  for (const m of modes) {
    if (!(AGGREGATION_MODES as readonly string[]).includes(m)) {
      throw new RestError(400, `Bad request, could not parse parameters: Cannot parse aggregation mode "${m}"; use min, max, avg, sum or skew.`);
    }
  }
  return modes as AggregationMode[];
}

/** `MetricCollectionResponseBody` on the wire: a bare array `[{id}]` or `[{id, value}]`. */
function metricCollection(store: MetricValues, requested: string[] | undefined): Array<{ id: string; value?: string }> {
  if (requested === undefined) return [...store.keys()].sort().map((id) => ({ id }));
  return requested.filter((id) => store.has(id)).map((id) => ({ id, value: store.get(id)! }));
}

function prefixed(tasks: ExecutionJobVertex['tasks']): MetricValues {
  const all: MetricValues = new Map();
  for (const t of tasks) for (const [k, v] of subtaskMetrics(t)) all.set(`${t.identity.subtaskIndex}.${k}`, v);
  return all;
}

function taskManagerOf(ctx: HandlerContext) {
  const tm = ctx.engine.cluster.taskManagers.find((t) => t.id === ctx.params.taskmanagerid);
  if (!tm) throw new RestError(404, `Could not find TaskExecutor ${ctx.params.taskmanagerid}.`);
  return tm;
}

/** The read side of Flink's REST API v1 (part 1 of the engine) and cancel. */
export const ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/config', handler: ({ engine }) => ({ body: views.dashboardConfiguration(engine) }) },
  { method: 'GET', path: '/overview', handler: ({ engine }) => ({ body: views.clusterOverview(engine) }) },
  { method: 'GET', path: '/jobmanager/config', handler: ({ engine }) => ({ body: engine.configuration }) },
  { method: 'GET', path: '/jobmanager/environment', handler: () => ({ body: views.jobManagerEnvironment() }) },
  { method: 'GET', path: '/jobmanager/metrics', handler: ({ engine, query }) => ({ body: metricCollection(jobManagerMetrics(engine), metricNames(query)) }) },
  {
    method: 'GET',
    path: '/jobs',
    handler: ({ engine }) => ({ body: { jobs: [...engine.cluster.jobs.values()].map((j) => ({ id: j.jobId, status: j.status })) } }),
  },
  { method: 'GET', path: '/jobs/overview', handler: ({ engine, now }) => ({ body: views.jobsOverview(engine, now) }) },
  {
    method: 'GET',
    path: '/jobs/metrics',
    handler: (ctx) => {
      const ids = ctx.query.jobs?.split(',').filter((s) => s !== '');
      const jobs = [...ctx.engine.cluster.jobs.values()].filter((j) => !ids || ids.includes(j.jobId));
      return { body: aggregateMetrics(jobs.map((j) => jobMetrics(j, ctx.now)), metricNames(ctx.query), aggregationModes(ctx.query)) };
    },
  },
  { method: 'GET', path: '/jobs/:jobid', handler: (ctx) => ({ body: views.jobDetails(ctx.engine, job(ctx), ctx.now) }) },
  {
    method: 'PATCH',
    path: '/jobs/:jobid',
    handler: (ctx) => {
      const j = job(ctx);
      const mode = (ctx.query.mode ?? 'cancel').toLowerCase();
      if (mode === 'stop') throw new RestError(400, 'The "stop" termination mode is not supported: use POST /jobs/:jobid/stop (stop with savepoint).');
      if (mode !== 'cancel') throw new RestError(400, `Bad request, could not parse parameters: Cannot parse termination mode "${ctx.query.mode}".`);
      if (j.isTerminal) throw new RestError(409, `Job ${j.jobId} is already in a terminal state (${j.status}).`);
      j.cancel();
      return { status: 202, body: {} };
    },
  },
  { method: 'GET', path: '/jobs/:jobid/status', handler: (ctx) => ({ body: { status: job(ctx).status } }) },
  { method: 'GET', path: '/jobs/:jobid/plan', handler: (ctx) => ({ body: { plan: views.jobPlan(job(ctx)) } }) },
  { method: 'GET', path: '/jobs/:jobid/config', handler: (ctx) => ({ body: views.jobConfig(job(ctx)) }) },
  { method: 'GET', path: '/jobs/:jobid/jobmanager/config', handler: (ctx) => (job(ctx), { body: ctx.engine.configuration }) },
  {
    method: 'GET',
    path: '/jobs/:jobid/exceptions',
    handler: (ctx) => {
      const max = ctx.query.maxExceptions !== undefined ? Number(ctx.query.maxExceptions) : DEFAULT_MAX_EXCEPTIONS;
      if (!Number.isInteger(max) || max < 0) throw new RestError(400, 'Bad request, could not parse parameters: maxExceptions must be a non-negative integer.');
      return { body: renderExceptionHistory(job(ctx).exceptionHistory, max) };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/metrics',
    handler: (ctx) => ({ body: metricCollection(jobMetrics(job(ctx), ctx.now), metricNames(ctx.query)) }),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/checkpoints',
    handler: (ctx) => restResult(renderCheckpointingStatistics(job(ctx).checkpointTracker), CHECKPOINT_HANDLER_FRAME),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/checkpoints/config',
    handler: (ctx) => {
      const j = job(ctx);
      return restResult(renderCheckpointConfig(j.jobId, j.options.checkpointing), 'org.apache.flink.runtime.rest.handler.job.checkpoints.CheckpointConfigHandler.createCheckpointConfigInfo(CheckpointConfigHandler.java:91)');
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/checkpoints/details/:checkpointid',
    handler: (ctx) => restResult(renderCheckpointDetails(job(ctx).checkpointTracker, checkpointIdParam(ctx)), CHECKPOINT_HANDLER_FRAME),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid',
    handler: (ctx) => {
      const j = job(ctx);
      const id = checkpointIdParam(ctx);
      if (!JOB_ID.test(ctx.params.vertexid)) throw new RestError(400, `Bad request, could not parse parameters: Cannot parse JobVertexID "${ctx.params.vertexid}".`);
      return restResult(renderTaskCheckpointDetails(j.checkpointTracker, id, ctx.params.vertexid), CHECKPOINT_HANDLER_FRAME);
    },
  },
  { method: 'POST', path: '/jobs/:jobid/checkpoints', handler: (ctx) => operation(() => ops.triggerCheckpoint(ctx.engine, ctx.params.jobid, ctx.body)) },
  {
    method: 'GET',
    path: '/jobs/:jobid/checkpoints/:triggerid',
    handler: (ctx) => operation(() => ops.operationStatus(ctx.engine, 'checkpoint', ctx.params.jobid, ctx.params.triggerid)),
  },
  { method: 'POST', path: '/jobs/:jobid/savepoints', handler: (ctx) => operation(() => ops.triggerSavepoint(ctx.engine, ctx.params.jobid, ctx.body)) },
  {
    method: 'GET',
    path: '/jobs/:jobid/savepoints/:triggerid',
    handler: (ctx) => operation(() => ops.operationStatus(ctx.engine, 'savepoint', ctx.params.jobid, ctx.params.triggerid)),
  },
  { method: 'POST', path: '/jobs/:jobid/stop', handler: (ctx) => operation(() => ops.stopWithSavepoint(ctx.engine, ctx.params.jobid, ctx.body)) },
  { method: 'GET', path: '/jobs/:jobid/resource-requirements', handler: (ctx) => ({ body: ops.resourceRequirements(job(ctx)) }) },
  {
    method: 'PUT',
    path: '/jobs/:jobid/resource-requirements',
    handler: (ctx) => operation(() => ops.updateResourceRequirements(ctx.engine, job(ctx), ctx.body)),
  },
  { method: 'GET', path: '/jars', handler: (ctx) => operation(() => ops.listJars(ctx.engine, ctx.address)) },
  { method: 'DELETE', path: '/jars/:jarid', handler: (ctx) => operation(() => ops.deleteJar(ctx.engine, ctx.params.jarid)) },
  { method: 'POST', path: '/savepoint-disposal', handler: (ctx) => operation(() => ops.triggerSavepointDisposal(ctx.engine, ctx.body)) },
  { method: 'GET', path: '/savepoint-disposal/:triggerid', handler: (ctx) => operation(() => ops.savepointDisposalStatus(ctx.engine, ctx.params.triggerid)) },
  { method: 'POST', path: '/jars/:jarid/plan', handler: (ctx) => operation(() => ops.planJar(ctx.engine, ctx.params.jarid, ctx.body, ctx.query)) },
  { method: 'POST', path: '/jars/:jarid/run', handler: (ctx) => operation(() => ops.runJar(ctx.engine, ctx.params.jarid, ctx.body, ctx.query)) },
  {
    method: 'GET',
    path: '/jobs/:jobid/accumulators',
    handler: (ctx) => (job(ctx), { body: { 'job-accumulators': [], 'user-task-accumulators': [], 'serialized-user-task-accumulators': {} } }),
  },
  { method: 'GET', path: '/jobs/:jobid/vertices/:vertexid', handler: (ctx) => {
    const { job: j, vertex: v } = vertex(ctx);
    return { body: views.vertexDetails(j, v, ctx.now) };
  } },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/backpressure',
    handler: (ctx) => {
      const { job: j, vertex: v } = vertex(ctx);
      return { body: views.vertexBackPressure(j, v) };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/watermarks',
    handler: (ctx) => {
      const { vertex: v } = vertex(ctx);
      return {
        body: v.tasks.map((t) => ({ id: `${t.identity.subtaskIndex}.currentInputWatermark`, value: subtaskMetrics(t).get('currentInputWatermark')! })),
      };
    },
  },
  {
    // The engine runs every subtask on one Node.js thread: there are no task threads to sample. It answers as Flink
    // does without `rest.flamegraph.enabled` (the disabled handler, which answers before looking the job up).
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/flamegraph',
    handler: () => ({ body: { endTimestamp: -2 } }),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/metrics',
    // Flink's metrics handlers answer [] for a job or vertex their metric store does not know (a job just gone), not 404.
    handler: (ctx) => {
      const known = knownVertex(ctx);
      return { body: known ? metricCollection(prefixed(known.tasks), metricNames(ctx.query)) : [] };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasks/metrics',
    handler: (ctx) => {
      const { vertex: v } = vertex(ctx);
      let tasks = v.tasks;
      if (ctx.query.subtasks) {
        let indices: number[];
        try {
          indices = parseSubtaskFilter(ctx.query.subtasks, v.tasks.length);
        } catch (error) {
          throw new RestError(400, `Bad request, could not parse parameters: ${(error as Error).message}`);
        }
        tasks = indices.map((i) => v.tasks[i]);
      }
      return { body: aggregateMetrics(tasks.map((t) => subtaskMetrics(t)), metricNames(ctx.query), aggregationModes(ctx.query)) };
    },
  },
  // Before `subtasks/:subtaskindex`, which would take `accumulators` for an index.
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/accumulators',
    handler: (ctx) => ({ body: views.vertexAccumulators(vertex(ctx).vertex) }),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasks/accumulators',
    handler: (ctx) => ({ body: views.subtaskAccumulators(vertex(ctx).vertex) }),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasks/:subtaskindex',
    handler: (ctx) => {
      const { vertex: v } = vertex(ctx);
      return { body: views.subtaskDetails(v.tasks[subtaskIndex(ctx, v)], ctx.now) };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasks/:subtaskindex/attempts/:attempt',
    handler: (ctx) => {
      const { vertex: v } = vertex(ctx);
      const task = v.tasks[subtaskIndex(ctx, v)];
      if (Number(ctx.params.attempt) !== task.identity.attempt) throw new RestError(404, `Attempt ${ctx.params.attempt} not found for subtask ${task.identity.subtaskIndex}.`);
      return { body: views.subtaskDetails(task, ctx.now) };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasks/:subtaskindex/metrics',
    handler: (ctx) => {
      const { vertex: v } = vertex(ctx);
      return { body: metricCollection(subtaskMetrics(v.tasks[subtaskIndex(ctx, v)]), metricNames(ctx.query)) };
    },
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/subtasktimes',
    handler: (ctx) => ({ body: views.subtaskTimes(vertex(ctx).vertex, ctx.now) }),
  },
  {
    method: 'GET',
    path: '/jobs/:jobid/vertices/:vertexid/taskmanagers',
    handler: (ctx) => ({ body: views.vertexTaskManagers(ctx.engine, vertex(ctx).vertex, ctx.now) }),
  },
  {
    method: 'GET',
    path: '/taskmanagers',
    handler: ({ engine, now }) => ({ body: { taskmanagers: engine.cluster.taskManagers.map((tm) => views.taskManagerInfo(engine, tm, now)) } }),
  },
  {
    method: 'GET',
    path: '/taskmanagers/metrics',
    handler: (ctx) => {
      const ids = ctx.query.taskmanagers?.split(',').filter((s) => s !== '');
      const tms = ctx.engine.cluster.taskManagers.filter((tm) => !ids || ids.includes(tm.id));
      return { body: aggregateMetrics(tms.map((tm) => taskManagerMetrics(ctx.engine, tm)), metricNames(ctx.query), aggregationModes(ctx.query)) };
    },
  },
  { method: 'GET', path: '/taskmanagers/:taskmanagerid', handler: (ctx) => ({ body: views.taskManagerDetails(ctx.engine, taskManagerOf(ctx), ctx.now) }) },
  {
    method: 'GET',
    path: '/taskmanagers/:taskmanagerid/metrics',
    handler: (ctx) => ({ body: metricCollection(taskManagerMetrics(ctx.engine, taskManagerOf(ctx)), metricNames(ctx.query)) }),
  },
];

/** Engine-only extras, under a path of their own so they are never mistaken for Flink's API. */
export const EXTRA_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/local-engine/v1/info',
    handler: ({ engine, now }) => ({
      body: {
        engine: ENGINE_REVISION,
        emulatedFlinkVersion: engine.flinkVersion,
        now,
        startedAt: engine.cluster.startTime,
        scenario: engine.scenario ? { name: engine.scenario.name, description: engine.scenario.description } : null,
        seed: engine.seed,
        rate: engine.generator.rate,
        events: engine.generator.events ?? null,
        job: engine.jobName,
        sinkDir: engine.sinkDir ?? null,
      },
    }),
  },
  {
    method: 'POST',
    path: '/local-engine/v1/taskmanagers/:taskmanagerid/kill',
    handler: (ctx) => operation(() => ops.killTaskManager(ctx.engine, ctx.params.taskmanagerid)),
  },
  {
    // Every trigger request the engine received (savepoint, stop, checkpoint), with whether it started an operation,
    // and every savepoint disposal request.
    method: 'GET',
    path: '/local-engine/v1/async-operations',
    handler: ({ engine }) => ({ body: { triggers: engine.operations.triggerLog, disposals: engine.disposals.log } }),
  },
  {
    method: 'GET',
    path: '/local-engine/v1/jobs/:jobid/results',
    handler: (ctx) => {
      const j = job(ctx);
      const store = ctx.engine.results.get(j.jobId);
      return { body: { rows: store?.rows() ?? [], emitted: store?.emitted ?? 0, sinkFile: ctx.engine.sinkFiles.get(j.jobId) ?? null } };
    },
  },
];

function toQuery(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [k, v] of Object.entries(req.query)) out[k] = Array.isArray(v) ? v.map(String).join(',') : v === undefined ? undefined : String(v);
  return out;
}

/** Flink's `rest.server.max-content-length` default (100 MiB): the largest jar upload. */
export const MAX_JAR_UPLOAD_BYTES = 104_857_600;

/** The largest request body the engine reads (Flink's trigger and run bodies are a few hundred bytes). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * The express app serving Flink's REST API v1 (at `/` and `/v1`) over the engine. Unlike Flink it sends no CORS
 * header and admits only loopback, same-origin, JSON requests (with the token when it has one): see request-guard.ts.
 */
export function createRestApp(engine: LocalEngine, options: RequestGuardOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestGuard(options));
  // `POST /jars/upload` is multipart: read as bytes before the JSON routes' text body.
  app.post([...JAR_UPLOAD_PATHS], express.raw({ type: () => true, limit: MAX_JAR_UPLOAD_BYTES }), (req: Request, res: Response) => {
    try {
      const file = singleFile(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers['content-type']);
      const result = operation(() => ops.uploadJar(engine, file));
      res.status(result.status).json(result.body);
    } catch (error) {
      if (error instanceof MultipartError) res.status(400).json(flinkErrorBody(error.message));
      else if (error instanceof RestError) res.status(error.status).json(error.body);
      else res.status(500).json(internalErrorBody(error));
    }
  });
  // The guard admits only `application/json` writes; GETs with a body are read the same way.
  app.use(express.text({ type: () => true, limit: MAX_REQUEST_BODY_BYTES }));
  const mount = (prefix: string, routes: RouteSpec[]) => {
    for (const route of routes) {
      const method = route.method.toLowerCase() as 'get' | 'patch' | 'post' | 'put' | 'delete';
      app[method](`${prefix}${route.path}`, (req: Request, res: Response) => {
        try {
          const text = typeof req.body === 'string' ? req.body.trim() : '';
          let body: unknown;
          if (text !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              throw new RestError(400, 'Request body is not valid JSON.', flinkErrorBody('Request body is not valid JSON.'));
            }
          }
          const result = route.handler({
            engine,
            params: req.params as Record<string, string>,
            query: toQuery(req),
            now: engine.now(),
            body,
            address: `http://${req.headers.host ?? '127.0.0.1'}`,
          });
          if (result.text) res.status(result.status ?? 200).type('text/plain').send(result.body as string);
          else res.status(result.status ?? 200).json(result.body);
        } catch (error) {
          if (error instanceof RestError) res.status(error.status).json(error.body);
          else res.status(500).json(internalErrorBody(error));
        }
      });
    }
  };
  mount('', ROUTES);
  mount('/v1', ROUTES);
  // Flink 2.3 added the rescale history; an engine claiming an older Flink answers 404 there (rescales.ts).
  mount('', rescaleRoutes(job));
  mount('/v1', rescaleRoutes(job));
  mount('', LOG_ROUTES);
  mount('/v1', LOG_ROUTES);
  mount('', EXTRA_ROUTES);
  app.use((req, res) => {
    res.status(404).json({ errors: [`Not found: ${req.path}`] });
  });
  app.use(flinkErrorHandler);
  return app;
}

/** Listens on 127.0.0.1:port (0 = any free port); rejects with a clear message when the port is taken. */
export function listen(app: express.Express, port: number, host = '127.0.0.1'): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    answerClientErrors(server);
    server.once('listening', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`Port ${port} on ${host} is already in use: stop what uses it or pick another with --port.`));
      else if (error.code === 'EACCES') reject(new Error(`No permission to listen on ${host}:${port}: pick a port above 1023 with --port.`));
      else reject(error);
    });
  });
}
