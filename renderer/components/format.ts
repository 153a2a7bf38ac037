import { bytesInIecUnits } from '../../engine/contracts/format-bytes';

/** Humanizers: pure, locale-independent where an operator compares numbers across screens. */

export const DASH = '—';

/**
 * A duration as its two most significant units: `3d 4h`, `2h 05m`, `4m 12s`, `12s`, `850ms`.
 * Negative or non-finite input (clock skew, missing data) reads as a dash rather than nonsense.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return DASH;
  if (ms < 1000) return `${Math.floor(ms)}ms`;
  const totalSeconds = Math.floor(ms / 1000);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

const COUNT_UNITS = ['', 'k', 'M', 'G', 'T', 'P'];

/** A count with SI suffix and three significant digits: `999`, `1.23k`, `45.6M`; fractions below 10 keep one decimal. */
export function formatCount(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  const sign = value < 0 ? '-' : '';
  let n = Math.abs(value);
  if (n < 1000) {
    if (Number.isInteger(n)) return `${sign}${n}`;
    return `${sign}${n < 10 ? trim(n.toFixed(1)) : Math.round(n)}`;
  }
  let unit = 0;
  while (n >= 999.5 && unit < COUNT_UNITS.length - 1) {
    n /= 1000;
    unit += 1;
  }
  return `${sign}${threeSignificant(n)}${COUNT_UNITS[unit]}`;
}

/** Records per second: `1.23k/s`, `0/s`, or a dash when the cluster has no metric yet. */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond == null || !Number.isFinite(perSecond)) return DASH;
  return `${formatCount(perSecond)}/s`;
}

/** Bytes in IEC units: `512 B`, `1.5 KiB`, `23.4 MiB`; the engine's sentences say sizes with the same function. */
export function formatBytes(bytes: number | null | undefined): string {
  return bytes == null ? DASH : (bytesInIecUnits(bytes) ?? DASH);
}

/** A share 0..1 as a percentage: `3.5%`, `42%`; a dash when unknown. */
export function formatPercent(share: number | null | undefined): string {
  if (share == null || !Number.isFinite(share) || share < 0) return DASH;
  const percent = share * 100;
  return `${percent < 10 ? trim(percent.toFixed(1)) : Math.round(percent)}%`;
}

/** Milliseconds per second of one subtask or the max of a vertex: `850 ms/s`. */
export function formatMsPerSecond(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  return `${Math.round(value)} ms/s`;
}

/** A short duration in ms or s: `180 ms`, `1.4 s`, `12 s` (a refresh's cost). */
export function formatMillis(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return DASH;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** How long ago something was fetched: `just now`, `12s ago`, `3m ago`, `2h ago`. */
export function formatAgo(thenMs: number | null | undefined, nowMs: number): string {
  if (thenMs == null || !Number.isFinite(thenMs)) return 'never';
  const seconds = Math.max(0, Math.floor((nowMs - thenMs) / 1000));
  if (seconds < 2) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** A local timestamp `2025-11-29 16:08:01`, milliseconds added on request (watermarks). */
export function formatTimestamp(ms: number | null | undefined, withMillis = false): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return DASH;
  const d = new Date(ms);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const base = `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
  return withMillis ? `${base}.${String(d.getMilliseconds()).padStart(3, '0')}` : base;
}

/**
 * A watermark: the local time with milliseconds when it is today (`16:08:01.123`), else the full
 * timestamp; a dash when there is none (no watermark yet, or a source without watermarks).
 */
export function formatWatermark(ms: number | null | undefined, nowMs: number): string {
  if (ms == null || !Number.isFinite(ms) || ms <= 0) return DASH;
  const full = formatTimestamp(ms, true);
  return full.slice(0, 10) === formatTimestamp(nowMs).slice(0, 10) ? full.slice(11) : full;
}

/** A refresh interval in a select: `10 s`, `1 min`, `1 min 30 s`. */
export function formatInterval(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

function threeSignificant(n: number): string {
  if (n >= 100) return String(Math.round(n));
  if (n >= 10) return trim(n.toFixed(1));
  return trim(n.toFixed(2));
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
