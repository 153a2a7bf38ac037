import { describe, expect, it } from 'vitest';
import { readingsIn } from './metrics-history.ts';

const head = (t: number, read: string[], all: string[]) => ({
  t,
  vertices: all.map((id) => ({ id, name: id, parallelism: 4096, maxParallelism: 4096, status: 'RUNNING', coverage: read.includes(id) ? ('subtasks' as const) : ('aggregates' as const) })),
});

describe('readingsIn: what a window\'s samples read per subtask', () => {
  it('a job read in turns: how many vertices a sample, how many were read, how recently the least recent', () => {
    const all = ['a', 'b', 'c', 'd'];
    const heads = [head(0, ['a', 'b'], all), head(10_000, ['c'], all), head(20_000, [], all), head(30_000, ['a'], all)];
    expect(readingsIn(heads, 30_000)).toEqual({ vertices: 4, read: 3, mostPerSample: 2, oldestReadingAgeMs: 30_000 });
  });

  it('an empty window reads nothing', () => {
    expect(readingsIn([], 0)).toEqual({ vertices: 0, read: 0, mostPerSample: 0, oldestReadingAgeMs: null });
  });
});
