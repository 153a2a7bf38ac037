import type { StatePoint, StateTrend, StateVertexView } from '../../../engine/contracts/state';
import { DASH, formatBytes } from '../../components/format';

/** `+2.1 GiB/h`, `−120 KiB/h`: as the engine's sentences say a growth. */
export function formatGrowth(perHour: number | null | undefined): string {
  if (perHour == null || !Number.isFinite(perHour)) return DASH;
  return `${perHour < 0 ? '−' : '+'}${formatBytes(Math.abs(perHour))}/h`;
}

export const TREND_WORD: Record<StateTrend, string> = {
  growing: 'growing',
  plateauing: 'plateauing',
  flat: 'flat',
  shrinking: 'shrinking',
  unknown: 'not known',
};

/** One row of a vertex's per-subtask chart: a checkpoint, the top subtasks' sizes by key `s<index>`, and the rest summed. */
export interface SubtaskChartRow {
  checkpointId: number;
  t: number;
  rest: number | null;
  [subtask: `s${number}`]: number | null;
}

/**
 * The subtasks drawn as their own lines: the hot ones first, then the largest in the newest checkpoint, at most `top`;
 * every other subtask goes into "the rest" (their sum), so a 128-way vertex stays readable.
 */
export function chartedSubtasks(vertex: StateVertexView, top: number): number[] {
  const bySize = [...vertex.subtasks].sort((a, b) => (b.stateBytes ?? -1) - (a.stateBytes ?? -1)).map((s) => s.index);
  const ordered = [...vertex.hotSubtasks, ...bySize.filter((k) => !vertex.hotSubtasks.includes(k))];
  return ordered.slice(0, Math.min(top, vertex.subtasks.length));
}

export function subtaskChartRows(series: StatePoint[], charted: number[]): SubtaskChartRow[] {
  return series.map((point) => {
    const row: SubtaskChartRow = { checkpointId: point.checkpointId, t: point.t, rest: null };
    const sizes = point.subtaskBytes;
    for (const k of charted) row[`s${k}`] = sizes?.[k] ?? null;
    if (sizes) {
      const others = sizes.filter((_, k) => !charted.includes(k));
      row.rest = others.length === 0 || others.some((v) => v === null) ? null : others.reduce<number>((sum, v) => sum + (v ?? 0), 0);
    }
    return row;
  });
}

/** The order the tab shows vertices in: the one the sentence names, then the most state first (unknown sizes last). */
export function verticesInOrder(vertices: StateVertexView[], named: string | null): StateVertexView[] {
  const size = (v: StateVertexView) => v.totalBytes ?? -1;
  return [...vertices].sort((a, b) => Number(b.vertexId === named) - Number(a.vertexId === named) || size(b) - size(a));
}
