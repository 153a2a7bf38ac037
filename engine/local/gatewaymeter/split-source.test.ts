import { describe, expect, it } from 'vitest';
import { repartitionOperatorState, assembleOperatorState, operatorStateSizesOf } from '../checkpoint/restore-assignment.ts';
import { DEFAULT_TRAFFIC } from '../scenarios/scenario.ts';
import { ManualClock } from '../time/clock.ts';
import { GatewayEventReader, GatewaySplitReader, type GatewaySplitState, type GeneratorConfig } from './generator.ts';

/**
 * The GatewayMeter source as FLIP-27 splits: the stream is a pure function of (seed, split, splits, start time), a
 * split's position is its operator state, and a restore at any parallelism continues exactly the same stream.
 */
const T0 = 1_767_225_617_000;
const config: GeneratorConfig = { ...DEFAULT_TRAFFIC, seed: 5, rate: 4000, events: 30_000 };
const clock = new ManualClock(T0);

/** Reads a reader to the end, polling at `stepMs` steps of processing time; events per split, in order. */
function drain(reader: GatewaySplitReader | GatewayEventReader, stepMs: number, from = T0): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (let now = from; ; now += stepMs) {
    const status = reader.pollNext(now, 1000, (line, _ts, split = -1) => {
      const list = out.get(split) ?? [];
      list.push(line);
      out.set(split, list);
    });
    if (status === 'END_OF_INPUT') return out;
  }
}

describe('GatewayEventReader.skip', () => {
  it('skipping n events then reading equals reading all and dropping n, whatever the poll times', () => {
    const all = drain(new GatewayEventReader(config, { subtaskIndex: 1, parallelism: 4, startTime: T0, clock }), 10).get(-1)!;
    for (const n of [0, 1, 777, all.length - 1, all.length]) {
      const reader = new GatewayEventReader(config, { subtaskIndex: 1, parallelism: 4, startTime: T0, clock });
      expect(reader.skip(n)).toBe(n);
      const rest = drain(reader, 37, T0 + 60_000).get(-1) ?? [];
      expect(rest).toEqual(all.slice(n));
    }
    const reader = new GatewayEventReader(config, { subtaskIndex: 1, parallelism: 4, startTime: T0, clock });
    expect(reader.skip(all.length + 10)).toBe(all.length);
    expect(reader.ended).toBe(true);
  });
});

describe('GatewaySplitReader', () => {
  it('a fresh subtask i of p reads split i of p: the stream of the part-1 reader', () => {
    const split = drain(new GatewaySplitReader(config, { subtaskIndex: 2, parallelism: 4, startTime: T0, clock }), 10);
    const plain = drain(new GatewayEventReader(config, { subtaskIndex: 2, parallelism: 4, startTime: T0, clock }), 10).get(-1)!;
    expect([...split.keys()]).toEqual([2]);
    expect(split.get(2)).toEqual(plain);
  });

  it('restored at another parallelism (SPLIT_DISTRIBUTE), every split continues exactly where it stopped', () => {
    const full = new Map<number, string[]>();
    for (let i = 0; i < 4; i++) full.set(i, drain(new GatewaySplitReader(config, { subtaskIndex: i, parallelism: 4, startTime: T0, clock }), 10).get(i)!);
    // Read the 4 subtasks part of the way, snapshot, redistribute over 3, read the rest.
    const first = Array.from({ length: 4 }, (_, i) => new GatewaySplitReader(config, { subtaskIndex: i, parallelism: 4, startTime: T0, clock }));
    const before = new Map<number, string[]>();
    for (let now = T0; now < T0 + 2_500; now += 10) {
      for (const r of first) r.pollNext(now, 100, (line, _ts, split = -1) => before.set(split, [...(before.get(split) ?? []), line]));
    }
    const states = first.map((r) => ({ SourceReaderState: { mode: 'SPLIT_DISTRIBUTE' as const, partitions: r.snapshotState() } }));
    expect(states.map((s) => (s.SourceReaderState.partitions[0] as GatewaySplitState).emitted)).toEqual([0, 1, 2, 3].map((i) => before.get(i)!.length));
    const assignment = repartitionOperatorState(operatorStateSizesOf(states), 4, 3);
    const restored = assignment.map((a, i) =>
      new GatewaySplitReader(config, { subtaskIndex: i, parallelism: 3, startTime: T0 + 10_000, clock, restoredState: assembleOperatorState(a, states).SourceReaderState.partitions }),
    );
    expect(restored.map((r) => r.activeSplits())).toEqual([[0, 1], [2], [3]]);
    const after = new Map<number, string[]>();
    for (const r of restored) for (const [split, lines] of drain(r, 10, T0 + 10_000)) after.set(split, lines);
    for (let i = 0; i < 4; i++) expect([...before.get(i)!, ...after.get(i)!], `split ${i}`).toEqual(full.get(i));
  });

  it('a subtask without splits: ends at once when bounded, waits (idle) when unbounded; bad state is refused', () => {
    const bounded = new GatewaySplitReader(config, { subtaskIndex: 5, parallelism: 8, startTime: T0, clock, restoredState: [] });
    expect(bounded.pollNext(T0, 10, () => {})).toBe('END_OF_INPUT');
    const unbounded = new GatewaySplitReader({ ...config, events: undefined }, { subtaskIndex: 5, parallelism: 8, startTime: T0, clock, restoredState: [] });
    expect(unbounded.pollNext(T0, 10, () => {})).toBe('NOTHING_AVAILABLE');
    expect(() => new GatewaySplitReader(config, { subtaskIndex: 0, parallelism: 1, startTime: T0, clock, restoredState: [{ split: 9, numSplits: 4 }] })).toThrow(
      /The source state holds an invalid split/,
    );
    expect(() => new GatewaySplitReader(config, { subtaskIndex: 0, parallelism: 1, startTime: T0, clock, restoredState: [{ split: 0, numSplits: 4, startTime: T0, emitted: 10_000_000 }] })).toThrow(
      /Split 0\/4 has only \d+ events, the state says 10000000 were read: restore it with the same --seed, --events and traffic\./,
    );
  });
});
