import type { FlameNode, HotFrame } from '../contracts/flame-graph.ts';
import { formatTable } from './format-table.ts';
import { printable } from './terminal-text.ts';

/**
 * Pure: a flame graph (Flink's sampled one, or a profile's) as terminal lines: the frames with the most own time and
 * the heaviest stack. Frame names are the cluster's: made printable.
 */
export function flameLines(graph: { root: FlameNode | null; hotFrames: HotFrame[]; truncated: boolean }): string[] {
  const lines: string[] = [];
  if (graph.root && graph.hotFrames.length > 0) {
    lines.push('Most own time');
    lines.push(formatTable(['SHARE', 'SAMPLES', 'ON STACK', 'FRAME'], graph.hotFrames.slice(0, 10).map((f) => [`${(f.selfShare * 100).toFixed(1)}%`, String(f.selfSamples), String(f.totalSamples), printable(f.name)])).trimEnd());
    lines.push('', 'Heaviest stack (the busiest callee at each level)');
    for (const [depth, node] of heaviestPath(graph.root).entries()) lines.push(`${'  '.repeat(Math.min(depth, 40))}${printable(node.name)}  ${node.value}`);
  }
  if (graph.truncated) lines.push('', 'The graph was larger than the console keeps: its deepest or last frames are left out.');
  return lines;
}

function heaviestPath(root: FlameNode): FlameNode[] {
  const path: FlameNode[] = [];
  for (let node = root; node.children.length > 0; ) {
    node = node.children.reduce((a, b) => (b.value > a.value ? b : a));
    path.push(node);
  }
  return path;
}
