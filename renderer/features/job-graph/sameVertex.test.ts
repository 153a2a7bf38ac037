import { describe, expect, it } from 'vitest';
import type { VertexView } from '../../../engine/contracts/jobs';
import { sameVertex } from './sameVertex';

const vertex = (over: Partial<VertexView> = {}): VertexView => ({
  id: 'v',
  name: 'tenant-cost',
  parallelism: 4,
  maxParallelism: 128,
  status: 'RUNNING',
  tasks: { RUNNING: 4 },
  recordsInPerSecond: 1000,
  recordsOutPerSecond: 900,
  busyTimeMsPerSecond: { min: 10, max: 1000, avg: 300, sum: 1200 },
  backPressuredTimeMsPerSecond: { min: 0, max: 0, avg: 0, sum: 0 },
  idleTimeMsPerSecond: null,
  busySkew: 3.3,
  dataSkewPercent: null,
  backpressureLevel: 'ok',
  ...over,
});

describe('sameVertex', () => {
  it('is true for a new response with the same figures', () => {
    expect(sameVertex(vertex(), vertex())).toBe(true);
  });

  it('is false as soon as anything shown changes', () => {
    expect(sameVertex(vertex(), vertex({ busyTimeMsPerSecond: { min: 10, max: 999, avg: 300, sum: 1200 } }))).toBe(false);
    expect(sameVertex(vertex(), vertex({ backPressuredTimeMsPerSecond: null }))).toBe(false);
    expect(sameVertex(vertex(), vertex({ recordsInPerSecond: null }))).toBe(false);
    expect(sameVertex(vertex(), vertex({ status: 'FAILED' }))).toBe(false);
    expect(sameVertex(vertex(), vertex({ metricsUnavailable: 'timeout' }))).toBe(false);
    expect(sameVertex(vertex(), vertex({ metricsFetchedAt: 1 }))).toBe(false);
  });
});
