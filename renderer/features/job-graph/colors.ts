import type { BackpressureLevel, VertexView } from '../../../engine/contracts/jobs';

/**
 * The vertex colour scheme of the Flink Web UI: idle blue → busy red by the busiest subtask's
 * busy time, with back-pressured time drawn as a black diagonal hatch over that share of the node.
 * Both ends and the middle are dark enough for white text (WCAG contrast ≥ 4.5).
 */
export const IDLE_RGB: Rgb = [33, 102, 172];
export const BUSY_RGB: Rgb = [196, 30, 36];
/** A vertex without metrics (just started, finished, or metrics not fetched yet). */
export const NO_METRICS_COLOR = 'rgb(84, 94, 110)';

export type Rgb = readonly [number, number, number];

/** Clamps a `ms per second` metric to a 0..1 share of time; null when there is no metric. */
export function timeShare(msPerSecond: number | null | undefined): number | null {
  if (msPerSecond == null || !Number.isFinite(msPerSecond)) return null;
  return Math.min(1, Math.max(0, msPerSecond / 1000));
}

/** Linear RGB mix between idle blue (0) and busy red (1). */
export function busyRgb(share: number): Rgb {
  const t = Math.min(1, Math.max(0, share));
  return [0, 1, 2].map((i) => Math.round(IDLE_RGB[i] + (BUSY_RGB[i] - IDLE_RGB[i]) * t)) as unknown as Rgb;
}

export function rgbCss([r, g, b]: Rgb): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** The fill of a vertex from its busiest subtask, or the neutral grey without metrics. */
export function vertexFill(busyMaxMsPerSecond: number | null | undefined): string {
  const share = timeShare(busyMaxMsPerSecond);
  return share == null ? NO_METRICS_COLOR : rgbCss(busyRgb(share));
}

export interface VertexPaint {
  fill: string;
  /** 0..1 of the node covered by the back-pressure hatch (from the left). */
  hatch: number;
  busyShare: number | null;
  backPressuredShare: number | null;
}

export function paintVertex(vertex: Pick<VertexView, 'busyTimeMsPerSecond' | 'backPressuredTimeMsPerSecond'>): VertexPaint {
  const busyShare = timeShare(vertex.busyTimeMsPerSecond?.max);
  const backPressuredShare = timeShare(vertex.backPressuredTimeMsPerSecond?.max);
  return {
    fill: busyShare == null ? NO_METRICS_COLOR : rgbCss(busyRgb(busyShare)),
    hatch: backPressuredShare ?? 0,
    busyShare,
    backPressuredShare,
  };
}

/** Relative luminance contrast ratio of white text on a colour (for the test that keeps text readable). */
export function contrastWithWhite([r, g, b]: Rgb): number {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}

export const BACKPRESSURE_LABEL: Record<BackpressureLevel, string> = {
  ok: 'OK',
  low: 'LOW',
  high: 'HIGH',
};
