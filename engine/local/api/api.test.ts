import { describe, expect, it } from 'vitest';
import { MIN_WATERMARK } from './operator.ts';
import { forBoundedOutOfOrderness, SplitWatermarkMultiplexer, StatusWatermarkValve } from './watermarks.ts';
import { SlidingEventTimeWindows, TumblingEventTimeWindows, windowStartWithOffset } from './windows.ts';

describe('watermark generation at the source (one split)', () => {
  function generator(idleTimeoutMs?: number) {
    const out: string[] = [];
    const gen = new SplitWatermarkMultiplexer(forBoundedOutOfOrderness(2000, idleTimeoutMs), {
      emitWatermark: (wm) => out.push(`wm ${wm}`),
      markIdle: () => out.push('idle'),
      markActive: () => out.push('active'),
    });
    return { gen, out };
  }

  it('emits max timestamp − out-of-orderness − 1 periodically, only when it rises', () => {
    const { gen, out } = generator();
    gen.onPeriodicEmit(0); // nothing seen yet: no watermark
    gen.onEvent(10_000);
    gen.onEvent(9_000);
    gen.onPeriodicEmit(200);
    gen.onPeriodicEmit(400); // unchanged: not emitted again
    gen.onEvent(12_000);
    gen.onPeriodicEmit(600);
    expect(out).toEqual(['wm 7999', 'wm 9999']);
  });

  it('marks the source idle after the idle timeout without records, active again on the next record', () => {
    const { gen, out } = generator(1000);
    gen.onEvent(5_000);
    gen.onPeriodicEmit(0);
    for (let t = 200; t <= 1400; t += 200) gen.onPeriodicEmit(t);
    expect(out).toEqual(['wm 2999', 'idle']);
    gen.onEvent(6_000);
    gen.onPeriodicEmit(1600);
    expect(out).toEqual(['wm 2999', 'idle', 'active', 'wm 3999']);
  });
});

describe('StatusWatermarkValve', () => {
  function valve(n: number) {
    const out: string[] = [];
    const v = new StatusWatermarkValve(n, (wm) => out.push(`wm ${wm}`), (idle) => out.push(idle ? 'idle' : 'active'));
    return { v, out };
  }

  it('forwards the minimum over the channels, when it rises', () => {
    const { v, out } = valve(2);
    v.inputWatermark(100, 0);
    expect(out).toEqual([]);
    v.inputWatermark(50, 1);
    v.inputWatermark(80, 1);
    v.inputWatermark(200, 1);
    expect(out).toEqual(['wm 50', 'wm 80', 'wm 100']);
  });

  it('ignores idle channels, and goes idle when all are', () => {
    const { v, out } = valve(2);
    v.inputWatermark(100, 0);
    v.inputWatermarkStatus(true, 1);
    expect(out).toEqual(['wm 100']);
    v.inputWatermarkStatus(true, 0);
    expect(out).toEqual(['wm 100', 'idle']);
    v.inputWatermarkStatus(false, 1);
    expect(out).toEqual(['wm 100', 'idle', 'active']);
    expect(v.currentWatermark).toBe(100);
  });

  it('starts at Long.MIN_VALUE', () => {
    expect(valve(1).v.currentWatermark).toBe(MIN_WATERMARK);
  });
});

describe('window assignment', () => {
  it("computes window starts as Flink's TimeWindow.getWindowStartWithOffset, negative timestamps included", () => {
    expect(windowStartWithOffset(125_000, 0, 60_000)).toBe(120_000);
    expect(windowStartWithOffset(120_000, 0, 60_000)).toBe(120_000);
    expect(windowStartWithOffset(-1, 0, 60_000)).toBe(-60_000);
    expect(windowStartWithOffset(125_000, 15_000, 60_000)).toBe(75_000);
  });

  it('tumbling: one window; sliding: size/slide windows; no timestamp: a clear error', () => {
    const out: number[] = [];
    expect(TumblingEventTimeWindows.of(60_000).assignWindows(61_000, out)).toBe(1);
    expect(out[0]).toBe(60_000);
    const n = SlidingEventTimeWindows.of(60_000, 20_000).assignWindows(61_000, out);
    expect(out.slice(0, n)).toEqual([60_000, 40_000, 20_000]);
    expect(() => TumblingEventTimeWindows.of(1000).assignWindows(Number.NEGATIVE_INFINITY, out)).toThrow(/Long.MIN_VALUE timestamp/);
    expect(() => TumblingEventTimeWindows.of(1000, 1000)).toThrow(/abs\(offset\) < size/);
  });
});

describe('per-split watermarks of a source subtask (FLIP-27)', () => {
  function multiplexer(splits: number[], idleTimeoutMs?: number) {
    const out: string[] = [];
    const mux = new SplitWatermarkMultiplexer(
      forBoundedOutOfOrderness(2000, idleTimeoutMs),
      { emitWatermark: (wm) => out.push(`wm ${wm}`), markIdle: () => out.push('idle'), markActive: () => out.push('active') },
      splits,
    );
    return { mux, out };
  }

  it('emits the minimum over its splits; a split without records holds it back until it is released', () => {
    const { mux, out } = multiplexer([0, 1]);
    mux.onEvent(10_000, 0);
    mux.onPeriodicEmit(200);
    expect(out).toEqual([]); // split 1 has no records: Long.MIN_VALUE
    mux.onEvent(6_000, 1);
    mux.onPeriodicEmit(400);
    mux.onEvent(20_000, 1);
    mux.onPeriodicEmit(600);
    expect(out).toEqual(['wm 3999', 'wm 7999']);
    mux.removeSplit(0); // split 0 is read to its end
    mux.onPeriodicEmit(800);
    expect(out).toEqual(['wm 3999', 'wm 7999', 'wm 17999']);
  });

  it('a split that is idle no longer holds the others back; a subtask without splits is idle', () => {
    const { mux, out } = multiplexer([0, 1], 1000);
    mux.onEvent(5_000, 0);
    mux.onEvent(9_000, 1);
    for (let t = 0; t <= 1600; t += 200) {
      mux.onEvent(9_000 + t, 1);
      mux.onPeriodicEmit(t);
    }
    expect(out[0]).toBe('wm 2999');
    expect(out.at(-1)).toBe('wm 8599'); // split 0 idle after 1 s: split 1 alone
    const none = multiplexer([]);
    none.mux.onPeriodicEmit(0);
    expect(none.out).toEqual(['idle']);
  });

  it('the idleness clock pauses while the subtask is back-pressured (FLIP-471)', () => {
    const { mux, out } = multiplexer([0], 1000);
    mux.onEvent(5_000, 0);
    mux.onPeriodicEmit(0);
    for (let t = 200; t <= 3000; t += 200) mux.onPeriodicEmit(t, true);
    expect(out).toEqual(['wm 2999']);
    for (let t = 3200; t <= 4600; t += 200) mux.onPeriodicEmit(t, false);
    expect(out).toEqual(['wm 2999', 'idle']);
  });
});
