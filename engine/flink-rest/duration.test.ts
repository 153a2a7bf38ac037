import { describe, expect, it } from 'vitest';
import { formatJavaDuration, parseFlinkDuration, parseJavaDuration } from './duration.ts';

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

describe('Java Duration.toString (Flink 2.x descriptions)', () => {
  it.each([
    ['PT5S', 5000],
    ['PT1.5S', 1500],
    ['PT0.25S', 250],
    ['PT1M', 60_000],
    ['PT1M30S', 90_000],
    ['PT1H', 3_600_000],
    ['PT0S', 0],
  ])('%s is %i ms, both ways', (text, ms) => {
    expect(parseJavaDuration(text)).toBe(ms);
    expect(formatJavaDuration(ms)).toBe(text);
  });

  it.each(['', 'PT', '5 s', 'P1D', 'PT-5S'])('refuses %j', (text) => expect(parseJavaDuration(text)).toBeNull());
});
