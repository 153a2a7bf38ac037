import type { DiagnosisWindow } from '../contracts/diagnosis.ts';
import type { JobWindowStats } from './window-stats.ts';

/** Pure: what a window's figures rest on — asked, covered, how many samples, and where they came from. */
export function windowInfo(window: JobWindowStats, requestedMs: number): DiagnosisWindow {
  const known = window.samples > 0;
  return {
    requestedMs,
    from: known ? window.from : null,
    to: known ? window.to : null,
    samples: window.samples,
    spanMs: window.samples > 1 ? window.to - window.from : 0,
    source: sourceOf(window.samplesFrom),
  };
}

function sourceOf({ jobManager, prometheus }: JobWindowStats['samplesFrom']): DiagnosisWindow['source'] {
  if (prometheus === 0) return jobManager === 0 ? null : 'jobmanager';
  return jobManager === 0 ? 'prometheus' : 'both';
}
