import { THREAD_STATES, type ThreadDumpView, type ThreadState, type ThreadTask, type ThreadView } from '../contracts/logs.ts';
import { visibleText } from './visible-text.ts';

/** `JvmUtils.stringifyThreadInfo`'s first line: `"name" Id=42 WAITING on lock owned by "other" Id=7`. */
const HEADER = /^"(.*)" (?:daemon )?(?:prio=\d+ )?Id=(\d+) ([A-Z_]+)(?: on (\S+))?(?: owned by "(.*)" Id=\d+)?/s;
/** A task thread's name: `Execution.getVertexWithAttempt()`, `<vertex name> (<i+1>/<p>)#<attempt>`. */
const TASK_THREAD = /^(.*) \((\d+)\/(\d+)\)#(\d+)$/s;

/** Reads a task thread's subtask from its name; null for any other thread. */
export function threadTask(name: string, role: ThreadTask['role'] = 'task'): ThreadTask | null {
  const m = TASK_THREAD.exec(name);
  if (!m) return null;
  const subtask = Number(m[2]);
  const parallelism = Number(m[3]);
  if (subtask < 1 || subtask > parallelism) return null;
  return { role, vertexName: m[1], subtaskIndex: subtask - 1, parallelism, attempt: Number(m[4]) };
}

/**
 * A thread whose name ends with another task thread's name after a space (`OutputFlusher for throttle (1/2)#0`,
 * `System Time Trigger for throttle (1/2)#0`) is a helper of that task, not a task of its own.
 */
function withHelpers(threads: ThreadView[]): ThreadView[] {
  const taskNames = threads.filter((t) => t.task !== null).map((t) => t.name);
  return threads.map((t) => {
    if (t.task === null) return t;
    const served = taskNames.find((other) => other !== t.name && t.name.endsWith(` ${other}`));
    return served === undefined ? t : { ...t, task: threadTask(served, 'helper') };
  });
}

/** Task threads first, then their helpers, then the rest; by name within each. */
function rank(t: ThreadView): number {
  return t.task === null ? 2 : t.task.role === 'task' ? 0 : 1;
}

/** One entry of Flink's `ThreadDumpInfo` read: state, lock and task from its stringified form. */
export function threadView(threadName: string, stringified: string): ThreadView {
  const firstLine = stringified.split('\n', 1)[0];
  const m = HEADER.exec(firstLine);
  const state = m && (THREAD_STATES as readonly string[]).includes(m[3]) ? (m[3] as ThreadState) : 'unknown';
  return {
    name: visibleText(threadName),
    id: m ? Number(m[2]) : null,
    state,
    lockName: m?.[4] ? visibleText(m[4]) : null,
    lockOwner: m?.[5] ? visibleText(m[5]) : null,
    task: threadTask(threadName),
    // The stack keeps its line breaks and tabs; every other control character is made visible.
    stack: stringified.split('\n').map((line) => visibleText(line.replace(/\t/g, '    '))).join('\n'),
  };
}

/** Pure: Flink's thread dump → the threads grouped by state, task threads first in each group, then their helpers. */
export function groupThreadDump(clusterId: string, processId: string, infos: Array<{ threadName: string; stringifiedThreadInfo: string }>, note: string | null, fetchedAt: number): ThreadDumpView {
  const threads = withHelpers(infos.map((t) => threadView(t.threadName, t.stringifiedThreadInfo)));
  const groups = THREAD_STATES.map((state) => ({
    state,
    threads: threads.filter((t) => t.state === state).sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name)),
  })).filter((g) => g.threads.length > 0);
  return { clusterId, processId, groups, threadCount: threads.length, taskThreadCount: threads.filter((t) => t.task?.role === 'task').length, note, fetchedAt };
}
