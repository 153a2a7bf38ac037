import type { RangeSeries } from '../prometheus-schemas.ts';
import { COUNTER_METRIC, PER_SECOND_METRIC, seriesName } from '../reporter-series.ts';
import { stepTimes, type StepGrid } from '../to-job-samples.ts';

/** One subtask attempt running at steady rates: what the reporter exports while it runs. */
export interface SteadySubtask {
  jobId: string;
  vertexId: string;
  subtask: number;
  attempt?: number;
  tmId?: string;
  /** Epoch ms the attempt was deployed (its counters start at 0) and, if it ended, when. */
  startAt: number;
  endAt?: number;
  recordsPerSecond: number;
  bytesPerSecond?: number;
  /** ms per second; idle is what busy and back-pressure leave. */
  busy: number;
  backPressured?: number;
  /** Which metric families the reporter exports. @default all */
  without?: Array<'accumulated' | 'perSecond'>;
}

/**
 * Fault-free test data in the shape Prometheus answers a range query of Flink's task series: the reporter scraped
 * every `scrapeMs` from the attempt's start, and each step shows the newest scrape at or before it (within
 * Prometheus' 5-minute lookback, none after the series ended, as staleness markers make it).
 */
export function steadyMatrix(subtasks: SteadySubtask[], grid: StepGrid, scrapeMs: number): RangeSeries[] {
  const out: RangeSeries[] = [];
  for (const s of subtasks) {
    const bp = s.backPressured ?? 0;
    const idle = 1000 - s.busy - bp;
    const perMs = (perSecond: number) => (ms: number) => (perSecond * ms) / 1000;
    const metrics: Array<[string, (ms: number) => number]> = [
      [COUNTER_METRIC.recordsIn, perMs(s.recordsPerSecond)],
      [COUNTER_METRIC.recordsOut, perMs(s.recordsPerSecond)],
      [COUNTER_METRIC.bytesIn, perMs(s.bytesPerSecond ?? s.recordsPerSecond * 100)],
      [COUNTER_METRIC.bytesOut, perMs(s.bytesPerSecond ?? s.recordsPerSecond * 100)],
    ];
    if (!s.without?.includes('accumulated')) {
      metrics.push([COUNTER_METRIC.accumulatedBusyMs, perMs(s.busy)], [COUNTER_METRIC.accumulatedBackPressuredMs, perMs(bp)], [COUNTER_METRIC.accumulatedIdleMs, perMs(idle)]);
    }
    if (!s.without?.includes('perSecond')) {
      metrics.push([PER_SECOND_METRIC.busyTimeMsPerSecond!, () => s.busy], [PER_SECOND_METRIC.backPressuredTimeMsPerSecond!, () => bp], [PER_SECOND_METRIC.idleTimeMsPerSecond!, () => idle]);
    }
    for (const [metric, valueAt] of metrics) {
      const values = stepTimes(grid).flatMap((t) => {
        if (t < s.startAt || (s.endAt !== undefined && t >= s.endAt)) return [];
        const scrapedAt = s.startAt + Math.floor((t - s.startAt) / scrapeMs) * scrapeMs;
        return [{ t, value: Math.round(valueAt(scrapedAt - s.startAt)) }];
      });
      out.push({
        metric: {
          __name__: seriesName(metric),
          job_id: s.jobId,
          task_id: s.vertexId,
          subtask_index: String(s.subtask),
          task_attempt_num: String(s.attempt ?? 0),
          tm_id: s.tmId ?? '127_0_0_1:40000_abc123',
          host: '127_0_0_1',
          job_name: 'steady',
          task_name: 'Map',
          task_attempt_id: 'f'.repeat(32),
          job: 'flink',
          instance: '127.0.0.1:9250',
        },
        values,
      });
    }
  }
  return out;
}
