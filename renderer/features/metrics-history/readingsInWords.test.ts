import { describe, expect, it } from 'vitest';
import { readingsInWords } from './readingsInWords';

describe('readingsInWords', () => {
  it('says a big job is read in turns, how many a sample and how recently the least recent vertex', () => {
    expect(readingsInWords({ vertices: 200, read: 180, mostPerSample: 25, oldestReadingAgeMs: 75_000 })).toBe(
      'Per-subtask figures read in turns, at most 25 of the 200 vertices a sample: 180 of them read in this window, the least recent 1m 15s before the window\'s end.',
    );
  });

  it('says every vertex was read, or that none was yet', () => {
    expect(readingsInWords({ vertices: 3, read: 3, mostPerSample: 3, oldestReadingAgeMs: 15_000 })).toMatch(/^Per-subtask figures: all 3 vertices read in this window, the least recent 15s/);
    expect(readingsInWords({ vertices: 3, read: 0, mostPerSample: 0, oldestReadingAgeMs: null })).toMatch(/^No per-subtask figures in this window yet/);
  });
});
