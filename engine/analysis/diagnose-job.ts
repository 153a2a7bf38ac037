import { windowInfo } from './window-info.ts';
import type { CheckpointOutliersAt, JobDiagnosis } from '../contracts/diagnosis.ts';
import type { JobSample } from '../history/job-sample.ts';
import { findRootCause, formatSpan } from './root-cause.ts';
import { diagnoseVertices } from './vertex-diagnosis.ts';
import { jobWindowStats, type JobWindowStats } from './window-stats.ts';

/** Fewer samples than this, or a shorter span, and the figures are rough. */
const FEW_SAMPLES = 6;
const SHORT_SPAN_MS = 60_000;

/**
 * What the caller knows of the window's checkpoints: the outliers of its newest completed checkpoint with details,
 * null when the history holds none, undefined when the caller has no checkpoint history (a live sample).
 */
export type WindowCheckpoints = CheckpointOutliersAt | null | undefined;

/** Pure: the whole diagnosis of a job from the samples of a window, oldest first. */
export function diagnoseSamples(samples: readonly JobSample[], requestedMs: number, checkpoints?: WindowCheckpoints): JobDiagnosis {
  return diagnoseWindow(jobWindowStats(samples), requestedMs, checkpoints);
}

/** Pure: the whole diagnosis from a window's figures (the engine aggregates big jobs vertex by vertex first). */
export function diagnoseWindow(window: JobWindowStats, requestedMs: number, checkpoints?: WindowCheckpoints): JobDiagnosis {
  const vertices = diagnoseVertices(window);
  const { finding, otherFindings } = findRootCause(window, vertices, requestedMs);
  const spanMs = window.samples > 1 ? window.to - window.from : 0;

  const reasons: string[] = [];
  let level: JobDiagnosis['confidence']['level'] = 'high';
  const lower = (to: 'medium' | 'low', why: string) => {
    reasons.push(why);
    if (to === 'low' || level === 'high') level = to;
  };
  if (window.samples < 3) lower('low', `only ${window.samples} sample${window.samples === 1 ? '' : 's'} in the window`);
  else if (window.samples < FEW_SAMPLES || spanMs < SHORT_SPAN_MS) lower('medium', `${window.samples} samples over ${formatSpan(spanMs)}`);
  if (finding.kind === 'unclear-backpressure') lower('low', 'the back-pressure has no visible cause downstream');
  if (window.jobRecovered) lower('medium', 'the JobManager recovered the job inside the window: figures cover the time since');
  for (const v of vertices) {
    if (v.restartedSubtasks.length > 0) {
      lower('medium', `${v.restartedSubtasks.length} subtask${v.restartedSubtasks.length === 1 ? '' : 's'} of ${v.name} restarted inside the window: their figures cover the time since`);
    }
  }

  const notKnown: string[] = [];
  for (const v of vertices) {
    if (v.unavailable) {
      notKnown.push(`${v.name}: no subtask figures (${v.unavailable}).`);
      continue;
    }
    const busy = v.metrics.find((m) => m.metric === 'busyTimeMsPerSecond')!;
    if (busy.counted === 0) notKnown.push(`${v.name}: busy and back-pressured time are not reported (busy-time measurement off, or a Flink older than 1.13).`);
    else if (busy.missing > 0) notKnown.push(`${v.name}: busy time is missing for ${busy.missing} of ${v.parallelism} subtasks.`);
    const broken = v.metrics.filter((m) => m.invalid > 0);
    for (const m of broken) notKnown.push(`${v.name}: ${m.invalid} subtask${m.invalid === 1 ? '' : 's'} reported an impossible ${m.metric} (negative or infinite), left out.`);
  }
  const stateKnown = vertices.some((v) => (v.metrics.find((m) => m.metric === 'checkpointedStateBytes')?.counted ?? 0) > 0);
  if (!stateKnown) notKnown.push('Checkpointed state size per subtask: the history has no per-subtask checkpoint figures for this window.');
  const outliers = checkpoints ? checkpoints.outliers.map((o) => ({ ...o, checkpointId: checkpoints.checkpointId, triggerTimestamp: checkpoints.triggerTimestamp })) : null;
  if (checkpoints === undefined) notKnown.push('Checkpoint outliers: not analysed (sampled live: checkpoint details come with the history of a watched job).');
  else if (checkpoints === null) notKnown.push('Checkpoint outliers: no completed checkpoint with details in the window.');

  return {
    schemaVersion: 1,
    clusterId: window.clusterId,
    jobId: window.jobId,
    jobName: window.jobName,
    jobState: window.jobState,
    window: windowInfo(window, requestedMs),
    finding,
    otherFindings,
    confidence: { level, reasons },
    notKnown,
    vertices,
    checkpointOutliers: outliers,
  };
}
