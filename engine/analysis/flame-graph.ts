import type { FlameGraphStatus, FlameNode, HotFrame } from '../contracts/flame-graph.ts';

/** Deeper stacks than this are cut there (Flink's own stacks are a few hundred frames at most). */
export const MAX_FLAME_DEPTH = 1024;
/** Frames kept at most: enough for any real graph, bounded for a hostile one. */
export const MAX_FLAME_NODES = 50_000;
/** A frame's name is cut at this length. */
const MAX_NAME_LENGTH = 1024;

/** Flink's `VertexFlameGraph.endTimestamp` sentinels. */
const TERMINATED = -1;
const DISABLED = -2;
const WAITING = -3;

/** Pure: what Flink's `endTimestamp` says about the graph. */
export function flameGraphStatus(endTimestamp: number, hasData: boolean): FlameGraphStatus {
  if (endTimestamp === DISABLED) return 'disabled';
  if (endTimestamp === TERMINATED) return 'terminated';
  if (endTimestamp === WAITING || !hasData) return 'waiting';
  return 'ready';
}

/**
 * Pure: Flink's `data` node (`{name, value, children}`) as a checked tree, read without recursion so a hostile
 * nesting cannot exhaust the stack. Names are text with control characters replaced; a value that is not a
 * non-negative number counts 0; frames past `MAX_FLAME_DEPTH` or `MAX_FLAME_NODES` are dropped (`truncated`).
 */
export function toFlameTree(data: unknown): { root: FlameNode | null; truncated: boolean } {
  if (!isObject(data)) return { root: null, truncated: false };
  const root: FlameNode = { name: frameName(data.name), value: sampleCount(data.value), children: [] };
  let nodes = 1;
  let truncated = false;
  const pending: Array<{ from: Record<string, unknown>; to: FlameNode; depth: number }> = [{ from: data, to: root, depth: 0 }];
  while (pending.length > 0) {
    const { from, to, depth } = pending.pop()!;
    const children = Array.isArray(from.children) ? from.children : [];
    for (const child of children) {
      if (!isObject(child)) continue;
      if (depth + 1 > MAX_FLAME_DEPTH || nodes >= MAX_FLAME_NODES) {
        truncated = true;
        break;
      }
      const node: FlameNode = { name: frameName(child.name), value: sampleCount(child.value), children: [] };
      nodes += 1;
      to.children.push(node);
      pending.push({ from: child, to: node, depth: depth + 1 });
    }
  }
  // Flink's root holds the total; where it does not, the children's sum is the total.
  root.value = Math.max(root.value, sum(root.children));
  return { root, truncated };
}

/** Pure: the frames with the most own time (its value minus its children's), summed over every place it appears. */
export function hotFrames(root: FlameNode, limit = 20): HotFrame[] {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const pending: Array<{ node: FlameNode; onStack: ReadonlySet<string> }> = root.children.map((node) => ({ node, onStack: new Set() }));
  while (pending.length > 0) {
    const { node, onStack } = pending.pop()!;
    const own = Math.max(0, node.value - sum(node.children));
    if (own > 0) self.set(node.name, (self.get(node.name) ?? 0) + own);
    // A recursive frame counts once per stack in its total.
    if (!onStack.has(node.name)) total.set(node.name, (total.get(node.name) ?? 0) + node.value);
    const below = onStack.has(node.name) ? onStack : new Set([...onStack, node.name]);
    for (const child of node.children) pending.push({ node: child, onStack: below });
  }
  const samples = Math.max(1, root.value);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name, selfSamples]) => ({ name, selfSamples, selfShare: selfSamples / samples, totalSamples: total.get(name) ?? selfSamples }));
}

/**
 * Pure: the graph cut down to what a file to share needs (an incident bundle, a report): frames under `minShare` of
 * the samples left out (their samples count as their caller's own time), and at most `maxNodes` frames, the heaviest
 * kept. A frame never weighs more than its caller, so what is kept stays one tree.
 */
export function pruneFlameTree(root: FlameNode, options: { minShare: number; maxNodes: number }): { root: FlameNode; truncated: boolean } {
  const values: number[] = [];
  for (const pending = [...root.children]; pending.length > 0; ) {
    const node = pending.pop()!;
    values.push(node.value);
    pending.push(...node.children);
  }
  values.sort((a, b) => b - a);
  // The root is one of the frames kept.
  const threshold = Math.max(options.minShare * root.value, values[options.maxNodes - 2] ?? 0, Number.MIN_VALUE);
  const pruned: FlameNode = { name: root.name, value: root.value, children: [] };
  let kept = 1;
  const queue: Array<{ from: FlameNode; to: FlameNode }> = [{ from: root, to: pruned }];
  for (let i = 0; i < queue.length; i++) {
    const { from, to } = queue[i];
    for (const child of from.children) {
      if (child.value < threshold || kept >= options.maxNodes) continue;
      const copy: FlameNode = { name: child.name, value: child.value, children: [] };
      kept += 1;
      to.children.push(copy);
      queue.push({ from: child, to: copy });
    }
  }
  return { root: pruned, truncated: kept < values.length + 1 };
}

/**
 * Pure: the graph in Brendan Gregg's folded-stack format (`root;a;b 12`, one line per stack with own samples), what
 * flamegraph.pl, speedscope and inferno read. The root frame is left out; `;` and line breaks in names are replaced.
 */
export function foldedStacks(root: FlameNode): string[] {
  const lines: string[] = [];
  const pending: Array<{ node: FlameNode; path: string }> = root.children.map((node) => ({ node, path: foldedName(node.name) })).reverse();
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    const own = Math.max(0, node.value - sum(node.children));
    if (own > 0) lines.push(`${path} ${own}`);
    for (let i = node.children.length - 1; i >= 0; i -= 1) pending.push({ node: node.children[i], path: `${path};${foldedName(node.children[i].name)}` });
  }
  return lines;
}

function foldedName(name: string): string {
  return name.replace(/[;\s]/g, '_');
}

function sum(nodes: readonly FlameNode[]): number {
  let total = 0;
  for (const n of nodes) total += n.value;
  return total;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function frameName(raw: unknown): string {
  return frameText(typeof raw === 'string' ? raw : '(unnamed frame)');
}

/**
 * A frame's name as the console keeps it: cut at MAX_NAME_LENGTH, control characters and bidirectional overrides
 * replaced (it is the cluster's text: an override would show a page's or a report's reader another name).
 */
export function frameText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  return text.slice(0, MAX_NAME_LENGTH).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');
}

function sampleCount(raw: unknown): number {
  return typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
}
