import { describe, expect, it } from 'vitest';
import type { HeatmapRow } from '../../../engine/contracts/diagnosis';
import { arrangeRows, cellAt, clampPan, DEFAULT_FILTER, heatImage, heatRgb, hottestCell, type GridView } from './heatmapModel';

function row(name: string, values: Array<number | null>, extra: Partial<HeatmapRow> = {}): HeatmapRow {
  return { vertexId: name, name, parallelism: values.length, maxParallelism: 128, keyed: false, values, taskManagers: values.map(() => 0), dataSkewPercent: null, maxOverMean: null, hot: [], ...extra };
}

const rows = [
  row('Source: events', [10, 10]),
  row('tenant-cost', [5, 1000, 3, null], { keyed: true, dataSkewPercent: 100, maxOverMean: 3.9, hot: [1] }),
  row('assemble', [300, 0, 0], { keyed: true, dataSkewPercent: 66.7, maxOverMean: 3 }),
];

describe('arrangeRows', () => {
  it('keeps graph order by default and sorts by skew, max/mean or name; missing figures last', () => {
    expect(arrangeRows(rows, DEFAULT_FILTER).map((r) => r.name)).toEqual(['Source: events', 'tenant-cost', 'assemble']);
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, order: 'skew' }).map((r) => r.name)).toEqual(['tenant-cost', 'assemble', 'Source: events']);
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, order: 'maxOverMean' }).map((r) => r.name)).toEqual(['tenant-cost', 'assemble', 'Source: events']);
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, order: 'name' }).map((r) => r.name)).toEqual(['assemble', 'Source: events', 'tenant-cost']);
  });

  it('filters by name, hot subtasks and keyed input', () => {
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, text: 'COST' }).map((r) => r.name)).toEqual(['tenant-cost']);
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, hotOnly: true }).map((r) => r.name)).toEqual(['tenant-cost']);
    expect(arrangeRows(rows, { ...DEFAULT_FILTER, keyedOnly: true }).map((r) => r.name)).toEqual(['tenant-cost', 'assemble']);
  });
});

describe('the grid', () => {
  const view: GridView = { originX: 100, originY: 20, cellWidth: 10, cellHeight: 8, panX: 0, panY: 0 };

  it('finds the cell under the pointer, with the pan, and nothing outside a row\'s parallelism', () => {
    expect(cellAt(115, 29, view, rows)).toEqual({ row: 1, subtask: 1 });
    expect(cellAt(99, 29, view, rows)).toBeNull();
    expect(cellAt(125, 22, view, rows)).toBeNull(); // row 0 has 2 subtasks
    expect(cellAt(105, 22, { ...view, panX: 20, panY: 8 }, rows)).toEqual({ row: 1, subtask: 2 });
    expect(cellAt(105, 45, view, rows)).toBeNull();
  });

  it('never pans past the content', () => {
    expect(clampPan({ ...view, panX: -5, panY: 999 }, 4, 3, 120, 40)).toMatchObject({ panX: 0, panY: 4 });
    expect(clampPan({ ...view, panX: 999 }, 4, 3, 1000, 1000)).toMatchObject({ panX: 0 });
  });

  it('knows the hottest cell', () => {
    expect(hottestCell(rows)).toEqual({ row: 1, subtask: 1, value: 1000 });
    expect(hottestCell([row('x', [null])])).toBeNull();
  });
});

describe('colours', () => {
  it('run from idle blue to busy red, with grey for no value', () => {
    expect(heatRgb(0, 1000)).toEqual([33, 102, 172]);
    expect(heatRgb(1000, 1000)).toEqual([196, 30, 36]);
    expect(heatRgb(5000, 1000)).toEqual([196, 30, 36]);
    expect(heatRgb(null, 1000)).toEqual([38, 46, 58]);
    expect(heatRgb(3, 0)).toEqual([33, 102, 172]);
  });

  it('paint one pixel per cell, ms/s on a fixed 0..1,000 scale, other units to their maximum or per row', () => {
    const image = heatImage({ unit: 'ms/s', max: 1000 }, rows, false);
    expect([image.width, image.height]).toEqual([4, 3]);
    const pixel = (x: number, y: number) => Array.from(image.data.slice((y * 4 + x) * 4, (y * 4 + x) * 4 + 3));
    expect(pixel(1, 1)).toEqual([196, 30, 36]);
    expect(pixel(3, 1)).toEqual([38, 46, 58]); // a subtask without a value
    expect(pixel(3, 0)).toEqual([13, 17, 23]); // past the row's parallelism
    const perRow = heatImage({ unit: 'records/s', max: 1000 }, rows, true);
    expect(Array.from(perRow.data.slice(0, 3))).toEqual([196, 30, 36]); // 10 is the top of its own row
  });
});
