import { formatTimestamp } from '../../components/format';

export interface NotRunningNotice {
  headline: string;
  detail: string;
  /** The exception history says why: link to it. */
  seeExceptions: boolean;
}

const FAILURES = new Set(['FAILED', 'FAILING', 'RESTARTING']);

/**
 * What the job page says, prominently, about a job that is not RUNNING: its state, since when when it ended, and
 * that the graph shows no rates (the engine sends none). Null for a running job.
 */
export function notRunningNotice(state: string, endTime: number | null): NotRunningNotice | null {
  const s = state.toUpperCase();
  if (s === 'RUNNING') return null;
  const at = endTime !== null ? ` at ${formatTimestamp(endTime)}` : '';
  const ended = s === 'FAILED' || s === 'CANCELED' || s === 'CANCELLED' || s === 'FINISHED';
  const headline = ended ? `This job ${s === 'FINISHED' || s === 'FAILED' ? '' : 'was '}${s}${at}.` : `This job is ${s}.`;
  const detail = ended ? 'It processes nothing any more: the graph shows no rates.' : 'It processes nothing now: the graph shows no rates until it runs.';
  return { headline, detail, seeExceptions: FAILURES.has(s) };
}
