import { describe, expect, it } from 'vitest';
import { flameGraphStatus, foldedStacks, hotFrames, MAX_FLAME_DEPTH, pruneFlameTree, toFlameTree } from './flame-graph.ts';

/** The shape of Flink's answer: the root holds every sample, a frame its own and its callees'. */
const FLINK_DATA = {
  name: 'root',
  value: 100,
  children: [
    {
      name: 'java.lang.Thread.run:840',
      value: 100,
      children: [
        {
          name: 'org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955',
          value: 100,
          children: [
            { name: 'com.example.Throttle.processElement:42', value: 70, children: [{ name: 'java.lang.Thread.sleep:-2', value: 60, children: [] }] },
            { name: 'org.apache.flink.runtime.io.network.api.writer.RecordWriter.emit:104', value: 25, children: [] },
          ],
        },
      ],
    },
  ],
};

describe('flameGraphStatus', () => {
  it("reads Flink's sentinels: -1 terminated, -2 disabled, -3 waiting", () => {
    expect(flameGraphStatus(-1, false)).toBe('terminated');
    expect(flameGraphStatus(-2, false)).toBe('disabled');
    expect(flameGraphStatus(-3, false)).toBe('waiting');
    expect(flameGraphStatus(1_767_225_600_000, true)).toBe('ready');
    expect(flameGraphStatus(1_767_225_600_000, false)).toBe('waiting');
  });
});

describe('toFlameTree', () => {
  it('keeps the tree as Flink sent it', () => {
    const { root, truncated } = toFlameTree(FLINK_DATA);
    expect(truncated).toBe(false);
    expect(root?.value).toBe(100);
    expect(root?.children[0].children[0].children.map((c) => c.name)).toEqual(['com.example.Throttle.processElement:42', 'org.apache.flink.runtime.io.network.api.writer.RecordWriter.emit:104']);
  });

  it('reads a hostile nesting without recursion, cut at the depth limit', () => {
    const deep: Record<string, unknown> = { name: 'root', value: 1, children: [] };
    let at = deep;
    for (let i = 0; i < 100_000; i += 1) {
      const child = { name: `f${i}`, value: 1, children: [] as unknown[] };
      (at.children as unknown[]).push(child);
      at = child;
    }
    const { root, truncated } = toFlameTree(deep);
    expect(truncated).toBe(true);
    let depth = 0;
    for (let n = root!; n.children.length > 0; n = n.children[0]) depth += 1;
    expect(depth).toBe(MAX_FLAME_DEPTH);
  });

  it('makes names text and values counts', () => {
    const { root } = toFlameTree({ name: 'root', value: 'x', children: [{ name: 'evil\u001b[31m\nframe', value: -5, children: 'no' }, 7, null, { value: 3 }] });
    expect(root!.children.map((c) => [c.name, c.value])).toEqual([
      ['evil\ufffd[31m\ufffdframe', 0],
      ['(unnamed frame)', 3],
    ]);
    expect(root!.value).toBe(3);
  });

  it('has no tree without data', () => {
    expect(toFlameTree(undefined).root).toBeNull();
    expect(toFlameTree([1, 2]).root).toBeNull();
  });
});

describe('hotFrames', () => {
  it('ranks frames by their own samples, with their share of all samples', () => {
    const hot = hotFrames(toFlameTree(FLINK_DATA).root!);
    expect(hot.map((h) => [h.name, h.selfSamples])).toEqual([
      ['java.lang.Thread.sleep:-2', 60],
      ['org.apache.flink.runtime.io.network.api.writer.RecordWriter.emit:104', 25],
      ['com.example.Throttle.processElement:42', 10],
      ['org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955', 5],
    ]);
    expect(hot[0].selfShare).toBeCloseTo(0.6);
    expect(hot.find((h) => h.name.startsWith('com.example.Throttle'))!.totalSamples).toBe(70);
  });

  it('counts a recursive frame once per stack in its total', () => {
    const root = toFlameTree({ name: 'root', value: 10, children: [{ name: 'f', value: 10, children: [{ name: 'f', value: 10, children: [] }] }] }).root!;
    expect(hotFrames(root)).toEqual([{ name: 'f', selfSamples: 10, selfShare: 1, totalSamples: 10 }]);
  });
});

describe('foldedStacks', () => {
  it('writes one line per stack with own samples, as flamegraph.pl reads them', () => {
    expect(foldedStacks(toFlameTree(FLINK_DATA).root!)).toEqual([
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955 5',
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955;com.example.Throttle.processElement:42 10',
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955;com.example.Throttle.processElement:42;java.lang.Thread.sleep:-2 60',
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955;org.apache.flink.runtime.io.network.api.writer.RecordWriter.emit:104 25',
    ]);
  });

  it('keeps separators out of frame names', () => {
    expect(foldedStacks({ name: 'root', value: 1, children: [{ name: 'a;b c', value: 1, children: [] }] })).toEqual(['a_b_c 1']);
  });
});

describe('pruneFlameTree', () => {
  it('leaves out frames under the share, their samples their caller\'s own time', () => {
    const { root } = toFlameTree(FLINK_DATA);
    const { root: pruned, truncated } = pruneFlameTree(root!, { minShare: 0.3, maxNodes: 100 });
    expect(truncated).toBe(true);
    expect(foldedStacks(pruned)).toEqual([
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955 30',
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955;com.example.Throttle.processElement:42 10',
      'java.lang.Thread.run:840;org.apache.flink.streaming.runtime.tasks.StreamTask.invoke:955;com.example.Throttle.processElement:42;java.lang.Thread.sleep:-2 60',
    ]);
    expect(hotFrames(pruned)[0]).toMatchObject({ name: 'java.lang.Thread.sleep:-2', selfSamples: 60 });
  });

  it('keeps the heaviest frames up to the count, one tree, and the whole graph when it fits', () => {
    const wide = { name: 'root', value: 1000, children: Array.from({ length: 500 }, (_, i) => ({ name: `f${i}`, value: 1 + (i % 7), children: [{ name: `g${i}`, value: 1, children: [] }] })) };
    const { root } = toFlameTree(wide);
    const { root: pruned, truncated } = pruneFlameTree(root!, { minShare: 0, maxNodes: 50 });
    const count = (n: typeof pruned): number => 1 + n.children.reduce((s, c) => s + count(c), 0);
    expect(count(pruned)).toBe(50);
    expect(truncated).toBe(true);
    expect(Math.min(...pruned.children.map((c) => c.value))).toBeGreaterThanOrEqual(6);
    const whole = pruneFlameTree(toFlameTree(FLINK_DATA).root!, { minShare: 0, maxNodes: 100 });
    expect(whole.truncated).toBe(false);
    expect(whole.root).toEqual(toFlameTree(FLINK_DATA).root);
  });
});
