const UNIT_MS: Record<string, number> = {
  ns: 1e-6, nano: 1e-6, nanos: 1e-6, nanosecond: 1e-6, nanoseconds: 1e-6,
  us: 1e-3, µs: 1e-3, micro: 1e-3, micros: 1e-3, microsecond: 1e-3, microseconds: 1e-3,
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

/**
 * Parses a Duration as Flink's configuration writes it (TimeUtils.parseDuration): `10000`, `10 s`, `10s`, `1 min`.
 * A bare number means milliseconds. Returns null for anything else.
 */
export function parseFlinkDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zµ]*)\s*$/i.exec(text);
  if (!match) return null;
  const unit = match[2].toLowerCase();
  const factor = unit === '' ? 1 : UNIT_MS[unit];
  return factor === undefined ? null : Math.round(Number(match[1]) * factor);
}

/**
 * Parses Java's `Duration.toString()` (ISO-8601, as Flink 2.x prints durations in descriptions): `PT5S`, `PT1.5S`,
 * `PT1M30S`, `PT1H`. Returns ms, or null for anything else.
 */
export function parseJavaDuration(text: string): number | null {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(text.trim());
  if (!match || text.trim() === 'PT') return null;
  const [, h, m, s] = match;
  return Math.round(Number(h ?? 0) * 3_600_000 + Number(m ?? 0) * 60_000 + Number(s ?? 0) * 1000);
}

/** Java's `Duration.toString()` of a non-negative number of ms: `PT5S`, `PT1.5S`, `PT1M30S`, `PT0S`. */
export function formatJavaDuration(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const millis = ms % 60_000;
  const seconds = millis % 1000 === 0 ? String(millis / 1000) : (millis / 1000).toFixed(3).replace(/0+$/, '');
  const parts = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${millis || (!hours && !minutes) ? `${seconds}S` : ''}`;
  return `PT${parts}`;
}
