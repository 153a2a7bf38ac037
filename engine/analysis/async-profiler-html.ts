import type { FlameNode } from '../contracts/flame-graph.ts';
import { frameText, MAX_FLAME_DEPTH, MAX_FLAME_NODES } from './flame-graph.ts';

/**
 * One frame call of async-profiler 2.x's HTML flame graph (the format Flink 1.19–2.3 bundle): `f(level, left, width,
 * type, 'title'[, inln, c1, int])`, in pre-order; left and width in samples. Read as data, never run.
 */
const FRAME = /^f\((\d+),(\d+),(\d+),(\d+),'((?:[^'\\]|\\.)*)'(?:,\d+,\d+,\d+)?\)$/;

/**
 * Pure: the flame graph inside a profile Flink's profiler wrote (async-profiler's self-contained HTML), as the
 * console's tree: each frame a child of the last frame one level up, `java/lang/Thread.run` spelled
 * `java.lang.Thread.run` as Flink's own flame graphs spell it. null when the file holds no frame the console can read
 * (another format): it is still there to download.
 */
export function profileFlameTree(html: string): { root: FlameNode | null; truncated: boolean } {
  const stack: FlameNode[] = [];
  let root: FlameNode | null = null;
  let nodes = 0;
  let truncated = false;
  for (const line of html.split('\n')) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const level = Number(match[1]);
    const node: FlameNode = { name: frameName(match[5]), value: Number(match[3]), children: [] };
    if (level === 0) {
      if (root) break; // one graph per file
      root = node;
      stack.length = 0;
      stack.push(node);
      nodes = 1;
      continue;
    }
    // A frame without a parent one level up is not the format this reads.
    if (!root || level > stack.length || level > MAX_FLAME_DEPTH || nodes >= MAX_FLAME_NODES) {
      if (root) truncated = true;
      continue;
    }
    stack.length = level;
    stack[level - 1].children.push(node);
    stack.push(node);
    nodes += 1;
  }
  return { root, truncated };
}

function frameName(quoted: string): string {
  const text = quoted.replace(/\\(.)/g, '$1');
  // Java frames as `package/Class.method`: Flink's flame graphs and stack traces write dots.
  return frameText(/^[\w$/]+\.[\w$<>]+$/.test(text) ? text.replace(/\//g, '.') : text);
}
