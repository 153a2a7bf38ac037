import type { VertexSubtasks } from './jobs.ts';

/**
 * The logs service: the log files and thread dumps of the JobManager and of each TaskManager, as Flink's Web UI shows
 * them, read on demand. A process is `"jobmanager"` or a TaskManager's resource id. Files are read in pages: Flink
 * sends a file whole on every request (no Range support), so a page streams past the bytes before it and stops at its
 * end; nothing holds a whole file. Text a cluster sent is made visible, never run: control characters and escape
 * sequences arrive as their Unicode control pictures (ESC as `␛`), invalid UTF-8 as `�`.
 */

export interface LogsApi {
  /** The files of the process's log directory (name, size, modified): 1 request. */
  list(clusterId: string, processId: string): Promise<LogFileList>;
  /** A page of a file: from `offset` (bytes), or the last `length` bytes when `offset` is null; 1 request. */
  read(clusterId: string, processId: string, request: LogReadRequest): Promise<LogPage>;
  /** The lines of a file that contain a text and/or belong to a task (`tenant-cost (13/32)#0`), scanned up to a byte cap: 1 request. */
  search(clusterId: string, processId: string, request: LogSearchRequest): Promise<LogSearchResult>;
  /** A fresh thread dump, grouped by state, the task threads named as their subtasks: 1 request. */
  threadDump(clusterId: string, processId: string): Promise<ThreadDumpView>;
}

/** The current log (`/log`), the stdout (`/stdout`), or a file of the list by name (`/logs/:filename`). */
export type LogFileRef = { kind: 'log' } | { kind: 'stdout' } | { kind: 'file'; name: string };

/**
 * A whole log file to download: streamed from the cluster to a file (the CLI, the desktop shell's save dialog) or to
 * the browser (web mode), never held whole. Not an engine call: its bytes do not cross the bridge as JSON.
 */
export interface LogFileRequest {
  clusterId: string;
  processId: string;
  file: LogFileRef;
}

/** `Execution.getVertexWithAttempt()`: the name Flink gives a subtask in its logs and to its thread. */
export function taskName(vertexName: string, subtaskIndex: number, parallelism: number, attempt: number): string {
  return `${vertexName} (${subtaskIndex + 1}/${parallelism})#${attempt}`;
}

/** Where a subtask's log lines are: its TaskManager and the name of its task there. */
export interface SubtaskLogTarget {
  processId: string;
  task: string;
}

/** Pure: where subtask `index` of a vertex runs now, as a log target; or why there is none, in words. */
export function subtaskLogTarget(index: number, vertex: Pick<VertexSubtasks, 'name' | 'parallelism' | 'subtasks'>): SubtaskLogTarget | string {
  const row = vertex.subtasks.find((s) => s.index === index);
  if (!row?.taskManagerId) return `Subtask ${index} of ${vertex.name} runs on no TaskManager now (${row?.status ?? 'not listed'}): no log to open.`;
  return { processId: row.taskManagerId, task: taskName(vertex.name, index, vertex.parallelism, row.attempt) };
}

/** The name a downloaded log is saved as: whose and which file, in letters, digits, dots, dashes and underscores. */
export function logDownloadName(processId: string, file: LogFileRef): string {
  const who = processId === 'jobmanager' ? 'jobmanager' : `taskmanager-${processId}`;
  return safeFileName(file.kind === 'file' ? `${who}-${file.name}` : `${who}.${file.kind === 'log' ? 'log' : 'out'}`);
}

/** A file name from cluster-sent text: only letters, digits, dots, dashes and underscores survive. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 120) || 'log';
}

/** The most one page may be: the Web UI and the peers cap a file at 16 MiB; a page is far smaller. */
export const MAX_LOG_PAGE_BYTES = 4 * 1024 * 1024;
/** A page's length when none is asked. */
export const DEFAULT_LOG_PAGE_BYTES = 256 * 1024;
/** How much of a file a search reads at most when none is asked. */
export const DEFAULT_LOG_SCAN_BYTES = 64 * 1024 * 1024;
/** The most a search may read: beyond it, download the file. */
export const MAX_LOG_SCAN_BYTES = 512 * 1024 * 1024;
/** The most lines a search returns. */
export const MAX_LOG_MATCHES = 2000;

