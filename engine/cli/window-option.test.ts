import { describe, expect, it } from 'vitest';
import { parseWindowOption } from './window-option.ts';

const WEEK = { minMs: 10_000, maxMs: 7 * 86_400_000, inWords: 'from 10s to 7d (e.g. 10m, 1h, 2d)' };

describe('parseWindowOption', () => {
  it('reads each unit, and a bare number as ms', () => {
    expect(parseWindowOption('90s', WEEK)).toBe(90_000);
    expect(parseWindowOption('10m', WEEK)).toBe(600_000);
    expect(parseWindowOption('10 min', WEEK)).toBe(600_000);
    expect(parseWindowOption('1.5h', WEEK)).toBe(5_400_000);
    expect(parseWindowOption('2D', WEEK)).toBe(2 * 86_400_000);
    expect(parseWindowOption('90000', WEEK)).toBe(90_000);
  });

  it('refuses what is outside the range or not a duration, naming the range and the input', () => {
    expect(() => parseWindowOption('5s', WEEK)).toThrow('--window must be a duration from 10s to 7d (e.g. 10m, 1h, 2d), got "5s".');
    expect(() => parseWindowOption('8d', WEEK)).toThrow(/got "8d"/);
    expect(() => parseWindowOption('ten minutes', WEEK)).toThrow(/got "ten minutes"/);
    expect(() => parseWindowOption('-1h', WEEK)).toThrow(/got "-1h"/);
  });
});
