/** Flink-style durations and memory sizes in configuration values ("30 s", "100ms", "4kb", "32768"). */

const DURATION_UNITS: Record<string, number> = {
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  min: 60_000, m: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
};

/** A duration in ms from a number (ms) or a string with a unit; throws with the accepted forms. */
export function parseDurationMs(value: number | string, what: string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
  } else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
    if (match) {
      const factor = match[2] === '' ? 1 : DURATION_UNITS[match[2].toLowerCase()];
      if (factor !== undefined) return Number(match[1]) * factor;
    }
  }
  throw new Error(`${what} should be a duration such as 30s, 500 ms or 2 min, got ${JSON.stringify(value)}.`);
}

const SIZE_UNITS: Record<string, number> = {
  b: 1, bytes: 1, k: 1024, kb: 1024, kibibytes: 1024, m: 1 << 20, mb: 1 << 20, mebibytes: 1 << 20, g: 1 << 30, gb: 1 << 30,
};

/** A memory size in bytes (Flink's MemorySize syntax: "4kb", "32 kb", "4096"). */
export function parseMemorySize(value: number | string, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
    if (match) {
      const factor = match[2] === '' ? 1 : SIZE_UNITS[match[2].toLowerCase()];
      if (factor !== undefined) return Number(match[1]) * factor;
    }
  }
  throw new Error(`${what} should be a memory size such as 32kb or 4096, got ${JSON.stringify(value)}.`);
}
