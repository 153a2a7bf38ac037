import { describe, expect, it } from 'vitest';
import { formatMetricValue, formatPercent, formatTimes } from './format';

describe('diagnosis formats', () => {
  it('print a figure in its unit, a dash when there is none', () => {
    expect(formatMetricValue(999.6, 'ms/s')).toBe('1000 ms/s');
    expect(formatMetricValue(1234, 'records/s')).toBe('1.23k records/s');
    expect(formatMetricValue(1536, 'bytes/s')).toBe('1.5 KiB/s');
    expect(formatMetricValue(12 * 1024 ** 2, 'bytes')).toBe('12 MiB');
    expect(formatMetricValue(null, 'ms/s')).toBe('—');
  });

  it('print ratios and percentages the way operators read them', () => {
    expect(formatTimes(23.3)).toBe('23×');
    expect(formatTimes(3.84)).toBe('3.8×');
    expect(formatTimes(null)).toBe('—');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(49.365)).toBe('49.4%');
  });
});
