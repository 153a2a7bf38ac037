import type { z } from 'zod';
import type { EndpointSpec, TextEndpointSpec } from './endpoints.ts';
import * as schemas from './log-schemas.ts';

function get<S extends z.ZodType>(path: string, specSchema: string, response: S): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema, response: response as unknown as z.ZodType<z.output<S>>, maxResponseBytes: 32 * 1024 * 1024 };
}

/** A file Flink sends whole as `text/plain` (HandlerUtils.transferFile): read in pages, never whole. */
function file(path: string): TextEndpointSpec {
  return { method: 'GET', path, specSchema: '(file)', response: {} as z.ZodType<unknown>, text: true };
}

/**
 * The logs and thread dumps of the JobManager and of each TaskManager, as the Web UI reads them, one spec per endpoint
 * (Flink's `XxxHeaders`). The files (`/log`, `/stdout`, `/logs/:filename`) are plain text, sent whole on every Flink
 * version (no Range support): `FlinkRestClient.readText` reads a page of them. Read only while a view or a command asks.
 */
export const logEndpoints = {
  jobManagerLogs: get('/jobmanager/logs', 'LogListInfo', schemas.LogListInfo),
  jobManagerLog: file('/jobmanager/log'),
  jobManagerStdout: file('/jobmanager/stdout'),
  jobManagerLogFile: file('/jobmanager/logs/:filename'),
  jobManagerThreadDump: get('/jobmanager/thread-dump', 'ThreadDumpInfo', schemas.ThreadDumpInfo),
  taskManagerLogs: get('/taskmanagers/:taskmanagerid/logs', 'LogListInfo', schemas.LogListInfo),
  taskManagerLog: file('/taskmanagers/:taskmanagerid/log'),
  taskManagerStdout: file('/taskmanagers/:taskmanagerid/stdout'),
  taskManagerLogFile: file('/taskmanagers/:taskmanagerid/logs/:filename'),
  taskManagerThreadDump: get('/taskmanagers/:taskmanagerid/thread-dump', 'ThreadDumpInfo', schemas.ThreadDumpInfo),
} as const;
