/** The time windows the metrics tab offers. `live` follows the present; the others stay where they were chosen. */
export const METRIC_WINDOWS = [
  { id: 'live', label: 'Live (5 min)', ms: 5 * 60_000, follows: true },
  { id: '5m', label: '5 min', ms: 5 * 60_000, follows: false },
  { id: '15m', label: '15 min', ms: 15 * 60_000, follows: false },
  { id: '1h', label: '1 h', ms: 60 * 60_000, follows: false },
] as const;

export type MetricWindowId = (typeof METRIC_WINDOWS)[number]['id'];

export function metricWindow(id: string): (typeof METRIC_WINDOWS)[number] {
  return METRIC_WINDOWS.find((w) => w.id === id) ?? METRIC_WINDOWS[0];
}

/** `03:12:40`: a chart's time axis, in local time. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
