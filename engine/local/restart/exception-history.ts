import type { components } from '../../flink-rest/generated/rest-v1.19.ts';

/**
 * `GET /jobs/:jobid/exceptions` as Flink 2.x writes it (`JobExceptionsHandler`, `RootExceptionHistoryEntry`):
 * `{"exceptionHistory": {"entries": [...], "truncated": bool}}`, newest entry first, at most `maxExceptions` (default
 * 20) entries, `truncated` when some were left out. An entry of a task failure names the task
 * (`"<vertex name> (<i+1>/<p>)#<attempt>"`), its TaskManager's `endpoint` (`host:dataPort`) and `taskManagerId`; a
 * global failure (e.g. a lost TaskManager under the adaptive scheduler, as observed on 2.2.1) has none of the three
 * keys. The deprecated 1.x fields (`root-exception`, `all-exceptions`, `location`, ...) are not written.
 */

type S = components['schemas'];

/** `JobExceptionsInfoWithHistory.ExceptionInfo` (a concurrent exception) on the 2.x wire. */
export interface ExceptionInfoWire {
  exceptionName: string;
  stacktrace: string;
  timestamp: number;
  taskName?: string;
  endpoint?: string;
  taskManagerId?: string;
  failureLabels: Record<string, string>;
}

/** `RootExceptionInfo` on the 2.x wire. */
export interface RootExceptionInfoWire extends ExceptionInfoWire {
  concurrentExceptions: ExceptionInfoWire[];
}

export interface JobExceptionsWire {
  exceptionHistory: { entries: RootExceptionInfoWire[]; truncated: boolean };
}

// `endpoint` is newer than the 1.19 spec (it was `location`); every other field is in the spec.
type KeysIn<Wire, Spec> = Exclude<keyof Wire, keyof Spec | 'endpoint'> extends never ? true : never;
const fieldsInSpec: [KeysIn<RootExceptionInfoWire, S['RootExceptionInfo']>, KeysIn<ExceptionInfoWire, S['ExceptionInfo']>] = [true, true];
void fieldsInSpec;

/** `JobExceptionsHandler.MAX_NUMBER_EXCEPTION_TO_REPORT`. */
export const DEFAULT_MAX_EXCEPTIONS = 20;

/** Where a failed task ran. */
export interface FailedTask {
  /** The job vertex name, e.g. `"tenant-cost -> Sink: usd-sink"`. */
  vertexName: string;
  subtaskIndex: number;
  parallelism: number;
  attempt: number;
  /** `host:dataPort` of its TaskManager. */
  endpoint: string;
  taskManagerId: string;
}

/** A failure to record: an Error, or a Java-style exception already described. */
export type FailureCause = Error | { className: string; message: string; stackLines?: string[] };

/** `Execution.getVertexWithAttempt()`: `"<name> (<i+1>/<p>)#<attempt>"`. */
export function taskNameWithAttempt(task: Pick<FailedTask, 'vertexName' | 'subtaskIndex' | 'parallelism' | 'attempt'>): string {
  return `${task.vertexName} (${task.subtaskIndex + 1}/${task.parallelism})#${task.attempt}`;
}

/** The Java class name shown for an exception: dotted names are kept; a plain JS `Error` reads as RuntimeException. */
export function javaClassName(cause: FailureCause): string {
  if (!(cause instanceof Error)) return cause.className;
  if (cause.name.includes('.')) return cause.name;
  return cause.name === 'Error' ? 'java.lang.RuntimeException' : cause.name;
}

/**
 * `ExceptionUtils.stringifyException`: `"<class>: <message>"` then one `"\tat <frame>"` line per frame. JS frames
 * (`"    at fn (file:1:2)"`) are rewritten in Java's layout.
 */
export function javaStackTrace(cause: FailureCause): string {
  const name = javaClassName(cause);
  const head = cause.message ? `${name}: ${cause.message}` : name;
  let frames: string[];
  if (cause instanceof Error) {
    frames = (cause.stack ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('at '))
      .map((l) => l.slice(3).replace(/^(.*) \((.*)\)$/, '$1($2)'));
  } else frames = cause.stackLines ?? [];
  return [head, ...frames.map((f) => `\tat ${f}`)].join('\n') + '\n';
}

function info(cause: FailureCause, timestamp: number, task: FailedTask | undefined, failureLabels: Record<string, string>): ExceptionInfoWire {
  const base: ExceptionInfoWire = { exceptionName: javaClassName(cause), stacktrace: javaStackTrace(cause), timestamp } as ExceptionInfoWire;
  if (task) {
    base.taskName = taskNameWithAttempt(task);
    base.endpoint = task.endpoint;
    base.taskManagerId = task.taskManagerId;
  }
  base.failureLabels = { ...failureLabels };
  return base;
}

/**
 * One exception-history entry: a task failure when `task` is given, else a global failure. `concurrent` are other
 * failures handled with it (e.g. the other tasks of a lost TaskManager).
 */
export function exceptionHistoryEntry(input: {
  cause: FailureCause;
  timestamp: number;
  task?: FailedTask;
  failureLabels?: Record<string, string>;
  concurrent?: Array<{ cause: FailureCause; timestamp: number; task: FailedTask; failureLabels?: Record<string, string> }>;
}): RootExceptionInfoWire {
  return {
    ...info(input.cause, input.timestamp, input.task, input.failureLabels ?? {}),
    concurrentExceptions: (input.concurrent ?? []).map((c) => info(c.cause, c.timestamp, c.task, c.failureLabels ?? {})),
  };
}

/**
 * The entry Flink 2.2.1 records when a TaskManager process dies under the adaptive scheduler (observed): a global
 * `ResourceManagerException` "TaskManager with id <id> is no longer reachable.", no task fields.
 */
export function taskManagerLostEntry(taskManagerId: string, timestamp: number): RootExceptionInfoWire {
  return exceptionHistoryEntry({
    cause: {
      className: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException',
      message: `TaskManager with id ${taskManagerId} is no longer reachable.`,
      stackLines: [
        'org.apache.flink.runtime.resourcemanager.ResourceManager$TaskManagerHeartbeatListener.notifyTargetUnreachable(ResourceManager.java:1492)',
        'org.apache.flink.runtime.heartbeat.DefaultHeartbeatMonitor.reportHeartbeatRpcFailure(DefaultHeartbeatMonitor.java:126)',
      ],
    },
    timestamp,
  });
}

/** The body of `GET /jobs/:jobid/exceptions?maxExceptions=n`; `entries` oldest first, as they happened. */
export function renderExceptionHistory(entries: readonly RootExceptionInfoWire[], maxExceptions = DEFAULT_MAX_EXCEPTIONS): JobExceptionsWire {
  if (!(Number.isInteger(maxExceptions) && maxExceptions >= 0)) throw new RangeError(`maxExceptions must be a whole number >= 0, got ${maxExceptions}.`);
  const newestFirst = [...entries].reverse();
  const shown = newestFirst.slice(0, maxExceptions);
  return { exceptionHistory: { entries: shown, truncated: shown.length < newestFirst.length } };
}
