import type { MetricSkew } from '../contracts/diagnosis.ts';
import type { BeforeAfter, BeforeAfterRow } from '../contracts/before-after.ts';
import type { ReportState } from './report-state.ts';
import { attachmentsHtml } from './attachments-html.ts';
import { bytes, esc, fmt, iso, list, num, pct, seconds, table, truncate } from './html-parts.ts';
import type { IncidentAttachments } from './incident-attachments.ts';
import { subtaskCell, type ReportCheckpoint, type ReportVertex, type SkewReport } from './skew-report.ts';

export { esc } from './html-parts.ts';

/**
 * Pure: the report as one self-contained HTML page — inline styles and inline SVG charts, no script, no request to
 * anywhere — that opens in any browser, prints cleanly (and "Save as PDF" from the print dialog), and can be attached
 * to a ticket. Big jobs stay readable and small: the heatmap folds subtasks into at most `HEATMAP_COLUMNS` cells per
 * vertex (each the hottest of its subtasks), and the full per-subtask table is left to the CSV above `FULL_TABLE_ROWS`.
 */
const HEATMAP_COLUMNS = 128;
const FULL_TABLE_ROWS = 2000;

/** `attachments`: the finding's subtask's flame graph and log lines, where the export asked for them. */
export function reportHtml(report: SkewReport, attachments?: IncidentAttachments): string {
  const title = `Skew report: ${report.job.name} (${report.job.id.slice(0, 8)})`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="meta">${esc(describeSource(report))}</p>
</header>
<section class="finding severity-${esc(report.finding.severity)}" data-testid="report-finding">
<h2>Root cause</h2>
<p class="sentence">${esc(report.finding.sentence)}</p>
${list(report.finding.details)}
<p class="meta">Confidence ${esc(report.confidence.level)}${report.confidence.reasons.length ? `: ${esc(report.confidence.reasons.join('; '))}` : ''}.</p>
${report.otherFindings.length ? `<h3>Also</h3>${list(report.otherFindings.map((f) => f.sentence))}` : ''}
</section>
${attachmentsHtml(attachments)}
<section>
<h2>Busy time per subtask (window mean, ms/s)</h2>
${heatmap(report.vertices)}
</section>
<section>
<h2>Busy time per vertex: busiest subtask and mean (ms/s)</h2>
${vertexBars(report.vertices)}
</section>
<section>
<h2>Checkpoints in the window</h2>
${checkpointChart(report.checkpoints)}
${outliers(report)}
</section>
<section>
<h2>Vertices</h2>
${verticesTable(report.vertices)}
</section>
<section>
<h2>Subtasks</h2>
${subtasksTable(report)}
</section>
${stateSection(report.state ?? null)}
${beforeAfterSection(report.operations ?? [])}
${report.hotKeys ? `<section><h2>Hot keys</h2>${table(['Key', 'Share', 'Key group', 'Subtask'], report.hotKeys.map((k) => [k.key, pct(k.share * 100), k.keyGroup, k.subtask]))}</section>` : ''}
<section>
<h2>Not known</h2>
${report.notKnown.length ? list(report.notKnown) : '<p>Nothing: every figure was reported.</p>'}
${report.window.events.length ? `<h3>Events in the window</h3>${table(['Time (UTC)', 'Event'], report.window.events.map((e) => [iso(e.t), e.message]))}` : ''}
</section>
<footer><p class="meta">Flink Ops Console skew report, schema ${report.schemaVersion}. Per-subtask figures of every subtask: export the CSV or the JSON.</p></footer>
</body>
</html>
`;
}

/** Before vs after each rescale or resubmit in the window; nothing when the job had none. */
function beforeAfterSection(operations: BeforeAfter[]): string {
  if (operations.length === 0) return '';
  const figure = (unit: BeforeAfterRow['unit'], v: number | null): string => {
    if (v === null) return '';
    if (unit === 'ratio') return `${v.toFixed(2)}×`;
    if (unit === 'bytes') return bytes(v);
    return `${num(v)} ${unit}`;
  };
  const change = (c: number | null) => {
    if (c === null) return '';
    const percent = Math.round((c - 1) * 100);
    return percent === 0 ? '±0%' : `${percent > 0 ? '+' : '−'}${Math.abs(percent)}%`;
  };
  const one = (o: BeforeAfter) => `<h3>${esc(o.kind === 'rescale' ? 'Rescale' : 'Resubmit')} started ${esc(iso(o.startedAt))} (${esc(o.entryId)})</h3>
<p class="meta">Before: ${o.before ? `${o.before.samples} samples, ${esc(iso(o.before.from))} – ${esc(iso(o.before.to))}` : 'no samples'}. After: ${o.after ? `${o.after.samples} samples, ${esc(iso(o.after.from))} – ${esc(iso(o.after.to))}` : 'no samples yet'}.</p>
${table(['Figure', 'Before', 'After', 'Change'], o.rows.map((r) => [r.label, figure(r.unit, r.before), figure(r.unit, r.after), change(r.change)]))}
${o.prediction ? `<p data-testid="report-before-after-prediction">${esc(predictionInWords(o.prediction))}</p>` : ''}
${o.notes.length ? list(o.notes) : ''}`;
  return `<section data-testid="report-before-after">
<h2>Before/after</h2>
${operations.map(one).join('\n')}
</section>`;
}

/** The rehearsal's prediction of the change, in one sentence (beside the table of what happened). */
function predictionInWords(p: NonNullable<BeforeAfter['prediction']>): string {
  const change = p.proposal.kind === 'salt' ? `salting into ${p.proposal.buckets} buckets` : `parallelism ${p.proposal.parallelism}`;
  const ratio = (v: number | null) => (v === null ? 'unknown' : `${v.toFixed(2)}×`);
  return `Rehearsed ${iso(p.rehearsedAt)} (${change} of ${p.vertexName}): the twin predicted busy max/mean ${ratio(p.baseline.busyMaxOverMean)} → ${ratio(p.predicted.busyMaxOverMean)} and ${num(p.baseline.throughputRecordsPerSecond)} → ${num(p.predicted.throughputRecordsPerSecond)} records/s.`;
}

/** Where the state lives and how fast it grows; nothing for a report without checkpoints (or made before the section). */
function stateSection(state: ReportState | null): string {
  if (!state) return '';
  const rows = state.vertices.map((v) => [
    v.name,
    v.parallelism,
    v.totalBytes === null ? '' : bytes(v.totalBytes),
    v.trend,
    growth(v.growthPerHour),
    growth(v.historyGrowthPerHour),
    v.stateSkewPercent === null ? '' : pct(v.stateSkewPercent),
    v.hotSubtasks.join(', '),
    v.bytesPerKey === null ? '' : bytes(v.bytesPerKey),
  ]);
  return `<section data-testid="report-state">
<h2>State</h2>
<p class="sentence"><span class="suspect">${esc(state.suspectLabel)}</span> ${esc(state.sentence)}</p>
<p class="meta">Confidence ${esc(state.confidence.level)}${state.confidence.reasons.length ? `: ${esc(state.confidence.reasons.join('; '))}` : ''}. From ${state.checkpoints} completed checkpoint${state.checkpoints === 1 ? '' : 's'}.</p>
${state.alsoSeen.length ? `<h3>Also seen</h3>${list(state.alsoSeen)}` : ''}
${state.projection ? `<p data-testid="report-state-projection">${esc(state.projection)}</p>` : ''}
${table(['Vertex', 'Parallelism', 'State', 'Trend', 'Growth (window)', 'Growth (history)', 'State skew', 'Hot subtasks', 'Bytes per key'], rows)}
<p class="meta">${esc(state.rocksdb)}</p>
${state.notKnown.length ? list(state.notKnown) : ''}
</section>`;
}

function growth(perHour: number | null): string {
  return perHour === null ? '' : `${perHour < 0 ? '−' : '+'}${bytes(Math.abs(perHour))}/h`;
}

function describeSource(report: SkewReport): string {
  const w = report.window;
  const cluster = [report.cluster.name ?? report.cluster.id, report.cluster.url, report.cluster.flinkVersion ? `Flink ${report.cluster.flinkVersion}` : null].filter(Boolean).join(', ');
  const span = w.from === null || w.to === null ? 'no samples' : `${iso(w.from)} to ${iso(w.to)} UTC`;
  return `Job ${report.job.id}, ${report.job.state}, on ${cluster}. Window: last ${seconds(w.requestedMs)}, ${span}, ${w.samples} samples${w.intervalMs ? ` every ${seconds(w.intervalMs)}` : ''}.`;
}

/** Rows: vertices; columns: subtasks folded into at most HEATMAP_COLUMNS cells, each the hottest subtask it holds. */
function heatmap(vertices: ReportVertex[]): string {
  const label = 220;
  const cell = 5;
  // Rows a finger tall for a few vertices; thin ones for a big job, so that 200 still fit a page.
  const rowHeight = vertices.length <= 20 ? 24 : 14;
  const width = label + HEATMAP_COLUMNS * cell + 10;
  const rows = vertices.map((v, r) => {
    const values = v.subtasks.busyMsPerSecondMean;
    const per = Math.max(1, Math.ceil(values.length / HEATMAP_COLUMNS));
    const cells: string[] = [];
    for (let c = 0; c * per < values.length; c++) {
      let max: number | null = null;
      let at = c * per;
      for (let k = c * per; k < Math.min(values.length, (c + 1) * per); k++) {
        const value = values[k];
        if (!Number.isNaN(value) && (max === null || value > max)) {
          max = value;
          at = k;
        }
      }
      const w = (HEATMAP_COLUMNS * cell) / Math.ceil(values.length / per);
      const tip = per === 1 ? `subtask ${at}` : `subtasks ${c * per}-${Math.min(values.length, (c + 1) * per) - 1} (hottest ${at})`;
      cells.push(`<rect x="${fmt(label + c * w)}" y="${r * rowHeight}" width="${fmt(w)}" height="${rowHeight - 2}" fill="${heat(max)}"><title>${esc(v.name)} ${tip}: ${max === null ? 'no figure' : `${num(max)} ms/s`}</title></rect>`);
    }
    return `<text x="0" y="${r * rowHeight + rowHeight / 2 + 2}" class="label">${esc(truncate(v.name, 34))}</text>${cells.join('')}`;
  });
  const height = Math.max(1, vertices.length) * rowHeight + 20;
  const legend = [0, 250, 500, 750, 1000].map((v, i) => `<rect x="${label + i * 60}" y="${height - 14}" width="12" height="10" fill="${heat(v)}"/><text x="${label + i * 60 + 16}" y="${height - 5}" class="label">${v}</text>`).join('');
  return `<svg data-testid="report-heatmap" role="img" aria-label="Busy time heatmap" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${rows.join('')}${legend}</svg>`;
}

/** Per vertex: the busiest subtask's and the mean busy time, side by side (the gap is the skew). */
function vertexBars(vertices: ReportVertex[]): string {
  const label = 220;
  const scale = 0.5; // 1000 ms/s → 500 px
  const rowHeight = 22;
  const bars = vertices.map((v, r) => {
    const busy = v.metrics.find((m) => m.metric === 'busyTimeMsPerSecond');
    const y = r * rowHeight;
    const max = busy?.max ?? 0;
    const mean = busy?.mean ?? 0;
    return (
      `<text x="0" y="${y + 14}" class="label">${esc(truncate(v.name, 34))}</text>` +
      `<rect x="${label}" y="${y + 2}" width="${fmt(max * scale)}" height="8" class="bar-max"><title>busiest subtask ${busy?.maxSubtask ?? '-'}: ${num(max)} ms/s</title></rect>` +
      `<rect x="${label}" y="${y + 11}" width="${fmt(mean * scale)}" height="8" class="bar-mean"><title>mean: ${num(mean)} ms/s</title></rect>` +
      `<text x="${label + 510}" y="${y + 14}" class="label">${busy?.maxOverMean ? `${num(busy.maxOverMean)}× mean` : ''}</text>`
    );
  });
  const height = Math.max(1, vertices.length) * rowHeight + 4;
  return `<svg data-testid="report-vertex-bars" role="img" aria-label="Busy time per vertex" viewBox="0 0 ${label + 600} ${height}" width="${label + 600}" height="${height}">${bars.join('')}</svg><p class="meta"><span class="key bar-max"></span> busiest subtask <span class="key bar-mean"></span> mean over subtasks</p>`;
}

/** Each checkpoint of the window: a bar of its end-to-end duration, red when it failed. */
function checkpointChart(checkpoints: ReportCheckpoint[]): string {
  if (checkpoints.length === 0) return '<p data-testid="report-checkpoint-chart">No checkpoint was triggered inside the window (or the history has none).</p>';
  const height = 160;
  const LEFT = 70;
  const bar = Math.max(4, Math.min(24, Math.floor(700 / checkpoints.length)));
  const top = Math.max(1, ...checkpoints.map((c) => c.endToEndDurationMs ?? 0));
  const bars = checkpoints.map((c, i) => {
    const h = ((c.endToEndDurationMs ?? 0) / top) * (height - 30);
    const failed = c.status !== 'COMPLETED';
    return `<rect x="${LEFT + i * (bar + 2)}" y="${fmt(height - 20 - h)}" width="${bar}" height="${fmt(Math.max(1, h))}" class="${failed ? 'cp-failed' : 'cp-ok'}"><title>checkpoint ${c.id} ${c.status}: ${c.endToEndDurationMs === null ? 'no duration' : `${num(c.endToEndDurationMs)} ms`}, ${c.stateBytes === null ? '' : bytes(c.stateBytes)}</title></rect>`;
  });
  const width = Math.max(200, LEFT + checkpoints.length * (bar + 2) + 10);
  const right = LEFT + checkpoints.length * (bar + 2);
  return `<svg data-testid="report-checkpoint-chart" role="img" aria-label="Checkpoint durations" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><text x="${LEFT - 6}" y="14" text-anchor="end" class="label">${num(top)} ms</text><text x="${LEFT - 6}" y="${height - 20}" text-anchor="end" class="label">0</text><line x1="${LEFT - 2}" y1="${height - 20}" x2="${right}" y2="${height - 20}" class="axis"/>${bars.join('')}<text x="${LEFT}" y="${height - 5}" class="label">#${checkpoints[0].id}</text>${checkpoints.length > 1 ? `<text x="${right}" y="${height - 5}" text-anchor="end" class="label">#${checkpoints[checkpoints.length - 1].id}</text>` : ''}</svg>
${table(['Checkpoint', 'Status', 'Triggered (UTC)', 'Duration', 'Size (incremental)', 'State size'], checkpoints.map((c) => [`${c.id}${c.isSavepoint ? ' (savepoint)' : ''}`, c.status, iso(c.triggerTimestamp), c.endToEndDurationMs === null ? '' : `${num(c.endToEndDurationMs)} ms`, c.checkpointedBytes === null ? '' : bytes(c.checkpointedBytes), c.stateBytes === null ? '' : bytes(c.stateBytes)]))}`;
}

function outliers(report: SkewReport): string {
  if (!report.checkpointOutliers) return '';
  if (report.checkpointOutliers.length === 0) return '<p>No subtask stood out in the newest checkpoint with details.</p>';
  return `<h3>Checkpoint outliers</h3>${list(report.checkpointOutliers.map((o) => `Checkpoint ${o.checkpointId}: ${o.sentence}`))}`;
}

function verticesTable(vertices: ReportVertex[]): string {
  const rows = vertices.map((v) => {
    const busy = v.metrics.find((m) => m.metric === 'busyTimeMsPerSecond');
    return [v.name, `${v.parallelism}${v.maxParallelism ? ` / ${v.maxParallelism}` : ''}`, v.keyed ? 'yes' : 'no', v.unavailable ?? v.pattern, v.backpressureLevel ?? '', ...skewCells(busy), v.hotSubtasks.join(', ')];
  });
  return table(['Vertex', 'Parallelism / max', 'Keyed', 'Load', 'Backpressure', 'Busy max (ms/s)', 'Busy mean', 'Skew %', 'Max / mean', 'Max / median', 'Hot subtasks'], rows);
}

function skewCells(m: MetricSkew | undefined): string[] {
  if (!m) return ['', '', '', '', ''];
  const maybe = (v: number | null, format: (n: number) => string) => (v === null ? '' : format(v));
  return [maybe(m.max, num), maybe(m.mean, num), maybe(m.dataSkewPercent, pct), maybe(m.maxOverMean, (x) => `${num(x)}×`), maybe(m.maxOverMedian, (x) => `${num(x)}×`)];
}

/** Every subtask when there are few; else the hot ones of each vertex (the CSV has all). */
function subtasksTable(report: SkewReport): string {
  const total = report.vertices.reduce((sum, v) => sum + v.subtasks.subtask.length, 0);
  const all = total <= FULL_TABLE_ROWS;
  const rows: unknown[][] = [];
  for (const v of report.vertices) {
    const s = v.subtasks;
    const indices = all ? Array.from(s.subtask, (_, k) => k) : v.hotSubtasks;
    for (const k of indices) {
      const state = subtaskCell(s.checkpointedStateBytes, k);
      rows.push([
        v.name,
        String(k),
        s.endpoint[k] ?? s.taskManagerId[k] ?? '',
        subtaskCell(s.recordsInPerSecond, k),
        subtaskCell(s.recordsOutPerSecond, k),
        subtaskCell(s.busyMsPerSecondMean, k),
        subtaskCell(s.busyMsPerSecondMax, k),
        subtaskCell(s.backPressuredMsPerSecondMean, k),
        subtaskCell(s.idleMsPerSecondMean, k),
        state === null ? '' : bytes(state as number),
        Number.isNaN(s.keyGroupStart[k]) ? '' : `${s.keyGroupStart[k]}-${s.keyGroupEnd[k]}`,
        s.hot[k] ? 'hot' : '',
      ]);
    }
  }
  const note = all ? '' : `<p class="meta">${total} subtasks: the hot ones of each vertex are shown; the CSV and JSON exports hold every subtask.</p>`;
  return `${note}${table(['Vertex', 'Subtask', 'TaskManager', 'Records in/s', 'Records out/s', 'Busy mean (ms/s)', 'Busy max', 'Back-pressured mean', 'Idle mean', 'Checkpointed state', 'Key groups', ''], rows.map((r) => r.map((c) => (typeof c === 'number' ? num(c) : c))))}`;
}

/** White (idle) to deep red (1000 ms/s busy); grey for no figure. */
function heat(value: number | null): string {
  if (value === null) return '#d9d9d9';
  const t = Math.max(0, Math.min(1, value / 1000));
  const g = Math.round(245 - 200 * t);
  const b = Math.round(240 - 210 * t);
  return `rgb(${Math.round(255 - 45 * t)},${g},${b})`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px}
.meta{color:#57606a;font-size:12px}
.finding{border-left:6px solid #57606a;background:#f6f8fa;padding:8px 16px}
.severity-critical{border-color:#cf222e}.severity-warning{border-color:#bf8700}.severity-ok{border-color:#1a7f37}
.sentence{font-size:17px;font-weight:600}
.suspect{display:inline-block;padding:0 6px;border-radius:3px;background:#eaeef2;font-size:13px}
svg{display:block;max-width:100%;height:auto}
svg .label{font-size:11px;fill:#1b1f24}
.bar-max{fill:#cf222e;background:#cf222e}.bar-mean{fill:#8c959f;background:#8c959f}
.cp-ok{fill:#2f81f7}.cp-failed{fill:#cf222e}.axis{stroke:#8c959f}
.key{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
table{border-collapse:collapse;width:100%;font-size:12px;margin:8px 0}
th,td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td:nth-child(n+2){font-variant-numeric:tabular-nums}
svg.flame text{font-size:10px;fill:#1b1f24}
pre.log{font:11px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;border:1px solid #d0d7de;padding:8px;white-space:pre-wrap;word-break:break-all}
@media print{
  body{margin:0;max-width:none;font-size:11px}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  section{break-inside:avoid-page}
  table{break-inside:auto}tr{break-inside:avoid}thead{display:table-header-group}
  h2{break-after:avoid}
}
@page{size:A4 landscape;margin:12mm}
`;
