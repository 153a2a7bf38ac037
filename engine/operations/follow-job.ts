import type { EngineError } from '../flink-rest/errors.ts';
import { isEndedJobState } from '../flink-rest/job-states.ts';
import { isNotFound, isTransient, messageOf, pollDelay, rethrowUnexpected, type DriverContext, type Progress } from './driver-context.ts';

/**
 * Following a job to an outcome: asks the cluster about it (its state, its details, its resource requirements, a
 * trigger of it) with the operation's poll delays until one of the outcomes below. Every request counts as a poll;
 * the cluster's silence is timed by `Progress` (`unreachableGiveUpMs`). The caller says what each outcome means for
 * its operation: an outcome it cannot be sure of is never a success.
 */

export type Followed<T> =
  /** The answer the caller waited for. */
  | { outcome: 'reached'; answer: T }
  /** The job ended in another state (FAILED, CANCELED...): it never changes again. */
  | { outcome: 'ended'; answer: T; state: string }
  /** 404: the JobManager does not know the job (or the trigger) any more. */
  | { outcome: 'gone'; error: EngineError }
  /** The cluster did not answer for `unreachableGiveUpMs` (or answered with an error not worth asking again about). */
  | { outcome: 'unreachable'; error: EngineError; silentForMs: number }
  /** The deadline passed first; `answer` is the last poll's, undefined when that poll went unanswered (or none was made). */
  | { outcome: 'timed-out'; answer: T | undefined };

/**
 * The journal's sentence when a follow lost track of the job after the request took effect: the outcome is unknown,
 * never a success. `after` says what had happened; `gone` how the JobManager's forgetting reads in that sentence.
 */
export function lostTrack(followed: { outcome: 'gone' } | { outcome: 'unreachable'; error: EngineError }, after: string, gone = 'stopped listing the job'): string {
  return `Outcome unknown: ${after}, then the cluster ${followed.outcome === 'gone' ? gone : `stopped answering (${messageOf(followed.error)})`}.`;
}

export interface Following<T> {
  /** One request about the job. */
  read(): Promise<T>;
  /** Is this the answer waited for? */
  reached(answer: T): boolean;
  /** The job's state in an answer: an ended one that is not `reached` ends the follow as `ended`. */
  jobState?(answer: T): string;
  /** A 404 read as this answer (what is asked about is not there yet) instead of ending the follow as `gone`. */
  notFound?(): T;
  /** Clock time from which an answer that is no outcome ends the follow as `timed-out`. */
  deadline: number;
  /** After each answer that is no outcome (journal progress). */
  waiting?(answer: T): Promise<unknown>;
  /** After each poll the cluster did not answer, short of giving up (journal progress). */
  silent?(error: EngineError): Promise<unknown>;
  /** The deadline also ends the follow at a poll the cluster did not answer (else only at an answer). */
  deadlineWhileSilent?: boolean;
  /** Only errors worth asking again about (`isTransient`) are silence: any other ends the follow as `unreachable` at once. */
  onlyTransientIsSilence?: boolean;
  /**
   * `after-delay`: every poll waits its delay first, and the deadline is checked before each wait, whatever the last
   * poll got (a deadline that is the caller's patience rather than the job's). @default 'now'
   */
  firstPoll?: 'now' | 'after-delay';
}

/** A job's state: reached, ended otherwise, gone, unreachable or timed out. */
export function followJob<T>(progress: Progress, ctx: DriverContext, following: Following<T> & { jobState(answer: T): string }): Promise<Followed<T>>;
/** Something that may not be there yet (a 404 is an answer): reached, unreachable or timed out. */
export function followJob<T>(
  progress: Progress,
  ctx: DriverContext,
  following: Following<T> & { notFound(): T; jobState?: never },
): Promise<Exclude<Followed<T>, { outcome: 'ended' | 'gone' }>>;
/** Anything else the cluster holds for the job: reached, gone, unreachable or timed out. */
export function followJob<T>(progress: Progress, ctx: DriverContext, following: Following<T> & { jobState?: never }): Promise<Exclude<Followed<T>, { outcome: 'ended' }>>;
export async function followJob<T>(progress: Progress, ctx: DriverContext, following: Following<T>): Promise<Followed<T>> {
  const afterDelay = following.firstPoll === 'after-delay';
  const deadlinePassed = () => ctx.clock.now() >= following.deadline;
  let last: { answer: T } | undefined;
  for (let attempt = 0; ; attempt++) {
    if (afterDelay) {
      if (deadlinePassed()) return { outcome: 'timed-out', answer: last?.answer };
      await ctx.clock.sleep(pollDelay(attempt, ctx.settings));
    }
    let silence: EngineError | undefined;
    last = undefined;
    try {
      progress.polls++;
      last = { answer: await following.read() };
      progress.reachable();
    } catch (error) {
      rethrowUnexpected(error);
      const failure = error as EngineError;
      if (isNotFound(failure) && following.notFound) {
        last = { answer: following.notFound() };
        progress.reachable();
      } else if (isNotFound(failure)) {
        return { outcome: 'gone', error: failure };
      } else if ((following.onlyTransientIsSilence && !isTransient(failure)) || progress.unreachable()) {
        return { outcome: 'unreachable', error: failure, silentForMs: progress.unreachableForMs() };
      } else {
        silence = failure;
      }
    }
    if (last) {
      if (following.reached(last.answer)) return { outcome: 'reached', answer: last.answer };
      const state = following.jobState?.(last.answer);
      if (state !== undefined && isEndedJobState(state)) return { outcome: 'ended', answer: last.answer, state };
    }
    if (!afterDelay && (last || following.deadlineWhileSilent) && deadlinePassed()) return { outcome: 'timed-out', answer: last?.answer };
    if (last) await following.waiting?.(last.answer);
    else await following.silent?.(silence!);
    if (!afterDelay) await ctx.clock.sleep(pollDelay(attempt, ctx.settings));
  }
}
