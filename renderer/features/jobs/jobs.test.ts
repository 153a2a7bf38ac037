import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../engine/contracts/jobs';
import { filterJobs, liveDuration, sortJobs } from './jobs';

const job = (over: Partial<JobSummary>): JobSummary => ({
  id: 'j',
  name: 'job',
  state: 'RUNNING',
  startTime: 0,
  endTime: null,
  durationMs: 10_000,
  tasks: {},
  ...over,
});

describe('liveDuration', () => {
  it('ticks for a running job from the fetch time', () => {
    expect(liveDuration(job({}), 1_000, 4_000)).toBe(13_000);
  });
  it('stays put for ended jobs and before any fetch', () => {
    expect(liveDuration(job({ state: 'FINISHED', endTime: 5 }), 1_000, 4_000)).toBe(10_000);
    expect(liveDuration(job({ state: 'CANCELED' }), 1_000, 4_000)).toBe(10_000);
    expect(liveDuration(job({}), null, 4_000)).toBe(10_000);
  });
});

describe('sortJobs and filterJobs', () => {
  const jobs = [
    job({ id: 'a', name: 'old-finished', state: 'FINISHED', startTime: 1 }),
    job({ id: 'b', name: 'new-running', state: 'RUNNING', startTime: 3 }),
    job({ id: 'c', name: 'restarting', state: 'RESTARTING', startTime: 2 }),
    job({ id: 'd', name: 'old-running', state: 'RUNNING', startTime: 2 }),
  ];
  it('puts trouble first, then running jobs, newest first', () => {
    expect(sortJobs(jobs).map((j) => j.id)).toEqual(['c', 'b', 'd', 'a']);
  });
  it('filters by name, id or state', () => {
    expect(filterJobs(jobs, 'RUNNING').map((j) => j.id)).toEqual(['b', 'd']);
    expect(filterJobs(jobs, ' old ').map((j) => j.id)).toEqual(['a', 'd']);
    expect(filterJobs(jobs, '')).toHaveLength(4);
  });
});
