import { processSeries } from '../../analysis/process-series.ts';
import { PROCESS_SAMPLE_INTERVAL_MS, type ProcessMetricsHistory } from '../../contracts/history.ts';
import type { HistoryStore } from '../history-store.ts';

/** Points per chart: a small chart shows no more. */
const MAX_POINTS = 240;

/** A process's memory and GC over `[from, to]`, from the stored samples, gaps kept as gaps. Plain JSON out. */
export function processMetricsHistory(history: HistoryStore, clusterId: string, processId: string, from: number, to: number, recording: boolean): ProcessMetricsHistory {
  const samples = history.processes.list(clusterId, processId, from, to);
  const { points, latest } = processSeries(samples.map(({ clusterId: _c, processId: _p, ...figures }) => figures), MAX_POINTS);
  return {
    clusterId,
    processId,
    from,
    to,
    cadenceMs: PROCESS_SAMPLE_INTERVAL_MS,
    samples: samples.length,
    points,
    latest,
    recording,
    lastSampleAt: history.processes.latest(clusterId, processId)?.t ?? null,
  };
}
