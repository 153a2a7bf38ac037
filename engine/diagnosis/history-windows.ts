import { SKEW_METRICS, type JobDiagnosis, type SkewHeatmap, type SkewMetric } from '../contracts/diagnosis.ts';
import { diagnoseWindow } from '../analysis/diagnose-job.ts';
import { skewHeatmap } from '../analysis/skew-heatmap.ts';
import { assembleJobWindow, type JobWindowStats } from '../analysis/window-stats.ts';
import type { RateColumn } from '../history/job-sample.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { newestCheckpointOutliers } from '../history/views/checkpoint-views.ts';
import { readJobWindow } from './read-window.ts';
import { windowInfo } from '../analysis/window-info.ts';

/** Windows an operator can ask for: 10 s to the 24 h the history keeps by default. */
export const MIN_WINDOW_MS = 10_000;
export const MAX_WINDOW_MS = 24 * 3600_000;

/**
 * The diagnosis and the heatmap of a watched job over "the last N" of its history. A window ends at the job's
 * newest sample, so its figures are computed once per new sample and shared by the sentence, the skew table and
 * the heatmap (and every metric the operator flips through).
 */
interface CachedWindow {
  to: number;
  window: JobWindowStats;
  /** What was computed from it, kept until the next sample: every page polls, the window changes once per sample. */
  results: Map<string, unknown>;
}

export class HistoryWindows {
  private readonly cache = new Map<string, CachedWindow>();

  constructor(
    private readonly store: HistoryStore,
    private readonly cacheSize = 4,
  ) {}

  diagnose(clusterId: string, jobId: string, windowMs: unknown): JobDiagnosis {
    const ms = checkWindow(windowMs);
    const cached = this.window(clusterId, jobId, ms);
    // An empty window knows no ids of its own: say which job it was asked for.
    return memo(cached, 'diagnosis', () => {
      const checkpoints = cached.window.samples > 0 ? newestCheckpointOutliers(this.store, clusterId, jobId, cached.window.from, cached.window.to) : null;
      return { ...diagnoseWindow(cached.window, ms, checkpoints), clusterId, jobId };
    });
  }

  heatmap(clusterId: string, jobId: string, windowMs: unknown, metric: unknown, aggregate: unknown): SkewHeatmap {
    const ms = checkWindow(windowMs);
    if (!(SKEW_METRICS as readonly unknown[]).includes(metric)) {
      throw new EngineError('invalid-input', `Unknown metric "${String(metric)}": use one of ${SKEW_METRICS.join(', ')}.`);
    }
    if (aggregate !== 'mean' && aggregate !== 'max') throw new EngineError('invalid-input', `Aggregate "${String(aggregate)}" is not "mean" or "max".`);
    // Maxima take a pass over every sample: computed for the heatmap that shows them, not for every window.
    const maxima = aggregate === 'max' && metric !== 'checkpointedStateBytes' ? [metric as RateColumn] : [];
    const cached = this.window(clusterId, jobId, ms, maxima);
    return memo(cached, `heatmap/${String(metric)}/${aggregate}`, () => ({
      ...skewHeatmap(cached.window, metric as SkewMetric, aggregate, windowInfo(cached.window, ms)),
      clusterId,
      jobId,
    }));
  }

  private window(clusterId: string, jobId: string, windowMs: number, maxima: RateColumn[] = []): CachedWindow {
    const newest = this.store.samples.job(clusterId, jobId)?.lastSampleAt;
    if (newest === undefined) return { to: Number.NaN, window: assembleJobWindow([], undefined, []), results: new Map() };
    const key = `${clusterId}\u0000${jobId}\u0000${windowMs}\u0000${maxima.join(',')}`;
    const cached = this.cache.get(key);
    if (cached && cached.to === newest) return cached;
    const fresh: CachedWindow = { to: newest, window: readJobWindow(this.store, clusterId, jobId, newest - windowMs, newest, { maxima }), results: new Map() };
    this.cache.delete(key);
    this.cache.set(key, fresh);
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return fresh;
  }
}

function memo<T>(cached: CachedWindow, key: string, compute: () => T): T {
  if (!cached.results.has(key)) cached.results.set(key, compute());
  return cached.results.get(key) as T;
}

/** A window as the diagnosis, the charts and the exports take it, or the operator's mistake in words. */
export function checkWindow(windowMs: unknown): number {
  if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < MIN_WINDOW_MS || windowMs > MAX_WINDOW_MS) {
    throw new EngineError('invalid-input', `The window must be a whole number of ms from ${MIN_WINDOW_MS} (10 s) to ${MAX_WINDOW_MS} (24 h), got ${String(windowMs)}.`);
  }
  return windowMs;
}
