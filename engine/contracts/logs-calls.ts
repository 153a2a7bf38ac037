import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { LogFileRef, LogFileRequest, LogReadRequest, LogSearchRequest, LogsApi } from './logs.ts';

/** The logs service's calls as the bridge checks them; the engine judges the ranges and the names. */

const clusterId = arg('clusterId', z.string());
const processId = arg('processId', z.string().max(256));
/** A log file as the page names it: the current log, the stdout, or a file of the list (checked by the engine). */
export const LOG_FILE_REF: z.ZodType<LogFileRef> = z.union([
  z.object({ kind: z.literal('log') }).strict(),
  z.object({ kind: z.literal('stdout') }).strict(),
  z.object({ kind: z.literal('file'), name: z.string().max(1024) }).strict(),
]);
const read: z.ZodType<LogReadRequest> = z.object({ file: LOG_FILE_REF, offset: z.number().nullable(), length: z.number().optional() }).strict();
const search: z.ZodType<LogSearchRequest> = z
  .object({ file: LOG_FILE_REF, text: z.string().max(1024).nullable(), task: z.string().max(1024).nullable(), maxScanBytes: z.number().optional(), maxMatches: z.number().optional(), keep: z.enum(['first', 'last']).optional() })
  .strict();

export const LOGS_CALLS: ServiceCalls<LogsApi> = {
  list: call(clusterId, processId),
  read: call(clusterId, processId, arg('request', read)),
  search: call(clusterId, processId, arg('request', search)),
  threadDump: call(clusterId, processId),
};

/** A whole-file download as the web server and the desktop shell check it. */
export const LOG_FILE_REQUEST: z.ZodType<LogFileRequest> = z.object({ clusterId: z.string().min(1).max(256), processId: z.string().min(1).max(256), file: LOG_FILE_REF }).strict();