export interface LogReadRequest {
  file: LogFileRef;
  /** Byte offset of the page; null = the file's last `length` bytes (the tail). */
  offset: number | null;
  /** Bytes at most. @default DEFAULT_LOG_PAGE_BYTES */
  length?: number;
}

export interface LogSearchRequest {
  file: LogFileRef;
  /** Lines containing this text (case-insensitive); null = every line (with a task filter). */
  text: string | null;
  /** Lines of this task only (`Execution.getVertexWithAttempt()`, e.g. `tenant-cost (13/32)#0`), with their continuation lines. */
  task: string | null;
  /** Bytes read at most. @default DEFAULT_LOG_SCAN_BYTES */
  maxScanBytes?: number;
  /** Lines returned at most. @default MAX_LOG_MATCHES */
  maxMatches?: number;
  /** The first `maxMatches` lines found (the search stops there), or the last ones (it reads on). @default 'first' */
  keep?: 'first' | 'last';
}

export interface LogFileInfo {
  name: string;
  size: number;
  /** Epoch ms; null where the cluster does not say (older Flink). */
  modifiedAt: number | null;
}

export interface LogFileList {
  clusterId: string;
  processId: string;
  files: LogFileInfo[];
  fetchedAt: number;
}

export interface LogLine {
  /** 1-based line number in the file. */
  number: number;
  /** Byte offset of the line in the file. */
  offset: number;
  /** The line as text: control characters as control pictures, no line break. */
  text: string;
}

export interface LogPage {
  clusterId: string;
  processId: string;
  file: LogFileRef;
  /** Where the page's first whole line starts (bytes). */
  offset: number;
  /** Where the next page starts: after the page's last whole line (follow polls from here). */
  nextOffset: number;
  lines: LogLine[];
  /** The file's size as the cluster announced it, or as it streamed by; null when unknown. */
  fileBytes: number | null;
  /** The page reaches the end of the file. */
  endOfFile: boolean;
  /** A line longer than the page was cut: the page ends inside it. */
  cutLine: boolean;
  fetchedAt: number;
}

export interface LogSearchResult {
  clusterId: string;
  processId: string;
  file: LogFileRef;
  matches: LogLine[];
  /** Lines that matched, returned or not (more than `matches` when the last ones were kept). */
  matchedLines: number;
  /** Bytes read. */
  scannedBytes: number;
  /** The whole file was read (false: the scan stopped at its cap, or at `maxMatches`). */
  complete: boolean;
  /** Lines read. */
  scannedLines: number;
  fetchedAt: number;
}

/** Java's `Thread.State`, and `unknown` for a line the console could not read. */
export type ThreadState = 'RUNNABLE' | 'BLOCKED' | 'WAITING' | 'TIMED_WAITING' | 'NEW' | 'TERMINATED' | 'unknown';
export const THREAD_STATES: readonly ThreadState[] = ['RUNNABLE', 'BLOCKED', 'WAITING', 'TIMED_WAITING', 'NEW', 'TERMINATED', 'unknown'];

/**
 * The subtask a thread works for, read from its name: the task's own thread is named `<vertex name> (<i+1>/<p>)#<attempt>`;
 * its helpers carry that name after theirs (`OutputFlusher for throttle (1/2)#0`, `System Time Trigger for …`).
 */
export interface ThreadTask {
  /** `task`: the task's own thread (where its operators run); `helper`: a thread working for it. */
  role: 'task' | 'helper';
  vertexName: string;
  /** 0-based, as the console numbers subtasks. */
  subtaskIndex: number;
  parallelism: number;
  attempt: number;
}

export interface ThreadView {
  name: string;
  /** The JVM's thread id; null when not readable. */
  id: number | null;
  state: ThreadState;
  /** What it waits on or is blocked by (`java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@1b2c`). */
  lockName: string | null;
  lockOwner: string | null;
  /** Set when the thread is a task's thread. */
  task: ThreadTask | null;
  /** The stack, as Flink stringified it (first line included). */
  stack: string;
}

export interface ThreadDumpView {
  clusterId: string;
  processId: string;
  /** Every state with its threads, task threads first, in THREAD_STATES order; states without threads left out. */
  groups: Array<{ state: ThreadState; threads: ThreadView[] }>;
  threadCount: number;
  /** The tasks' own threads (helpers not counted). */
  taskThreadCount: number;
  /** Said when the cluster is the local engine: what its threads are. */
  note: string | null;
  fetchedAt: number;
}
