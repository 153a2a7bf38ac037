import { describe, expect, it } from 'vitest';
import { javaDoubleToString, javaLongToString } from './java-format.ts';
import { Counter, MeterView, TimerGauge } from './views.ts';

describe("Flink's MeterView (60 s, updated every 5 s)", () => {
  it('ramps up during the first minute (the history starts at 0), then reports the exact rate', () => {
    const counter = new Counter();
    const meter = new MeterView(counter);
    for (let tick = 1; tick <= 12; tick++) {
      counter.inc(500); // 100 events/s over each 5 s interval
      meter.update();
      expect(meter.getRate()).toBeCloseTo((tick * 500) / 60, 10);
    }
    counter.inc(500);
    meter.update();
    expect(meter.getRate()).toBeCloseTo(100, 10);
    for (let tick = 0; tick < 12; tick++) meter.update(); // no events for a minute
    expect(meter.getRate()).toBe(0);
  });
});

describe("Flink's TimerGauge (ms per second over the filled part of 60 s)", () => {
  it('averages over the buckets filled so far, then over the whole window', () => {
    const gauge = new TimerGauge();
    gauge.add(5000, false); // busy the whole first 5 s
    gauge.update();
    expect(gauge.getValue()).toBe(1000);
    gauge.update(); // nothing in the next 5 s
    expect(gauge.getValue()).toBe(500);
    for (let i = 0; i < 10; i++) gauge.update();
    expect(gauge.getValue()).toBe(83); // 5000 ms over 60 s, floored
    gauge.update(); // the busy bucket leaves the window
    expect(gauge.getValue()).toBe(0);
    expect(gauge.getAccumulatedCount()).toBe(5000);
  });

  it('clamps to [0, 1000] and tracks the longest uninterrupted measurement', () => {
    const gauge = new TimerGauge();
    gauge.add(3000, false);
    gauge.add(2000, true);
    gauge.add(1000, false);
    gauge.update();
    expect(gauge.getValue()).toBe(1000);
    expect(gauge.getMaxSingleMeasurement()).toBe(5000);
  });
});

describe('Java number formatting of metric values', () => {
  it('prints doubles like Double.toString', () => {
    expect(javaDoubleToString(1000)).toBe('1000.0');
    expect(javaDoubleToString(0)).toBe('0.0');
    expect(javaDoubleToString(0.5)).toBe('0.5');
    expect(javaDoubleToString(623.25)).toBe('623.25');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(12345678.9)).toBe('1.23456789E7');
    expect(javaDoubleToString(0.00015)).toBe('1.5E-4');
    expect(javaDoubleToString(Number.NaN)).toBe('NaN');
  });

  it('prints longs, with ±∞ as Long.MIN_VALUE / Long.MAX_VALUE (watermarks)', () => {
    expect(javaLongToString(42)).toBe('42');
    expect(javaLongToString(-1)).toBe('-1');
    expect(javaLongToString(Number.NEGATIVE_INFINITY)).toBe('-9223372036854775808');
    expect(javaLongToString(Number.POSITIVE_INFINITY)).toBe('9223372036854775807');
  });
});
