import type { StateTrend } from '../contracts/state.ts';

/** A size at a time (epoch ms, bytes). */
export interface SizePoint {
  t: number;
  bytes: number;
}

const HOUR_MS = 3_600_000;

/** Below this change over the window, relative to the size, a series is flat (a plateau). */
export const FLAT_RELATIVE_CHANGE = 0.03;
/** A series whose second half grows at less than this share of its first half's pace is reaching a plateau. */
export const PLATEAU_SLOWDOWN = 0.3;
/** Fewer points than this and a trend is not known. */
export const MIN_TREND_POINTS = 3;

/** Pure: the least-squares slope of a series, in bytes per hour; null for fewer than 2 points or no time between them. */
export function slopePerHour(points: readonly SizePoint[]): number | null {
  const n = points.length;
  if (n < 2) return null;
  let st = 0;
  let sy = 0;
  for (const p of points) {
    st += p.t;
    sy += p.bytes;
  }
  const mt = st / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.bytes - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? null : (num / den) * HOUR_MS;
}

/**
 * Pure: a series cut where its figures stop being comparable (a restore starts the state over from a checkpoint; a
 * rescale moves key groups between subtasks): the stretches in time order, each with at least one point.
 */
export function splitAt(points: readonly SizePoint[], breaks: readonly number[]): SizePoint[][] {
  const cuts = [...breaks].sort((a, b) => a - b);
  const out: SizePoint[][] = [];
  let current: SizePoint[] = [];
  let next = 0;
  for (const p of points) {
    let cut = false;
    while (next < cuts.length && cuts[next] <= p.t) {
      next++;
      cut = true;
    }
    if (cut && current.length > 0) {
      out.push(current);
      current = [];
    }
    current.push(p);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Pure: growth over the whole history, in bytes per hour: each stretch's slope weighted by its length, so a restore
 * that shrank the state (an older checkpoint) is not read as the state shrinking, nor a rescale as growth.
 */
export function historySlopePerHour(stretches: readonly SizePoint[][]): number | null {
  let weighted = 0;
  let span = 0;
  for (const s of stretches) {
    const slope = slopePerHour(s);
    if (slope === null) continue;
    const length = s[s.length - 1].t - s[0].t;
    weighted += slope * length;
    span += length;
  }
  return span > 0 ? weighted / span : null;
}

/**
 * Pure: how a series moves. Flat when it changes by less than 3% of its size over its span; shrinking below −3%;
 * plateauing when its second half grows at less than 30% of its first half's pace (a bounded key space filling up, or
 * a TTL starting to expire keys); growing otherwise. Unknown with fewer than 3 points.
 */
export function trendOf(points: readonly SizePoint[]): StateTrend {
  if (points.length < MIN_TREND_POINTS) return 'unknown';
  const slope = slopePerHour(points);
  if (slope === null) return 'unknown';
  const span = points[points.length - 1].t - points[0].t;
  const size = Math.max(...points.map((p) => p.bytes), 1);
  const change = (slope * span) / HOUR_MS / size;
  if (change <= -FLAT_RELATIVE_CHANGE) return 'shrinking';
  if (change < FLAT_RELATIVE_CHANGE) return 'flat';
  if (points.length >= 4) {
    const middle = points[0].t + span / 2;
    const early = slopePerHour(points.filter((p) => p.t <= middle));
    const late = slopePerHour(points.filter((p) => p.t >= middle));
    if (early !== null && late !== null && early > 0 && late < PLATEAU_SLOWDOWN * early) return 'plateauing';
  }
  return 'growing';
}
