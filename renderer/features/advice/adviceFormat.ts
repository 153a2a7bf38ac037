import { DASH } from '../../components/format';

/**
 * How the Advice panel writes the service's figures: formatting only, never a figure of its own (the panel must show
 * exactly what `flink-ops advise --json` says).
 */

/** max/mean as `23.40×`. */
export function formatRatio(ratio: number | null | undefined): string {
  return ratio == null || !Number.isFinite(ratio) ? DASH : `${ratio.toFixed(2)}×`;
}

/** Busy time as `1,000 ms/s`. */
export function formatBusy(msPerSecond: number | null | undefined): string {
  return msPerSecond == null || !Number.isFinite(msPerSecond) ? DASH : `${Math.round(msPerSecond).toLocaleString('en-US')} ms/s`;
}

/** Records/s as `400 records/s`, `12.5 records/s`. */
export function formatRecords(perSecond: number | null | undefined): string {
  if (perSecond == null || !Number.isFinite(perSecond)) return DASH;
  return `${perSecond >= 100 ? Math.round(perSecond).toLocaleString('en-US') : Number(perSecond.toFixed(1))} records/s`;
}

/** "8 salted keys over 32 subtasks: 7 distinct subtasks (about 7.1 expected at random)". */
export function spreadSentence(keys: number, parallelism: number, distinct: number | null, expected: number | null): string {
  const reach = distinct === null ? 'how many distinct subtasks is not known' : `${distinct} distinct subtask${distinct === 1 ? '' : 's'}`;
  const random = expected === null ? '' : ` (about ${Number(expected.toFixed(1))} expected at random)`;
  return `${keys} salted key${keys === 1 ? '' : 's'} over ${parallelism} subtasks: ${reach}${random}.`;
}
