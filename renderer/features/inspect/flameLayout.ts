import type { FlameNode } from '../../../engine/contracts/flame-graph';

/** One frame as drawn: its row (depth from the focused frame), its left edge and width as fractions of the row. */
export interface FlameBar {
  /** The frame's place in the tree ("0.2.1": child indexes from the root), stable across zooms. */
  path: string;
  name: string;
  value: number;
  depth: number;
  x: number;
  width: number;
  /** The frame's name contains the search text. */
  matched: boolean;
}

/** Frames narrower than this share of the row are not drawn (their samples stay in their parent's width). */
const MIN_WIDTH = 0.002;
/** Bars drawn at most: the rest are too narrow to see on any screen. */
const MAX_BARS = 3000;

/**
 * Pure: the bars of a flame graph (the root at the top, callees below, as Flink's Web UI draws it), zoomed on the frame
 * at `focusPath` (its ancestors drawn full width above it), with the frames whose name contains `search` marked.
 */
export function flameBars(root: FlameNode, focusPath: string, search: string): { bars: FlameBar[]; focus: FlameNode; matchedSamples: number } {
  const needle = search.trim().toLowerCase();
  const matches = (name: string) => needle !== '' && name.toLowerCase().includes(needle);
  const ancestors: Array<{ node: FlameNode; path: string }> = [{ node: root, path: '0' }];
  for (const step of focusPath.split('.').slice(1)) {
    const child = ancestors.at(-1)!.node.children[Number(step)];
    if (!child) break;
    ancestors.push({ node: child, path: `${ancestors.at(-1)!.path}.${step}` });
  }
  const focused = ancestors.at(-1)!;
  const bars: FlameBar[] = ancestors.slice(0, -1).map(({ node, path }, depth) => ({ path, name: node.name, value: node.value, depth, x: 0, width: 1, matched: matches(node.name) }));
  const total = Math.max(1, focused.node.value);
  const pending: Array<{ node: FlameNode; path: string; depth: number; x: number }> = [{ node: focused.node, path: focused.path, depth: ancestors.length - 1, x: 0 }];
  while (pending.length > 0 && bars.length < MAX_BARS) {
    const { node, path, depth, x } = pending.shift()!;
    const width = node.value / total;
    if (width < MIN_WIDTH) continue;
    bars.push({ path, name: node.name, value: node.value, depth, x, width, matched: matches(node.name) });
    let at = x;
    node.children.forEach((child, i) => {
      pending.push({ node: child, path: `${path}.${i}`, depth: depth + 1, x: at });
      at += child.value / total;
    });
  }
  return { bars, focus: focused.node, matchedSamples: needle === '' ? 0 : samplesMatching(root, matches) };
}

/**
 * Pure: the samples with a matching frame on their stack, over the whole graph whatever the zoom and however narrow the
 * frame: a matching frame counts its samples once, its matching callees not again.
 */
function samplesMatching(root: FlameNode, matches: (name: string) => boolean): number {
  let samples = 0;
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (matches(node.name)) samples += node.value;
    else pending.push(...node.children);
  }
  return samples;
}
