/**
 * Flink's failure causes (a `SerializedThrowable`'s stack trace, an `{"errors": [...]}` body, an exception history
 * entry) in words an operator can act on at 3 a.m.: what went wrong and what to do, with Flink's own message kept
 * beside it. Pure.
 */

export interface FailureInWords {
  /** One or two sentences. */
  words: string;
  /** The most specific message Flink gave (the innermost cause), for the record. */
  detail: string;
}

/** `Caused by: x.y.Z: message` and the first line, innermost last. */
function causeChain(stackTrace: string): string[] {
  const lines = stackTrace.split('\n').map((l) => l.trim());
  const chain = [lines[0] ?? ''];
  for (const line of lines) if (line.startsWith('Caused by:')) chain.push(line.slice('Caused by:'.length).trim());
  return chain.filter((l) => l !== '');
}

/** `java.util.concurrent.CompletionException: a.b.C: message` → `message` (wrappers peeled off). */
function messageOf(line: string): string {
  let rest = line;
  for (;;) {
    const match = /^([a-zA-Z_$][\w$]*(?:\.[a-zA-Z_$][\w$]*)+(?:Exception|Error|Throwable)?)(?::\s*(.*))?$/.exec(rest);
    if (!match || !/[A-Z]/.test(match[1].split('.').pop() ?? '')) return rest;
    if (match[2] === undefined) return match[1].split('.').pop()!;
    rest = match[2];
  }
}

interface Rule {
  test: RegExp;
  words: (detail: string) => string;
}

/** Most specific first: the first rule that matches anywhere in the chain wins. */
const RULES: Rule[] = [
  {
    test: /FlinkJobNotFoundException|Could not find Flink job|Job .* not found/i,
    words: () => 'The job is not running on the cluster (it ended, or the cluster never had it): there is nothing to take a savepoint of.',
  },
  {
    test: /TaskManager .* (lost|no longer reachable)|heartbeat of TaskManager .* timed out|Connection unexpectedly closed by remote task manager|TaskExecutor .* (lost|disconnected)/i,
    words: () => 'A TaskManager was lost during the savepoint: the job fails over, and the savepoint was aborted. Take it again once the job runs.',
  },
  {
    test: /Checkpoint Coordinator is suspending|CHECKPOINT_COORDINATOR_SUSPEND|Job failover|JOB_FAILOVER_REGION|task failure|TASK_FAILURE|FINALIZE_CHECKPOINT_FAILURE/i,
    words: () => 'The job failed over while the savepoint was being taken, which aborted it. Take it again once the job runs.',
  },
  {
    test: /not all required tasks are currently running|Checkpoint triggering task .* is not being executed|NOT_ALL_REQUIRED_TASKS_RUNNING|TASK_NOT_READY|is not in state RUNNING/i,
    words: () => 'Not every task of the job is running (it is starting, restarting or finishing), so no savepoint could be taken. Try again once the job runs.',
  },
  {
    test: /Checkpoint expired before completing|CHECKPOINT_EXPIRED|timed out/i,
    words: () =>
      'The savepoint timed out before every task acknowledged it (execution.checkpointing.timeout). Back-pressure or a slow state backend usually causes this: relieve the pressure, or raise the timeout.',
  },
  {
    test: /Mkdirs failed|ENOTDIR|EACCES|EROFS|EPERM|ENOENT|not a directory|AccessDeniedException|Permission denied|Read-only file system|Failed to create|could not create|not writable|NoSuchFileException|FileSystemException|Cannot create|No FileSystem for scheme|UnsupportedFileSystemSchemeException|Could not find a file system implementation/i,
    words: (detail) => `The JobManager could not write the savepoint to the target directory (${detail}). Check that the folder exists (or can be created) and that Flink may write there.`,
  },
  {
    test: /No savepoint directory|savepoint directory.*not (set|configured)|Property \[target-directory\] must be provided|state\.savepoints\.dir.*not set/i,
    words: () => 'No target directory: the cluster has no default savepoint folder (execution.checkpointing.savepoint-dir / state.savepoints.dir). Give one.',
  },
  {
    test: /Checkpoint was declined|CHECKPOINT_DECLINED/i,
    words: (detail) => `A task declined the savepoint (${detail}). Try again once every task runs.`,
  },
  {
    test: /stop-with-savepoint.*(already|in progress)|savepoint .* in progress|Another savepoint|TOO_MANY_CHECKPOINT_REQUESTS|Too many ongoing/i,
    words: () => 'Another savepoint or stop of this job is already in progress. Wait for it to finish.',
  },
  {
    test: /Cannot find checkpoint or savepoint|Cannot find meta data file|FileNotFoundException/i,
    words: (detail) => `The savepoint to restore from does not exist or has no _metadata (${detail}). Check the path.`,
  },
  {
    test: /allowNonRestoredState|Failed to rollback to checkpoint\/savepoint|cannot be mapped to the new program/i,
    words: (detail) =>
      `The savepoint holds state of operators the job no longer has (${detail}). Restore with "allow non-restored state" only if dropping that state is intended.`,
  },
  {
    test: /max(imum)? parallelism|maxParallelism/i,
    words: (detail) => `The parallelism does not fit the job's max parallelism (${detail}).`,
  },
  {
    test: /NoResourceAvailableException|Could not acquire the minimum required resources|not enough (free )?slots|Slot request bulk is not fulfillable/i,
    words: () => 'The cluster has not enough free slots for this parallelism. Add TaskManagers, free slots, or ask for less.',
  },
  {
    test: /ClassNotFoundException|Could not find class|entry point|main class/i,
    words: (detail) => `The jar's entry class could not be found or run (${detail}). Check the jar and the entry class.`,
  },
];

/** A stack trace (or Flink's error text) → words and the innermost message. */
export function describeFailure(stackTrace: string | null | undefined, fallback = 'The cluster reported a failure without details.'): FailureInWords {
  const text = (stackTrace ?? '').trim();
  if (text === '') return { words: fallback, detail: '' };
  const chain = causeChain(text);
  const detail = messageOf(chain.at(-1) ?? text).slice(0, 500);
  const haystack = chain.join('\n');
  const rule = RULES.find((r) => r.test.test(haystack));
  return { words: rule ? rule.words(detail) : `${detail}.`.replace(/\.\.$/, '.'), detail };
}
