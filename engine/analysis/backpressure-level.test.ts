import { describe, expect, it } from 'vitest';
import { backpressureLevelOf } from './backpressure-level.ts';

describe('backpressureLevelOf', () => {
  it('uses Flink\'s inclusive thresholds at 10% and 50%', () => {
    expect(backpressureLevelOf(0)).toBe('ok');
    expect(backpressureLevelOf(100)).toBe('ok');
    expect(backpressureLevelOf(101)).toBe('low');
    expect(backpressureLevelOf(500)).toBe('low');
    expect(backpressureLevelOf(501)).toBe('high');
    expect(backpressureLevelOf(1000)).toBe('high');
  });
});
