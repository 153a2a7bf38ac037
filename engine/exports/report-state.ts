import { analyseState } from '../analysis/state-analysis.ts';
import { STATE_SUSPECT_LABEL, type JobState, type StateSuspect, type StateTrend } from '../contracts/state.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { readStateInput } from '../state/read-state-input.ts';

/**
 * A report's State section: the State view's sentence and per-vertex figures over the report's window, from the
 * checkpoints the history keeps. Per-subtask sizes and the series stay in the app and `flink-ops state --json`: a
 * report says where the state is and how fast it grows, a ticket does not need every point.
 */
export interface ReportState {
  suspect: StateSuspect;
  suspectLabel: string;
  vertexId: string | null;
  sentence: string;
  confidence: JobState['confidence'];
  alsoSeen: string[];
  /** "At +2.1 GiB/h the largest subtask reaches X in N days"; null when nothing grows or no figure allows it. */
  projection: string | null;
  rocksdb: string;
  /** Completed checkpoints the figures come from. */
  checkpoints: number;
  vertices: ReportStateVertex[];
  notKnown: string[];
}

export interface ReportStateVertex {
  vertexId: string;
  name: string;
  parallelism: number;
  totalBytes: number | null;
  trend: StateTrend;
  growthPerHour: number | null;
  historyGrowthPerHour: number | null;
  stateSkewPercent: number | null;
  hotSubtasks: number[];
  bytesPerKey: number | null;
}

/** Pure: the section from a State view; null when no checkpoint of the window reported state (an old job, no checkpointing). */
export function reportStateOf(state: JobState): ReportState | null {
  if (state.window.checkpoints === 0 || state.vertices.length === 0) return null;
  return {
    suspect: state.suspect,
    suspectLabel: STATE_SUSPECT_LABEL[state.suspect],
    vertexId: state.vertexId,
    sentence: state.sentence,
    confidence: state.confidence,
    alsoSeen: state.alsoSeen,
    projection: state.projection?.sentence ?? null,
    rocksdb: state.rocksdb.sentence,
    checkpoints: state.window.checkpoints,
    vertices: state.vertices.map((v) => ({
      vertexId: v.vertexId,
      name: v.name,
      parallelism: v.parallelism,
      totalBytes: v.totalBytes,
      trend: v.trend,
      growthPerHour: round(v.growthPerHour),
      historyGrowthPerHour: round(v.historyGrowthPerHour),
      stateSkewPercent: round(v.stateSkewPercent),
      hotSubtasks: v.hotSubtasks,
      bytesPerKey: round(v.bytesPerKey),
    })),
    notKnown: state.notKnown,
  };
}

/**
 * The section over the report's window `[from, to]` (its first and last samples, never the clock). Only the window's
 * checkpoints and restores are read, "history" growth included: those are what an incident bundle carries, so a report
 * remade from a bundle is the one saved with it, byte for byte. RocksDB's native metrics are live figures a report
 * cannot replay: not asked.
 */
export function readReportState(store: HistoryStore, clusterId: string, jobId: string, windowMs: number, from: number, to: number): ReportState | null {
  const input = readStateInput(store, clusterId, jobId, windowMs, to);
  const inWindow = (t: number) => t >= from && t <= to;
  const vertices = input.vertices.map((v) => ({ ...v, checkpoints: v.checkpoints.filter((c) => inWindow(c.t)) }));
  if (vertices.every((v) => v.checkpoints.length === 0)) return null;
  return reportStateOf(analyseState({ ...input, vertices, restores: input.restores.filter(inWindow), rocksdbStatus: 'unknown', capacity: null, keyCount: null }));
}

/** 3 decimals: stable diffs, no float noise. */
function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1000) / 1000;
}
