import type { MetricSkew, SkewMetric, VertexDiagnosis } from '../../../engine/contracts/diagnosis';
import type { RowFilter } from './heatmapModel';

export type SkewColumn = 'name' | 'parallelism' | 'pattern' | 'dataSkewPercent' | 'maxOverMean' | 'maxOverMedian' | 'max' | 'hot';

export interface SkewSort {
  column: SkewColumn;
  direction: 'asc' | 'desc';
}

export interface SkewTableRow {
  vertex: VertexDiagnosis;
  figures: MetricSkew | null;
  index: number;
}

const PATTERN_RANK = { hot: 0, 'few-keys': 1, even: 2, idle: 3, unknown: 4 } as const;

/** The skew table's rows for one metric: filtered like the heatmap, sorted by a column (missing values last). */
export function skewTableRows(vertices: readonly VertexDiagnosis[], metric: SkewMetric, filter: RowFilter, sort: SkewSort): SkewTableRow[] {
  const text = filter.text.trim().toLowerCase();
  const rows = vertices
    .map((vertex, index) => ({ vertex, figures: vertex.metrics.find((m) => m.metric === metric) ?? null, index }))
    .filter(({ vertex, figures }) => (!text || vertex.name.toLowerCase().includes(text)) && (!filter.hotOnly || (figures?.hot.length ?? 0) > 0) && (!filter.keyedOnly || vertex.keyed));
  const factor = sort.direction === 'asc' ? 1 : -1;
  const valueOf = (row: SkewTableRow): number | string | null => {
    switch (sort.column) {
      case 'name':
        return row.vertex.name;
      case 'parallelism':
        return row.vertex.parallelism;
      case 'pattern':
        return PATTERN_RANK[row.vertex.pattern];
      case 'hot':
        return row.figures?.hot.length ?? null;
      default:
        return row.figures?.[sort.column] ?? null;
    }
  };
  return rows.sort((a, b) => {
    const va = valueOf(a);
    const vb = valueOf(b);
    if (va === null && vb === null) return a.index - b.index;
    if (va === null) return 1;
    if (vb === null) return -1;
    const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
    return cmp * factor || a.index - b.index;
  });
}

/** A click on a header: the same column flips, a new one starts with the worst first (names A→Z). */
export function nextSkewSort(current: SkewSort, column: SkewColumn): SkewSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'name' || column === 'pattern' ? 'asc' : 'desc' };
}
