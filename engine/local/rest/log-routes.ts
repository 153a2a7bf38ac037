import type { LocalEngine } from '../engine.ts';
import type { ProcessLog } from '../logs/process-log.ts';
import type { ProcessLogFiles } from '../logs/cluster-logs.ts';
import { jobManagerThreadDump, taskManagerThreadDump } from '../logs/thread-dump.ts';
import { RestError, type RouteSpec } from './server.ts';

/** `LogListInfo`: the files of a process's log directory. */
function logList(files: ProcessLogFiles) {
  return { logs: [files.log, files.stdout].map((f) => ({ name: f.name, size: f.size, mtime: f.modifiedAt })) };
}

/** A file, sent whole as `text/plain` as Flink's `HandlerUtils.transferFile` sends it. */
function file(log: ProcessLog) {
  return { body: log.text(), text: true as const };
}

function named(files: ProcessLogFiles, filename: string): ProcessLog {
  const found = [files.log, files.stdout].find((f) => f.name === filename);
  // Flink answers a name outside the log directory the same way: the file is not there.
  if (!found) throw new RestError(404, `Could not find file ${filename}.`);
  return found;
}

function taskManagerFiles(engine: LocalEngine, id: string): ProcessLogFiles {
  const alive = engine.cluster.taskManagers.some((tm) => tm.id === id);
  const files = engine.cluster.logs.taskManager(id);
  if (!alive || !files) throw new RestError(404, `Failed to transfer file from TaskExecutor ${id} because it was unknown.`);
  return files;
}

function knownTaskManager(engine: LocalEngine, id: string): string {
  if (!engine.cluster.taskManagers.some((tm) => tm.id === id)) throw new RestError(404, `Could not find TaskExecutor ${id}.`);
  return id;
}

/** The logs and thread dumps of the JobManager and the TaskManagers, in Flink's shape, from the engine's own runtime. */
export const LOG_ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/jobmanager/logs', handler: ({ engine }) => ({ body: logList(engine.cluster.logs.jobManager) }) },
  { method: 'GET', path: '/jobmanager/log', handler: ({ engine }) => file(engine.cluster.logs.jobManager.log) },
  { method: 'GET', path: '/jobmanager/stdout', handler: ({ engine }) => file(engine.cluster.logs.jobManager.stdout) },
  { method: 'GET', path: '/jobmanager/logs/:filename', handler: ({ engine, params }) => file(named(engine.cluster.logs.jobManager, params.filename)) },
  { method: 'GET', path: '/jobmanager/thread-dump', handler: () => ({ body: jobManagerThreadDump() }) },
  { method: 'GET', path: '/taskmanagers/:taskmanagerid/logs', handler: ({ engine, params }) => ({ body: logList(taskManagerFiles(engine, params.taskmanagerid)) }) },
  { method: 'GET', path: '/taskmanagers/:taskmanagerid/log', handler: ({ engine, params }) => file(taskManagerFiles(engine, params.taskmanagerid).log) },
  { method: 'GET', path: '/taskmanagers/:taskmanagerid/stdout', handler: ({ engine, params }) => file(taskManagerFiles(engine, params.taskmanagerid).stdout) },
  {
    method: 'GET',
    path: '/taskmanagers/:taskmanagerid/logs/:filename',
    handler: ({ engine, params }) => file(named(taskManagerFiles(engine, params.taskmanagerid), params.filename)),
  },
  {
    method: 'GET',
    path: '/taskmanagers/:taskmanagerid/thread-dump',
    handler: ({ engine, params }) => ({ body: taskManagerThreadDump(engine.cluster, knownTaskManager(engine, params.taskmanagerid)) }),
  },
];
