import { stringify } from 'csv-stringify/sync';
import { SKEW_METRICS } from '../contracts/diagnosis.ts';
import { METRIC_FIGURES, SUBTASK_COLUMNS, VERTEX_CSV_COLUMNS } from './report-columns.ts';
import type { SkewReport } from './skew-report.ts';

const SUBTASK_CSV_COLUMNS = ['vertex_id', 'vertex_name', ...SUBTASK_COLUMNS.map((c) => c.csv)];

/**
 * Pure: one row per subtask (vertices in plan order, subtasks by index), the columns of report-columns.ts after the
 * vertex's id and name; empty cells where a figure is unknown. RFC 4180 quoting by csv-stringify, `\r\n`-free.
 */
export function subtasksCsv(report: SkewReport): string {
  return [...subtasksCsvChunks(report)].join('');
}

/**
 * The same text a vertex at a time: a writer streams a 200 × 1,024 job's CSV (tens of MB) without holding it.
 * Five million cells through csv-stringify one by one took over 2 s and 400 MB; numbers never need quoting, so only
 * the text cells go through it, once per distinct value (statuses, TaskManagers and endpoints repeat).
 */
export function* subtasksCsvChunks(report: SkewReport): Generator<string> {
  yield stringify([], { header: true, columns: SUBTASK_CSV_COLUMNS });
  const quoted = new Map<string, string>();
  const cell = (value: unknown): string => {
    if (typeof value === 'number') return Number.isNaN(value) ? '' : String(value);
    if (value === null || value === undefined) return '';
    const text = String(value);
    let field = quoted.get(text);
    if (field === undefined) {
      field = stringify([[text]]).slice(0, -1);
      quoted.set(text, field);
    }
    return field;
  };
  for (const vertex of report.vertices) {
    const columns = SUBTASK_COLUMNS.map((c) => vertex.subtasks[c.json] as ArrayLike<unknown>);
    const prefix = `${cell(vertex.id)},${cell(vertex.name)}`;
    const lines: string[] = [];
    for (let k = 0; k < columns[0].length; k++) {
      let line = prefix;
      for (const column of columns) line += `,${cell(column[k])}`;
      lines.push(line);
    }
    yield `${lines.join('\n')}\n`;
  }
}

/** Pure: one row per vertex: its shape, load pattern, hot subtasks, and Flink's skew figures per metric. */
export function verticesCsv(report: SkewReport): string {
  const rows = report.vertices.map((v) => {
    const figures = SKEW_METRICS.flatMap((metric) => {
      const m = v.metrics.find((x) => x.metric === metric);
      return METRIC_FIGURES.map(([, key]) => (m ? m[key] : null));
    });
    return [
      v.id,
      v.name,
      v.parallelism,
      v.maxParallelism,
      v.keyed,
      v.status,
      v.pattern,
      v.backpressureLevel,
      v.hotSubtasks.join(' '),
      v.restartedSubtasks.join(' '),
      ...figures,
    ];
  });
  return stringify(rows, {
    header: true,
    columns: [...VERTEX_CSV_COLUMNS],
    cast: { number: (n) => String(n), boolean: (b) => (b ? 'true' : 'false') },
  });
}
