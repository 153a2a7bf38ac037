import { describe, expect, it } from 'vitest';
import { dataSkewOf } from './data-skew.ts';

describe('dataSkewOf', () => {
  it("is Flink's DoubleDataSkew: mean absolute deviation / mean, in %, capped at 100", () => {
    expect(dataSkewOf([10, 10, 10])).toBe(0);
    expect(dataSkewOf([20, 10])).toBeCloseTo((5 / 15) * 100, 10);
    expect(dataSkewOf([1000, 0, 0, 0])).toBe(100);
  });

  it('is 0 with no values or a mean of 0', () => {
    expect(dataSkewOf([])).toBe(0);
    expect(dataSkewOf([0, 0])).toBe(0);
  });
});
