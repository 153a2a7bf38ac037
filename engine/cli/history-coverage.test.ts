import { describe, expect, it } from 'vitest';
import { coverageLine, historyCoverage } from './history-coverage.ts';

const T = Date.UTC(2026, 10, 30, 3, 5); // the CLI's "now" in these cases
const MIN = 60_000;
const H = 60 * MIN;
const recorded = (firstAgo: number, lastAgo: number) => ({ clusterId: 'c1', firstSampleAt: T - firstAgo, lastSampleAt: T - lastAgo });

describe('historyCoverage', () => {
  it('reads a watched job whose history spans the window up to its newest sample, whole', () => {
    expect(historyCoverage(recorded(2 * H, 5_000), H, 10_000, T, false)).toEqual({ kind: 'watched', clusterId: 'c1', endAt: T - 5_000, from: T - 5_000 - H, to: T - 5_000, watching: true, whole: true });
  });

  it('reads the part a job the app no longer watches has in the window, ending now: 24 h asked, 2 h recorded', () => {
    const c = historyCoverage(recorded(4 * H, 2 * H), 24 * H, 10_000, T, false);
    expect(c).toEqual({ kind: 'part', clusterId: 'c1', endAt: T, from: T - 4 * H, to: T - 2 * H, watching: false, whole: false });
  });

  it('starts the part at the window when the recording began before it', () => {
    expect(historyCoverage(recorded(3 * H, 10 * MIN), H, 10_000, T, false)).toMatchObject({ kind: 'part', from: T - H, to: T - 10 * MIN, watching: false });
  });

  it('reads the part since a watch started inside the window', () => {
    expect(historyCoverage(recorded(3 * MIN, 5_000), H, 10_000, T, false)).toMatchObject({ kind: 'part', endAt: T, from: T - 3 * MIN, to: T - 5_000, watching: true, whole: false });
  });

  it('has nothing when the recording ended before the window, or there is none', () => {
    expect(historyCoverage(recorded(3 * H, 2 * H), H, 10_000, T, false)).toBeUndefined();
    expect(historyCoverage(undefined, H, 10_000, T, false)).toBeUndefined();
  });

  it('reads an ended job up to its last sample, however long ago', () => {
    expect(historyCoverage(recorded(3 * H, 2 * H), H, 10_000, T, true)).toEqual({ kind: 'ended', clusterId: 'c1', endAt: T - 2 * H, from: T - 2 * H - H, to: T - 2 * H, watching: false, whole: true });
    expect(historyCoverage(recorded(2 * H + 5 * MIN, 2 * H), H, 10_000, T, true)).toMatchObject({ kind: 'ended', from: T - 2 * H - 5 * MIN, whole: false });
  });

  it('counts a job as no longer watched after three fetch intervals without a sample, and never under a minute', () => {
    expect(historyCoverage(recorded(2 * H, 55_000), H, 10_000, T, false)?.watching).toBe(true);
    expect(historyCoverage(recorded(2 * H, 65_000), H, 10_000, T, false)?.watching).toBe(false);
    expect(historyCoverage(recorded(2 * H, 85_000), H, 30_000, T, false)?.watching).toBe(true);
  });
});

describe('coverageLine', () => {
  it('says nothing when the history has the whole window', () => {
    expect(coverageLine(historyCoverage(recorded(2 * H, 5_000), H, 10_000, T, false)!, H, T)).toBeUndefined();
  });

  it('says which part of the window the history has, in UTC, and that the rest is not sampled again', () => {
    const c = historyCoverage(recorded(4 * H, 2 * H), 24 * H, 10_000, T, false)!;
    expect(coverageLine(c, 24 * H, T)).toBe(
      "From the console's history: 2 h of the 24 h asked (2026-11-29T23:05:00Z to 2026-11-30T01:05:00Z); the app stopped watching the job 2 h ago, and the rest of the window is not sampled again.\n",
    );
  });

  it('says since when a watch that started inside the window has the job, and of an ended job that it has no more', () => {
    expect(coverageLine(historyCoverage(recorded(3 * MIN, 5_000), H, 10_000, T, false)!, H, T)).toBe(
      "From the console's history: 3 min of the 60 min asked (2026-11-30T03:02:00Z to 2026-11-30T03:04:55Z), since the app started watching the job; the time before is not sampled.\n",
    );
    expect(coverageLine(historyCoverage(recorded(2 * H + 5 * MIN, 2 * H), H, 10_000, T, true)!, H, T)).toMatch(/^From the console's history: 5 min of the 60 min asked \(.*\), up to the job's end; it has no more of the job\.\n$/);
  });
});
