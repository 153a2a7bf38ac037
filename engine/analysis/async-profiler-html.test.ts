import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FlameNode } from '../contracts/flame-graph.ts';
import { profileFlameTree } from './async-profiler-html.ts';
import { hotFrames } from './flame-graph.ts';

/** A TaskManager's 2 s ITIMER profile as Flink 2.3.0's profiler wrote it (async-profiler 2.9), recorded. */
const RECORDED = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata/async-profiler-itimer.html'), 'utf8');

function* frames(node: FlameNode): Generator<FlameNode> {
  yield node;
  for (const child of node.children) yield* frames(child);
}

describe('profileFlameTree', () => {
  it("reads async-profiler's frames as a tree, each no wider than its caller, Java names with dots", () => {
    const { root, truncated } = profileFlameTree(RECORDED);
    expect(truncated).toBe(false);
    expect(root).toMatchObject({ name: 'all', value: 52 });
    for (const node of frames(root!)) expect(node.children.reduce((s, c) => s + c.value, 0)).toBeLessThanOrEqual(node.value);
    const names = [...frames(root!)].map((n) => n.name);
    expect(names).toContain('org.apache.flink.runtime.taskmanager.Task.run');
    expect(names).toContain('java.lang.Thread.run');
    expect(names).toContain('[no_Java_frame]');
    expect(hotFrames(root!).length).toBeGreaterThan(0);
  });

  it('keeps a quoted title as text and skips what is not a frame', () => {
    const html = ["f(0,0,3,3,'all')", "f(1,0,2,1,'a\\'b</script><img src=x>')", "alert('x')", "f(2,0,2,1,'c\\\\d')", "f(1,2,1,1,'e')"].join('\n');
    const { root } = profileFlameTree(html);
    expect(root!.children.map((c) => c.name)).toEqual(["a'b</script><img src=x>", 'e']);
    expect(root!.children[0].children[0].name).toBe('c\\d');
  });

  it('has no tree for another format, and cuts frames that skip a level', () => {
    expect(profileFlameTree('<html>no frames</html>').root).toBeNull();
    const { root, truncated } = profileFlameTree("f(0,0,1,3,'all')\nf(5,0,1,1,'deep')");
    expect(root!.children).toEqual([]);
    expect(truncated).toBe(true);
  });
});
