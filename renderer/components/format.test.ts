import { describe, expect, it } from 'vitest';
import {
  DASH,
  formatAgo,
  formatBytes,
  formatCount,
  formatDuration,
  formatInterval,
  formatMillis,
  formatMsPerSecond,
  formatPercent,
  formatRate,
  formatTimestamp,
  formatWatermark,
} from './format';

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [850, '850ms'],
    [12_000, '12s'],
    [4 * 60_000 + 5_000, '4m 05s'],
    [2 * 3_600_000 + 5 * 60_000 + 59_000, '2h 05m'],
    [3 * 86_400_000 + 4 * 3_600_000 + 1, '3d 4h'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('shows a dash for missing, negative or non-finite values', () => {
    expect(formatDuration(null)).toBe(DASH);
    expect(formatDuration(-5)).toBe(DASH);
    expect(formatDuration(Number.NaN)).toBe(DASH);
  });
});

describe('formatCount and formatRate', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [0.25, '0.3'],
    [2.5, '2.5'],
    [42.4, '42'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.23k'],
    [45_600_000, '45.6M'],
    [999_999, '1M'],
    [-1500, '-1.5k'],
  ])('%d reads %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it('adds /s to rates and dashes missing metrics', () => {
    expect(formatRate(1234)).toBe('1.23k/s');
    expect(formatRate(null)).toBe(DASH);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1536, '1.5 KiB'],
    [1024 * 1024 * 23.4, '23.4 MiB'],
    [1024 ** 3 * 512, '512 GiB'],
  ])('%d bytes read %s', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });

  it('dashes missing values', () => {
    expect(formatBytes(undefined)).toBe(DASH);
  });
});

describe('formatMillis', () => {
  it('says a refresh\'s cost in ms under a second, in seconds above', () => {
    expect(formatMillis(183.4)).toBe('183 ms');
    expect(formatMillis(1420)).toBe('1.4 s');
    expect(formatMillis(12_600)).toBe('13 s');
    expect(formatMillis(null)).toBe('—');
  });
});

describe('formatMsPerSecond', () => {
  it('rounds and labels', () => {
    expect(formatMsPerSecond(849.6)).toBe('850 ms/s');
    expect(formatMsPerSecond(null)).toBe(DASH);
  });
});

describe('formatPercent', () => {
  it('shows a share of 0..1 as a percentage, one decimal below 10%', () => {
    expect(formatPercent(0.035159559446484044)).toBe('3.5%');
    expect(formatPercent(0.42)).toBe('42%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(null)).toBe(DASH);
    expect(formatPercent(-1)).toBe(DASH);
  });
});

describe('formatAgo', () => {
  const now = 1_000_000_000;
  it.each([
    [now, 'just now'],
    [now - 1500, 'just now'],
    [now - 12_000, '12s ago'],
    [now - 3 * 60_000, '3m ago'],
    [now - 2 * 3_600_000, '2h ago'],
    [now - 3 * 86_400_000, '3d ago'],
    [now + 5_000, 'just now'],
  ])('%d reads %s', (then, text) => {
    expect(formatAgo(then, now)).toBe(text);
  });

  it('says never without a time', () => {
    expect(formatAgo(null, now)).toBe('never');
  });
});

describe('formatTimestamp', () => {
  it('formats local time, optionally with milliseconds', () => {
    const t = new Date(2025, 10, 29, 6, 7, 8, 9).getTime();
    expect(formatTimestamp(t)).toBe('2025-11-29 06:07:08');
    expect(formatTimestamp(t, true)).toBe('2025-11-29 06:07:08.009');
  });

  it('dashes absent watermarks', () => {
    expect(formatTimestamp(null)).toBe(DASH);
    expect(formatTimestamp(-9_223_372_036_854_776_000)).toBe(DASH);
  });
});

describe('formatInterval', () => {
  it('reads seconds and minutes', () => {
    expect(formatInterval(10_000)).toBe('10 s');
    expect(formatInterval(60_000)).toBe('1 min');
    expect(formatInterval(90_000)).toBe('1 min 30 s');
  });
});

describe('formatWatermark', () => {
  const now = new Date(2025, 10, 29, 12, 0, 0).getTime();
  it('shows only the time for today and the full stamp otherwise', () => {
    expect(formatWatermark(new Date(2025, 10, 29, 6, 7, 8, 9).getTime(), now)).toBe('06:07:08.009');
    expect(formatWatermark(new Date(2025, 10, 28, 6, 7, 8, 9).getTime(), now)).toBe('2025-11-28 06:07:08.009');
  });
  it('dashes a missing watermark', () => {
    expect(formatWatermark(null, now)).toBe(DASH);
  });
});
