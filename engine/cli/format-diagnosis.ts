import { SKEW_METRIC_LABEL, SKEW_METRIC_UNIT, type JobDiagnosis, type MetricSkew } from '../contracts/diagnosis.ts';
import { formatSpan } from '../analysis/root-cause.ts';
import { formatTable } from './format-table.ts';
import { printable } from './terminal-text.ts';

/** `flink-ops diagnose` for a terminal: the finding first, then the evidence, then what was not known. */
export function formatDiagnosis(d: JobDiagnosis, source: string): string {
  const out: string[] = [];
  const span = d.window.samples > 1 ? formatSpan(d.window.spanMs) : 'no span';
  out.push(`${printable(`${d.jobName} (${d.jobId}) ${d.jobState}`)}: ${d.window.samples} samples over ${span} (${source}), confidence ${d.confidence.level}`);
  if (d.confidence.reasons.length > 0) out.push(`  (${d.confidence.reasons.join('; ')})`);
  out.push('', d.finding.sentence);
  if (d.basis?.source === 'flink-now') out.push(`  (${basisInWords(d.basis.fetchedAt, d.basis.reason)})`);
  for (const line of d.finding.details) out.push(`  - ${line}`);
  for (const other of d.otherFindings) {
    out.push('', `Also: ${other.sentence}`);
    for (const line of other.details) out.push(`  - ${line}`);
  }

  const hotRows: string[][] = [];
  for (const v of d.vertices) {
    for (const m of v.metrics) {
      for (const h of m.hot) {
        hotRows.push([
          v.name,
          SKEW_METRIC_LABEL[m.metric],
          String(h.subtask),
          h.endpoint ?? h.taskManagerId ?? '-',
          value(h.value, m),
          h.timesMean === null ? '-' : `${h.timesMean.toFixed(1)}×`,
          percent(m.dataSkewPercent),
        ]);
      }
    }
  }
  out.push('', 'Hot subtasks');
  out.push(hotRows.length > 0 ? formatTable(['VERTEX', 'METRIC', 'SUBTASK', 'TASKMANAGER', 'VALUE', '×MEAN', 'SKEW%'], hotRows).trimEnd() : '  none');

  out.push('', 'Per vertex (load metric over the window)');
  out.push(
    formatTable(
      ['VERTEX', 'P', 'KEYED', 'PATTERN', 'BACKPRESSURE', 'LOAD', 'MAX', 'SKEW%', 'MAX/MEAN', 'MAX/MEDIAN'],
      d.vertices.map((v) => {
        const m = v.metrics.find((x) => x.metric === v.loadMetric);
        return [
          v.name,
          String(v.parallelism),
          v.keyed ? 'yes' : 'no',
          v.unavailable ? `unavailable: ${v.unavailable}` : v.pattern,
          v.backpressureLevel ?? '-',
          m ? SKEW_METRIC_LABEL[m.metric] : '-',
          m?.max == null ? '-' : value(m.max, m),
          percent(m?.dataSkewPercent ?? null),
          ratio(m?.maxOverMean ?? null),
          ratio(m?.maxOverMedian ?? null),
        ];
      }),
    ).trimEnd(),
  );

  out.push('', 'Checkpoint outliers');
  out.push(
    d.checkpointOutliers === null
      ? '  not analysed (see below)'
      : d.checkpointOutliers.length === 0
        ? '  none'
        : d.checkpointOutliers.map((o) => `  checkpoint ${o.checkpointId}: ${printable(o.sentence)}`).join('\n'),
  );
  if (d.notKnown.length > 0) {
    out.push('', 'Not known');
    for (const line of d.notKnown) out.push(`  - ${line}`);
  }
  return `${out.join('\n')}\n`;
}

function value(v: number, m: MetricSkew): string {
  const unit = SKEW_METRIC_UNIT[m.metric];
  return `${v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)} ${unit}`;
}

function percent(p: number | null): string {
  return p === null ? '-' : `${p.toFixed(1)}%`;
}

function ratio(r: number | null): string {
  return r === null ? '-' : `${r.toFixed(1)}×`;
}

/** What a first look rests on, as the job page says it too. */
export function basisInWords(fetchedAt: number, reason: 'no-evidence' | 'flink-high'): string {
  const why = reason === 'flink-high' ? 'the window shows nothing wrong, but Flink reports a vertex HIGH now' : "the window's history holds too little evidence for a verdict yet";
  return `from Flink's current figures at ${new Date(fetchedAt).toISOString().slice(11, 19)} UTC: ${why}`;
}
