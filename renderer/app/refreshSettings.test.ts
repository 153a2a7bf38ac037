import { describe, expect, it } from 'vitest';
import { FALLBACK_MIN_MS, effectiveInterval, refreshChoices, refreshSettings } from './refreshSettings';

describe('refreshChoices', () => {
  it('starts at the cluster floor and keeps presets above it', () => {
    expect(refreshChoices(10_000)).toEqual([10_000, 15_000, 30_000, 60_000, 120_000]);
    expect(refreshChoices(20_000)).toEqual([20_000, 30_000, 60_000, 120_000]);
    expect(refreshChoices(30_000)).toEqual([30_000, 60_000, 120_000]);
  });

  it('never offers less than the floor', () => {
    for (const floor of [1_000, 10_000, 45_000, 300_000]) {
      expect(Math.min(...refreshChoices(floor))).toBe(floor);
    }
  });

  it('uses the fallback floor while the cluster floor is unknown', () => {
    expect(Math.min(...refreshChoices(null))).toBe(FALLBACK_MIN_MS);
  });
});

describe('effectiveInterval', () => {
  it('raises the preference to the floor', () => {
    expect(effectiveInterval(15_000, 10_000)).toBe(15_000);
    expect(effectiveInterval(5_000, 10_000)).toBe(10_000);
    expect(effectiveInterval(15_000, null)).toBe(FALLBACK_MIN_MS);
  });

  it('treats a broken preference as the default', () => {
    expect(effectiveInterval(Number.NaN, 1_000)).toBe(15_000);
    expect(effectiveInterval(-1, 1_000)).toBe(15_000);
  });
});

describe('refreshSettings store', () => {
  it('remembers floors per cluster and notifies', () => {
    let notified = 0;
    const unsubscribe = refreshSettings.subscribe(() => {
      notified += 1;
    });
    refreshSettings.learnMin('c1', 10_000);
    refreshSettings.learnMin('c1', 10_000);
    expect(refreshSettings.get().minByCluster.c1).toBe(10_000);
    expect(notified).toBe(1);
    unsubscribe();
  });
});
