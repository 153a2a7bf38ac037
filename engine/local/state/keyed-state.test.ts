import { describe, expect, it } from 'vitest';
import { assignToKeyGroup } from '../../analysis/key-groups/key-group-range-assignment.ts';
import { ManualClock } from '../time/clock.ts';
import { HeapKeyedStateBackend } from './keyed-state-backend.ts';
import { AggregatingState, ListState, MapState, ReducingState, ValueState } from './keyed-state.ts';
import { InternalTimerService, type InternalTimer } from './timer-service.ts';
import { ttlExpired } from './ttl.ts';

function backend(clock = new ManualClock(1_000)) {
  return new HeapKeyedStateBackend(128, { startKeyGroup: 0, endKeyGroup: 127 }, clock);
}

describe('keyed state scoped to the current key', () => {
  it('ValueState keeps one value per key, update(null) clears', () => {
    const b = backend();
    const s = new ValueState<number>(b, { name: 'v' });
    b.setCurrentKey('a');
    s.update(1);
    b.setCurrentKey('b');
    expect(s.value()).toBeUndefined();
    s.update(2);
    b.setCurrentKey('a');
    expect(s.value()).toBe(1);
    s.update(null);
    expect(s.value()).toBeUndefined();
    b.setCurrentKey('b');
    expect(s.value()).toBe(2);
  });

  it('stores entries in the key group of their key, so part of a subtask can be snapshotted', () => {
    const b = backend();
    const s = new ValueState<string>(b, { name: 'v' });
    for (const key of ['acme', 'globex', 'initech']) {
      b.setCurrentKey(key);
      s.update(key.toUpperCase());
    }
    const table = b.tables.get('v')!;
    for (const key of ['acme', 'globex', 'initech']) {
      const kg = assignToKeyGroup(key, 128);
      expect([...table.entriesOf(kg)]).toContainEqual([key, 0, key.toUpperCase()]);
    }
    expect(table.size).toBe(3);
  });

  it('rejects a key outside the subtask key-group range', () => {
    const b = new HeapKeyedStateBackend(128, { startKeyGroup: 0, endKeyGroup: 31 }, new ManualClock(0));
    // "flink" is in key group 98.
    expect(() => b.setCurrentKey('flink')).toThrow(/outside this subtask's range \[0, 31\]/);
  });

  it('ListState, MapState, ReducingState and AggregatingState', () => {
    const b = backend();
    const list = new ListState<number>(b, { name: 'l' });
    const map = new MapState<string, number>(b, { name: 'm' });
    const sum = new ReducingState<number>(b, { name: 'r' }, (x, y) => x + y);
    const avg = new AggregatingState<number, [number, number], number>(b, { name: 'a' }, {
      createAccumulator: () => [0, 0],
      add: (v, acc) => [acc[0] + v, acc[1] + 1],
      getResult: (acc) => acc[0] / acc[1],
      merge: (x, y) => [x[0] + y[0], x[1] + y[1]],
    });
    b.setCurrentKey('k');
    list.add(1);
    list.addAll([2, 3]);
    map.put('x', 1);
    map.put('y', 2);
    map.remove('x');
    for (const v of [1, 2, 3, 6]) {
      sum.add(v);
      avg.add(v);
    }
    expect(list.get()).toEqual([1, 2, 3]);
    expect(map.entries()).toEqual([['y', 2]]);
    expect(map.contains('x')).toBe(false);
    expect(sum.get()).toBe(12);
    expect(avg.get()).toBe(3);
    list.update([]);
    expect(list.get()).toEqual([]);
    b.setCurrentKey('other');
    expect(sum.get()).toBeUndefined();
    expect(map.isEmpty()).toBe(true);
  });

  it('namespaced state keeps one value per (key, window)', () => {
    const b = backend();
    const s = new ReducingState<number>(b, { name: 'w' }, (x, y) => x + y, true);
    b.setCurrentKey('k');
    s.setCurrentNamespace(0);
    s.add(1);
    s.setCurrentNamespace(60_000);
    s.add(5);
    s.setCurrentNamespace(0);
    s.add(1);
    expect(s.get()).toBe(2);
    s.clear();
    expect(s.get()).toBeUndefined();
    s.setCurrentNamespace(60_000);
    expect(s.get()).toBe(5);
  });
});

describe('state TTL as Flink defines it', () => {
  it('expires at lastAccess + ttl (inclusive), saturating on overflow', () => {
    expect(ttlExpired(1000, 100, 1099)).toBe(false);
    expect(ttlExpired(1000, 100, 1100)).toBe(true);
    expect(ttlExpired(Number.MAX_SAFE_INTEGER - 1, 100, Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('OnCreateAndWrite: reads do not extend the life; NeverReturnExpired hides and clears expired values', () => {
    const clock = new ManualClock(1_000);
    const b = backend(clock);
    const s = new ValueState<string>(b, { name: 'v', ttl: { ttlMs: 100, incrementalCleanupSize: 0 } });
    b.setCurrentKey('k');
    s.update('x');
    clock.advanceTo(1_099);
    expect(s.value()).toBe('x');
    clock.advanceTo(1_100);
    expect(s.value()).toBeUndefined();
    expect(b.tables.get('v')!.size).toBe(0);
  });

  it('OnReadAndWrite: each read restarts the clock', () => {
    const clock = new ManualClock(0);
    const b = backend(clock);
    const s = new ValueState<string>(b, { name: 'v', ttl: { ttlMs: 100, updateType: 'OnReadAndWrite', incrementalCleanupSize: 0 } });
    b.setCurrentKey('k');
    s.update('x');
    for (const t of [90, 180, 270]) {
      clock.advanceTo(t);
      expect(s.value()).toBe('x');
    }
    clock.advanceTo(370);
    expect(s.value()).toBeUndefined();
  });

  it('ReturnExpiredIfNotCleanedUp returns the expired value once, then it is gone', () => {
    const clock = new ManualClock(0);
    const b = backend(clock);
    const s = new ValueState<string>(b, {
      name: 'v',
      ttl: { ttlMs: 10, stateVisibility: 'ReturnExpiredIfNotCleanedUp', incrementalCleanupSize: 0 },
    });
    b.setCurrentKey('k');
    s.update('x');
    clock.advanceTo(50);
    expect(s.value()).toBe('x');
    expect(s.value()).toBeUndefined();
  });

  it('list elements and map entries expire individually', () => {
    const clock = new ManualClock(0);
    const b = backend(clock);
    const list = new ListState<number>(b, { name: 'l', ttl: { ttlMs: 100, incrementalCleanupSize: 0 } });
    const map = new MapState<string, number>(b, { name: 'm', ttl: { ttlMs: 100, incrementalCleanupSize: 0 } });
    b.setCurrentKey('k');
    list.add(1);
    map.put('old', 1);
    clock.advanceTo(60);
    list.add(2);
    map.put('new', 2);
    clock.advanceTo(120);
    expect(list.get()).toEqual([2]);
    expect(map.entries()).toEqual([['new', 2]]);
    expect(map.get('old')).toBeUndefined();
    clock.advanceTo(200);
    expect(list.get()).toEqual([]);
    expect(map.isEmpty()).toBe(true);
    expect(b.numEntries()).toBe(0);
  });

  it('reducing and aggregating state start over after expiry', () => {
    const clock = new ManualClock(0);
    const b = backend(clock);
    const sum = new ReducingState<number>(b, { name: 'r', ttl: { ttlMs: 100 } }, (x, y) => x + y);
    const count = new AggregatingState<number, number, number>(b, { name: 'a', ttl: { ttlMs: 100 } }, {
      createAccumulator: () => 0,
      add: (_v, acc) => acc + 1,
      getResult: (acc) => acc,
      merge: (x, y) => x + y,
    });
    b.setCurrentKey('k');
    sum.add(5);
    count.add(5);
    clock.advanceTo(50);
    sum.add(5);
    count.add(5);
    expect(sum.get()).toBe(10);
    expect(count.get()).toBe(2);
    clock.advanceTo(150); // last write at 50: alive until 150 (exclusive)
    sum.add(1);
    count.add(1);
    expect(sum.get()).toBe(1);
    expect(count.get()).toBe(1);
  });

  it('incremental cleanup removes expired entries of other keys on access', () => {
    const clock = new ManualClock(0);
    const b = backend(clock);
    const s = new ValueState<number>(b, { name: 'v', ttl: { ttlMs: 10, incrementalCleanupSize: 5 } });
    for (let i = 0; i < 20; i++) {
      b.setCurrentKey(`k${i}`);
      s.update(i);
    }
    clock.advanceTo(100);
    b.setCurrentKey('fresh');
    for (let i = 0; i < 10; i++) s.update(1);
    expect(b.tables.get('v')!.size).toBe(1);
  });
});

describe('timer service', () => {
  function setup() {
    const b = backend();
    const fired: Array<[string, number, number]> = [];
    const service = new InternalTimerService(b, {
      onEventTime: (t: InternalTimer) => fired.push([String(b.currentKey), t.timestamp, Number(t.namespace)]),
      onProcessingTime: (t: InternalTimer) => fired.push([`p:${String(b.currentKey)}`, t.timestamp, Number(t.namespace)]),
    });
    return { b, service, fired };
  }

  it('fires event-time timers <= watermark in time order, with the timer key current', () => {
    const { b, service, fired } = setup();
    for (const [key, ts] of [['c', 300], ['a', 100], ['b', 200], ['a', 250]] as const) {
      b.setCurrentKey(key);
      service.registerEventTimeTimer(0, ts);
    }
    expect(service.advanceWatermark(99)).toBe(0);
    expect(service.advanceWatermark(250)).toBe(3);
    expect(fired).toEqual([['a', 100, 0], ['b', 200, 0], ['a', 250, 0]]);
    expect(service.numEventTimeTimers()).toBe(1);
  });

  it('deduplicates equal timers and deletes timers', () => {
    const { b, service, fired } = setup();
    b.setCurrentKey('a');
    service.registerEventTimeTimer(0, 100);
    service.registerEventTimeTimer(0, 100);
    service.registerEventTimeTimer(60_000, 100);
    service.registerEventTimeTimer(0, 200);
    expect(service.numEventTimeTimers()).toBe(3);
    service.deleteEventTimeTimer(0, 100);
    service.deleteEventTimeTimer(0, 999);
    service.advanceWatermark(Number.POSITIVE_INFINITY);
    expect(fired).toEqual([['a', 100, 60_000], ['a', 200, 0]]);
  });

  it('keeps heap order under random inserts and deletes', () => {
    const { b, service, fired } = setup();
    const live = new Map<string, number>();
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let i = 0; i < 2000; i++) {
      const key = `k${Math.floor(rnd() * 300)}`;
      b.setCurrentKey(key);
      if (live.has(key) && rnd() < 0.4) {
        service.deleteEventTimeTimer(0, live.get(key)!);
        live.delete(key);
      } else if (!live.has(key)) {
        const ts = Math.floor(rnd() * 10_000);
        service.registerEventTimeTimer(0, ts);
        live.set(key, ts);
      }
    }
    service.advanceWatermark(Number.POSITIVE_INFINITY);
    expect(fired.length).toBe(live.size);
    expect(fired.map((f) => f[1])).toEqual([...fired.map((f) => f[1])].sort((x, y) => x - y));
  });

  it('fires processing-time timers', () => {
    const { b, service, fired } = setup();
    b.setCurrentKey('z');
    service.registerProcessingTimeTimer(0, 5_000);
    expect(service.advanceProcessingTime(4_999)).toBe(0);
    expect(service.advanceProcessingTime(5_000)).toBe(1);
    expect(fired).toEqual([['p:z', 5_000, 0]]);
  });
});
