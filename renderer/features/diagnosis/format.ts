import type { SkewHeatmap } from '../../../engine/contracts/diagnosis';
import { DASH, formatBytes, formatCount, formatMsPerSecond } from '../../components/format';

/** A per-subtask figure in its unit: `850 ms/s`, `1.23k records/s`, `4.5 MiB/s`, `12 MiB`. */
export function formatMetricValue(value: number | null | undefined, unit: SkewHeatmap['unit']): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  switch (unit) {
    case 'ms/s':
      return formatMsPerSecond(value);
    case 'records/s':
      return `${formatCount(value)} records/s`;
    case 'bytes/s':
      return `${formatBytes(value)}/s`;
    case 'bytes':
      return formatBytes(value);
  }
}

/** A ratio such as max/mean: `23×`, `3.8×`. */
export function formatTimes(ratio: number | null | undefined): string {
  if (ratio == null || !Number.isFinite(ratio)) return DASH;
  return `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
}

/** Flink's data-skew percentage: `100%`, `49.4%`. */
export function formatPercent(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  return `${value >= 99.95 ? 100 : value.toFixed(1)}%`;
}

/** The window choices the page offers. */
export const WINDOWS: Array<{ ms: number; label: string }> = [
  { ms: 60_000, label: '1 min' },
  { ms: 5 * 60_000, label: '5 min' },
  { ms: 15 * 60_000, label: '15 min' },
  { ms: 60 * 60_000, label: '1 h' },
];
