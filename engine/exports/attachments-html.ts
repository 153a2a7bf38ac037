import type { FlameNode } from '../contracts/flame-graph.ts';
import { esc, fmt, iso, num, pct, table, truncate } from './html-parts.ts';
import type { AttachedFlameGraph, AttachedLogExcerpt, IncidentAttachments } from './incident-attachments.ts';

/** The flame graph's width in the page (px) and one frame's height. */
const WIDTH = 1060;
const ROW = 16;
/** Frames narrower than this are not drawn (nor their callees): they would be a hairline. */
const MIN_FRAME_PX = 0.5;
/** Stacks deeper than this are cut in the drawing (the hot frames table still counts them). */
const MAX_DRAWN_DEPTH = 80;

/**
 * Pure: the report's sections for the attachments asked for, beside the finding: the subtask's flame graph drawn as
 * an icicle (inline SVG, no script) with its hot frames, and its log lines as text. One that is missing says why.
 */
export function attachmentsHtml(attachments: IncidentAttachments | undefined): string {
  const parts: string[] = [];
  const flame = attachments?.flameGraph;
  if (flame) parts.push(flame.included ? flameGraphSection(flame.value) : missing('report-flame-graph', 'Flame graph', flame.reason));
  const log = attachments?.logExcerpt;
  if (log) parts.push(log.included ? logExcerptSection(log.value) : missing('report-log-excerpt', 'Log excerpt', log.reason));
  return parts.join('\n');
}

/** An attachment asked for that the export could not include, and why. */
function missing(testId: string, title: string, reason: string): string {
  return `<section data-testid="${testId}" data-included="false"><h2>${title}</h2><p>Not included: ${esc(reason)}</p></section>`;
}

function flameGraphSection(g: AttachedFlameGraph): string {
  const meta = `Flink's flame graph (${g.type}) of the subtask the finding names${g.sampledAt === null ? '' : `, sampled until ${iso(g.sampledAt)} UTC`}${g.truncated ? '; frames under 0.1% of the samples are left out' : ''}. Hover a frame for its samples.`;
  return `<section data-testid="report-flame-graph" data-included="true">
<h2>Flame graph of ${esc(g.vertexName)} subtask ${g.subtask}</h2>
<p class="sentence">${esc(g.sentence)}</p>
${flameSvg(g.root)}
<p class="meta">${esc(meta)}</p>
<h3>Most own time</h3>
${table(['Frame', 'Own samples', 'Share', 'On the stack'], g.hotFrames.slice(0, 10).map((f) => [f.name, num(f.selfSamples), pct(f.selfShare * 100), num(f.totalSamples)]))}
</section>`;
}

function logExcerptSection(e: AttachedLogExcerpt): string {
  const cut = e.lines.length < e.linesFound ? `The last ${e.lines.length} of the ${e.linesFound} lines found` : `The ${e.lines.length} lines found`;
  const scanned = e.complete ? ' (the whole log read)' : ` (the search stopped after ${num(e.scannedBytes)} bytes)`;
  const text = e.lines.map((l) => `${String(l.number).padStart(7)}  ${l.text}`).join('\n');
  return `<section data-testid="report-log-excerpt" data-included="true">
<h2>Log of ${esc(e.task)}</h2>
<p class="meta">${esc(`${cut} in TaskManager ${e.processId}'s log${scanned}, with their line numbers.`)}</p>
${e.lines.length === 0 ? '<p>The log holds no line of this task.</p>' : `<pre class="log">${esc(text)}</pre>`}
</section>`;
}

/** An icicle: the root on top, each frame below its caller, as wide as its share of the samples. */
function flameSvg(root: FlameNode): string {
  const total = Math.max(1, root.value);
  const frames: string[] = [];
  let deepest = 0;
  const pending: Array<{ node: FlameNode; x: number; depth: number }> = [{ node: root, x: 0, depth: 0 }];
  while (pending.length > 0) {
    const { node, x, depth } = pending.pop()!;
    const w = (node.value / total) * WIDTH;
    if (w < MIN_FRAME_PX || depth > MAX_DRAWN_DEPTH) continue;
    deepest = Math.max(deepest, depth);
    const label = w > 36 ? `<text x="${fmt(x + 3)}" y="${depth * ROW + 12}">${esc(truncate(node.name, Math.floor((w - 6) / 6)))}</text>` : '';
    frames.push(`<g><title>${esc(node.name)}: ${node.value} samples (${pct((node.value / total) * 100)})</title><rect x="${fmt(x)}" y="${depth * ROW}" width="${fmt(Math.max(0, w - 0.5))}" height="${ROW - 1}" fill="${frameColor(node.name)}"/>${label}</g>`);
    let childX = x;
    for (const child of node.children) {
      pending.push({ node: child, x: childX, depth: depth + 1 });
      childX += (child.value / total) * WIDTH;
    }
  }
  const height = (deepest + 1) * ROW;
  return `<svg class="flame" data-testid="report-flame-svg" role="img" aria-label="Flame graph" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${frames.join('')}</svg>`;
}

/** Warm colours, the same for the same frame on every machine (a hash of its name). */
function frameColor(name: string): string {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
  const h = Math.abs(hash);
  return `hsl(${10 + (h % 40)},75%,${58 + (h % 17)}%)`;
}
