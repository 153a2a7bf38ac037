import type { SubtaskWatermark, VertexWatermarks } from '../contracts/inspect.ts';

/**
 * Pure: a vertex's watermarks against the JobManager's clock. A vertex's event time is its lowest subtask's: that
 * subtask holds windows and timers downstream back. A subtask without a watermark yet holds it at "none".
 */
export function watermarkLag(watermarks: ReadonlyArray<{ index: number; watermark: number | null }>, now: number): VertexWatermarks {
  const subtasks: SubtaskWatermark[] = [...watermarks]
    .sort((a, b) => a.index - b.index)
    .map(({ index, watermark }) => ({ index, watermark, lagMs: watermark === null ? null : now - watermark }));
  const withWatermark = subtasks.filter((s) => s.watermark !== null);
  // Ties go to the lowest index, so the same answer comes back every refresh.
  const low = withWatermark.reduce<SubtaskWatermark | null>((lowest, s) => (lowest === null || s.watermark! < lowest.watermark! ? s : lowest), null);
  const high = withWatermark.reduce((highest, s) => Math.max(highest, s.watermark!), Number.NEGATIVE_INFINITY);
  return {
    subtasks,
    low,
    spreadMs: withWatermark.length >= 2 ? high - low!.watermark! : null,
    withoutWatermark: subtasks.filter((s) => s.watermark === null).map((s) => s.index),
  };
}
