import type { LoadFigures } from '../contracts/rescale.ts';
import type { TwinMatch } from '../contracts/rehearsal.ts';

/**
 * Whether the baseline twin is production: it must put the load on the same hot subtask and show busy max/mean within
 * the tolerance before anything it predicts is worth reading. Pure.
 */

export const TWIN_TOLERANCE_PERCENT = 20;

export interface TwinSide {
  hotSubtask: number;
  busy: LoadFigures;
}

export function matchTwin(observed: TwinSide, twin: TwinSide, tolerancePercent = TWIN_TOLERANCE_PERCENT): TwinMatch {
  const o = observed.busy.maxOverMean;
  const t = twin.busy.maxOverMean;
  const differencePercent = o !== null && t !== null && o > 0 ? (Math.abs(t - o) / o) * 100 : null;
  const reasons: string[] = [];
  if (observed.hotSubtask !== twin.hotSubtask) {
    reasons.push(`The twin's busiest subtask is ${twin.hotSubtask}, production's is ${observed.hotSubtask}: the replayed key mix does not load the same key groups.`);
  }
  if (differencePercent === null) {
    reasons.push('Busy max/mean cannot be compared: one side has no busy time.');
  } else if (differencePercent > tolerancePercent) {
    const more = t! > o!;
    reasons.push(
      `The twin's busy max/mean is ${t!.toFixed(1)}, production's ${o!.toFixed(1)} (${differencePercent.toFixed(0)}% apart, more than ${tolerancePercent}%): ` +
        (more
          ? 'the twin concentrates the load more than production does (its other subtasks cost less per record than the twin charges, or the hot key brings less).'
          : 'production concentrates the load more than the twin (a cost per record the twin does not see: larger records, more state, another job on the TaskManager).'),
    );
  }
  return { matches: reasons.length === 0, hotSubtask: { observed: observed.hotSubtask, twin: twin.hotSubtask }, maxOverMean: { observed: o, twin: t, differencePercent }, tolerancePercent, reasons };
}
