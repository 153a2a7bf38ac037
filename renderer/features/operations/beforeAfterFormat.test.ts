import { describe, expect, it } from 'vitest';
import { formatChange, formatFigure } from './beforeAfterFormat';

describe('before/after formatting', () => {
  it('writes each figure in its unit, a dash when unknown', () => {
    expect(formatFigure('ratio', 23.456)).toBe('23.46×');
    expect(formatFigure('ms/s', 999.7)).toBe('1000 ms/s');
    expect(formatFigure('records/s', 625)).toBe('625/s');
    expect(formatFigure('ms', 1400)).toBe('1.4 s');
    expect(formatFigure('bytes', 1536)).toBe('1.5 KiB');
    expect(formatFigure('ratio', null)).toBe('—');
  });

  it('writes the change as a signed percentage of before', () => {
    expect(formatChange(0.42)).toBe('\u221258%');
    expect(formatChange(1.64)).toBe('+64%');
    expect(formatChange(1.001)).toBe('±0%');
    expect(formatChange(null)).toBe('—');
  });
});
