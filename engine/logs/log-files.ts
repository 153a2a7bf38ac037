import {
  DEFAULT_LOG_PAGE_BYTES,
  DEFAULT_LOG_SCAN_BYTES,
  MAX_LOG_MATCHES,
  MAX_LOG_PAGE_BYTES,
  MAX_LOG_SCAN_BYTES,
  type LogFileList,
  type LogFileRef,
  type LogPage,
  type LogReadRequest,
  type LogSearchRequest,
  type LogSearchResult,
} from '../contracts/logs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import type { TextEndpointSpec } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { logEndpoints } from '../flink-rest/log-endpoints.ts';
import { checkProcessId } from '../inspect/fetch-process-figures.ts';
import { pageLines } from './log-lines.ts';
import { LineMatcher } from './log-search.ts';

/** What a file name may be: a name of the log directory, never a path. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const BAD_FILE_NAME = /[\u0000-\u001f/\\]|^\.\.?$/;

/** The files of a process's log directory: 1 request. */
export async function listLogs(client: FlinkRestClient, clusterId: string, processId: string): Promise<LogFileList> {
  const process = checkedProcess(processId);
  const answer = process === 'jobmanager'
    ? await client.request(logEndpoints.jobManagerLogs)
    : await client.request(logEndpoints.taskManagerLogs, { taskmanagerid: process });
  const files = answer.logs.map((f) => ({ name: f.name, size: f.size, modifiedAt: f.mtime === undefined || f.mtime < 0 ? null : f.mtime }));
  files.sort((a, b) => a.name.localeCompare(b.name));
  return { clusterId, processId: process, files, fetchedAt: Date.now() };
}

/** A page of a file, cut to whole lines: 1 request, streamed past the bytes before the page and ended after it. */
export async function readLogPage(client: FlinkRestClient, clusterId: string, processId: string, request: LogReadRequest): Promise<LogPage> {
  const process = checkedProcess(processId);
  const length = checkedBytes(request.length ?? DEFAULT_LOG_PAGE_BYTES, MAX_LOG_PAGE_BYTES, 'A page');
  if (request.offset !== null && !(Number.isSafeInteger(request.offset) && request.offset >= 0)) {
    throw new EngineError('invalid-input', `A page's offset is a byte position (a whole number from 0), not ${String(request.offset)}.`);
  }
  const { spec, params } = fileSpec(process, request.file);
  const page = await client.readText(spec, params, { offset: request.offset, length });
  const cut = pageLines(page);
  return {
    clusterId,
    processId: process,
    file: request.file,
    offset: cut.offset,
    nextOffset: cut.nextOffset,
    lines: cut.lines,
    fileBytes: page.fileBytes,
    endOfFile: page.endOfFile && cut.nextOffset === page.offset + page.length,
    cutLine: cut.cutLine,
    fetchedAt: Date.now(),
  };
}

/** The lines of a file with a text and/or of a task, in one streamed pass up to the byte cap: 1 request. */
export async function searchLog(client: FlinkRestClient, clusterId: string, processId: string, request: LogSearchRequest): Promise<LogSearchResult> {
  const process = checkedProcess(processId);
  const maxScan = checkedBytes(request.maxScanBytes ?? DEFAULT_LOG_SCAN_BYTES, MAX_LOG_SCAN_BYTES, 'A search');
  const maxMatches = request.maxMatches ?? MAX_LOG_MATCHES;
  if (!(Number.isSafeInteger(maxMatches) && maxMatches >= 1 && maxMatches <= MAX_LOG_MATCHES)) {
    throw new EngineError('invalid-input', `A search returns 1 to ${MAX_LOG_MATCHES} lines, not ${String(maxMatches)}.`);
  }
  const text = request.text === null || request.text === '' ? null : request.text;
  const task = request.task === null || request.task.trim() === '' ? null : request.task.trim();
  if (text === null && task === null) throw new EngineError('invalid-input', 'A search needs a text or a task to look for.');
  const { spec, params } = fileSpec(process, request.file);
  const matcher = new LineMatcher({ text, task }, maxMatches, request.keep ?? 'first');
  const scan = await client.scanText(spec, params, maxScan, (chunk) => matcher.push(chunk));
  if (scan.endOfFile) matcher.end();
  return {
    clusterId,
    processId: process,
    file: request.file,
    matches: matcher.matches,
    matchedLines: matcher.matched,
    scannedBytes: scan.bytesRead,
    scannedLines: matcher.lines,
    complete: scan.endOfFile && !matcher.full,
    fetchedAt: Date.now(),
  };
}

export function checkedProcess(processId: string): string {
  const id = checkProcessId(processId);
  if (id === null) throw new EngineError('invalid-input', 'A process is "jobmanager" or a TaskManager id (up to 256 characters, no "/" or control characters).');
  return id;
}

function checkedBytes(value: number, max: number, what: string): number {
  if (!(Number.isSafeInteger(value) && value >= 1 && value <= max)) {
    throw new EngineError('invalid-input', `${what} reads 1 byte to ${max / (1024 * 1024)} MiB, not ${String(value)}.`);
  }
  return value;
}

/** The endpoint of a file of a process, and its path parameters. */
export function fileSpec(processId: string, file: LogFileRef): { spec: TextEndpointSpec; params: Record<string, string> } {
  if (file.kind === 'file' && (file.name === '' || file.name.length > 1024 || BAD_FILE_NAME.test(file.name))) {
    throw new EngineError('invalid-input', 'A log file is named as the list names it: no "/", "\\" or control characters.');
  }
  if (processId === 'jobmanager') {
    if (file.kind === 'log') return { spec: logEndpoints.jobManagerLog, params: {} };
    if (file.kind === 'stdout') return { spec: logEndpoints.jobManagerStdout, params: {} };
    return { spec: logEndpoints.jobManagerLogFile, params: { filename: file.name } };
  }
  const taskmanagerid = processId;
  if (file.kind === 'log') return { spec: logEndpoints.taskManagerLog, params: { taskmanagerid } };
  if (file.kind === 'stdout') return { spec: logEndpoints.taskManagerStdout, params: { taskmanagerid } };
  return { spec: logEndpoints.taskManagerLogFile, params: { taskmanagerid, filename: file.name } };
}
