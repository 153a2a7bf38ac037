import { describe, expect, it } from 'vitest';
import { parseFlinkDuration } from './duration.ts';

describe('parseFlinkDuration', () => {
  it.each([
    ['10000', 10_000],
    ['10 s', 10_000],
    ['10s', 10_000],
    ['500 ms', 500],
    ['1 min', 60_000],
    ['2 minutes', 120_000],
    ['1 h', 3_600_000],
  ])('reads %s as %i ms', (text, ms) => expect(parseFlinkDuration(text)).toBe(ms));

  it.each(['', 'soon', '10 parsecs', '-5 s'])('refuses %j', (text) => expect(parseFlinkDuration(text)).toBeNull());
});
