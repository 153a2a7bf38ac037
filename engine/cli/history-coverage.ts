import { formatSpan } from '../analysis/root-cause.ts';
import type { HistoryStore } from '../history/history-store.ts';

/** What the app's history has of a job: its samples' span, from the store's summary of the job. */
export interface RecordedSpan {
  clusterId: string;
  firstSampleAt: number;
  lastSampleAt: number;
}

/**
 * The part of an asked window (the last `windowMs`) that the app's history has of a job, and how to read it:
 * - `watched`: the app still samples the job and has the whole window: the window ends at the newest sample, as the
 *   app's own diagnosis reads it;
 * - `ended`: the job has ended: the window ends at its last sample (nothing is left to sample);
 * - `part`: the app no longer watches the job, or started watching it inside the window: the window ends now and the
 *   history has `from`–`to` of it. Sampling the whole window anew would cost the cluster a sample per interval (a
 *   24 h window, 8,641) and the operator the whole window's wait, for figures the history already has.
 */
export interface HistoryCoverage {
  kind: 'watched' | 'ended' | 'part';
  clusterId: string;
  /** Where the window read ends (a sample's time, or now). */
  endAt: number;
  /** The span the history has inside the window: its first and last samples there. */
  from: number;
  to: number;
  /** Whether the app still samples the job (its newest sample is recent). */
  watching: boolean;
  /** Whether the history has the whole window. */
  whole: boolean;
}

/**
 * Where the window would be read from the history, or undefined when the history has no sample inside it: then
 * the caller samples the job now. Pure: `now` and the cluster's metrics fetch interval come from the caller.
 */
export function historyCoverage(recorded: RecordedSpan | undefined, windowMs: number, intervalMs: number, now: number, ended: boolean): HistoryCoverage | undefined {
  if (!recorded) return undefined;
  const { clusterId, firstSampleAt, lastSampleAt } = recorded;
  // The app samples a watched job at the fetch interval: an older newest sample means it no longer watches it.
  const watching = !ended && now - lastSampleAt <= Math.max(3 * intervalMs, 60_000);
  // A window counts as whole when the history misses no more than a sample interval of it.
  const slack = Math.max(intervalMs, 10_000);
  const spansWindow = lastSampleAt - firstSampleAt >= windowMs - slack;
  if (ended || (watching && spansWindow)) {
    return { kind: ended ? 'ended' : 'watched', clusterId, endAt: lastSampleAt, from: Math.max(firstSampleAt, lastSampleAt - windowMs), to: lastSampleAt, watching, whole: spansWindow };
  }
  const from = Math.max(firstSampleAt, now - windowMs);
  const to = Math.min(lastSampleAt, now);
  if (to < from) return undefined;
  return { kind: 'part', clusterId, endAt: now, from, to, watching, whole: false };
}

/**
 * The coverage of the job's window by the app's history, when it has at least two samples inside it (one sample
 * gives no rates: then a running job is sampled now, as with no history); of an ended job, any sample will do.
 */
export function coverageInStore(store: HistoryStore, jobId: string, windowMs: number, intervalMs: number, now: number, ended: boolean): HistoryCoverage | undefined {
  // The newest record of the job, whichever cluster entry of the app sampled it.
  const recorded = store.samples.jobs().find((j) => j.jobId === jobId);
  const coverage = historyCoverage(recorded, windowMs, intervalMs, now, ended);
  if (!coverage) return undefined;
  const heads = store.samples.heads(coverage.clusterId, jobId, coverage.endAt - windowMs, coverage.endAt);
  if (heads.length < (ended ? 1 : 2)) return undefined;
  return { ...coverage, from: heads[0].t, to: heads[heads.length - 1].t };
}

/** One line for the terminal on which part of the window came from the history, when it is not simply all of it. */
export function coverageLine(c: HistoryCoverage, windowMs: number, now: number): string | undefined {
  if (c.whole) return undefined;
  const part = `${formatSpan(c.to - c.from)} of the ${formatSpan(windowMs)} asked (${isoSeconds(c.from)} to ${isoSeconds(c.to)})`;
  if (c.kind === 'ended') return `From the console's history: ${part}, up to the job's end; it has no more of the job.\n`;
  if (c.watching) return `From the console's history: ${part}, since the app started watching the job; the time before is not sampled.\n`;
  return `From the console's history: ${part}; the app stopped watching the job ${formatSpan(now - c.to)} ago, and the rest of the window is not sampled again.\n`;
}

function isoSeconds(t: number): string {
  return new Date(Math.round(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
