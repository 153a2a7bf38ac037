/**
 * Pure: a failed checkpoint's `failure_message` (Flink's `CheckpointFailureReason` messages, possibly wrapped in the
 * exception that carried them) in words an operator can act on: what happened, and whether it needs them.
 */
const EXPLANATIONS: Array<[needle: string, words: string]> = [
  ['expired before completing', 'It did not finish within the checkpoint timeout: some subtasks acknowledged too late. Backpressure or skew delaying the barriers, or slow checkpoint storage, are the usual causes; see the slowest subtasks of the last completed checkpoints.'],
  ['coordinator is suspending', 'The job was restarting (a failover or a rescale) while the checkpoint ran, so it was abandoned. Nothing is wrong with checkpointing itself; the job\'s exceptions say why it restarted.'],
  ['coordinatorshutdown', 'The job was stopping or cancelled while the checkpoint ran, so it was abandoned.'],
  ['checkpointcoordinator shutdown', 'The job was stopping or cancelled while the checkpoint ran, so it was abandoned.'],
  ['failoverregion is restarting', 'Part of the job (a failover region) restarted while the checkpoint ran, so it was abandoned; the job\'s exceptions say why.'],
  ['the job has failed', 'The job failed while the checkpoint ran; the job\'s exceptions say why.'],
  ['task has failed', 'A task failed while the checkpoint ran; the job\'s exceptions say why.'],
  ['asynchronous task checkpoint failed', 'A subtask could not write its state (the asynchronous part of the snapshot failed): check the checkpoint storage (space, permissions, reachability) and the TaskManager logs.'],
  ['task local checkpoint failure', 'A subtask failed to take its snapshot: the TaskManager logs of that subtask say why.'],
  ['declined (tasks not ready)', 'Some tasks were not running yet (still deploying or restoring), so they declined; it usually passes once the job is fully running.'],
  ['declined (task is closing)', 'A task was closing (the job finishing or stopping) and declined the checkpoint.'],
  ['barrier from newer checkpoint', 'A newer checkpoint overtook it (its barrier arrived first), so it was cancelled; harmless on its own.'],
  ['cancellation from one of its inputs', 'An upstream task cancelled it, usually because that task declined or failed its own snapshot.'],
  ['one input stream is finished', 'An input of a task had already ended (a bounded source finished), so the task declined.'],
  ['was declined', 'A task declined the checkpoint: the TaskManager logs say why.'],
  ['has been subsumed', 'A newer checkpoint completed first and subsumed it; harmless on its own.'],
  ['not all required tasks are currently running', 'Not every task was running when it was triggered (the job was deploying, restoring or restarting).'],
  ['io-problem detected', 'Triggering it failed on an I/O error: check the checkpoint storage.'],
  ['failure to finalize checkpoint', 'Writing the checkpoint\'s metadata failed after every subtask acknowledged: check the checkpoint storage (space, permissions, reachability).'],
  ['trigger checkpoint failure', 'Triggering it failed on the JobManager; the JobManager log says why.'],
  ['queued checkpoint requests exceeded', 'Too many checkpoints and savepoints were requested at once; some were refused.'],
  ['channelstate file', 'Another subtask sharing its in-flight data file (unaligned checkpoints) failed, so this one was aborted too.'],
  ['channel state', 'Writing in-flight data (unaligned checkpoints) failed.'],
];

export function explainCheckpointFailure(message: string | null): string | null {
  if (!message) return null;
  const text = message.toLowerCase();
  for (const [needle, words] of EXPLANATIONS) if (text.includes(needle)) return words;
  return null;
}

/** What the classification needs of a checkpoint: the history's records and Flink's bodies (mapped) both fit. */
export interface CheckpointMoment {
  id: number;
  status: string;
  isSavepoint: boolean;
  /** CHECKPOINT, SAVEPOINT, SYNC_SAVEPOINT (stop-with-savepoint), ... */
  checkpointType: string;
  triggerTimestamp: number;
  endToEndDurationMs: number | null;
  failureTimestamp: number | null;
  failureMessage: string | null;
}

/** The clocks of one JobManager, but Flink stamps the abort a few ms before the stop's trigger: allow this much. */
const NEAR_MS = 2_000;

/**
 * Messages a stop-with-savepoint causes. Stopping suspends periodic checkpointing first: Flink aborts every
 * checkpoint in flight with "Checkpoint Coordinator is suspending." (seen on a real 2.2.1, 28 ms before the stop's
 * savepoint was triggered); tasks that are finishing decline; a savepoint barrier overtakes an aligning checkpoint.
 */
const STOP_CAUSED = ['coordinator is suspending', 'task is closing', 'tasks not ready', 'barrier from newer checkpoint', 'has been subsumed', 'one input stream is finished', 'not all required tasks are currently running'];
/** A savepoint's barrier overtaking an aligning checkpoint cancels it. */
const SAVEPOINT_CAUSED = ['barrier from newer checkpoint', 'has been subsumed'];

/**
 * Pure: the savepoint (a stop's or a plain one) that made `failed` fail, among `others` (the job's checkpoints
 * around it): a newer savepoint in flight when it failed, whose kind explains the failure message. null otherwise.
 */
export function savepointBehindFailure(failed: CheckpointMoment, others: readonly CheckpointMoment[]): { savepoint: CheckpointMoment; stop: boolean } | null {
  if (failed.status !== 'FAILED' || failed.failureTimestamp === null || !failed.failureMessage) return null;
  const at = failed.failureTimestamp;
  const text = failed.failureMessage.toLowerCase();
  const inFlightAt = (s: CheckpointMoment) => {
    const end = s.status === 'IN_PROGRESS' || s.endToEndDurationMs === null ? Infinity : s.triggerTimestamp + s.endToEndDurationMs;
    return s.triggerTimestamp - NEAR_MS <= at && at <= end + NEAR_MS;
  };
  const candidates = others.filter((s) => s.isSavepoint && s.id > failed.id && inFlightAt(s)).sort((a, b) => a.id - b.id);
  for (const savepoint of candidates) {
    const stop = savepoint.checkpointType === 'SYNC_SAVEPOINT';
    if ((stop ? STOP_CAUSED : SAVEPOINT_CAUSED).some((needle) => text.includes(needle))) return { savepoint, stop };
  }
  return null;
}

/** Pure: a failed checkpoint in words, knowing its neighbours: one a stop or a savepoint cancelled is said to be so. */
export function explainFailedCheckpoint(failed: CheckpointMoment, others: readonly CheckpointMoment[]): string | null {
  const cause = savepointBehindFailure(failed, others);
  if (!cause) return explainCheckpointFailure(failed.failureMessage);
  return cause.stop
    ? `Abandoned by the stop-with-savepoint (savepoint ${cause.savepoint.id}): stopping a job suspends periodic checkpointing, so Flink cancels the checkpoint in flight and marks it FAILED. Expected; nothing is wrong with checkpointing.`
    : `Overtaken by savepoint ${cause.savepoint.id}: its barrier reached a task first, so Flink cancelled this checkpoint. Expected while a savepoint runs; harmless.`;
}
