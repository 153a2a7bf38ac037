import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SubtaskRow, VertexSubtasks } from '../../../engine/contracts/jobs';
import { sortSubtasks } from './sortSubtasks';
import { SUBTASK_COLUMNS, type SubtaskTableRow } from './subtaskColumns';
import { INITIAL_RATE_STATE, nextRateState } from './subtaskRates';
import { SUBTASK_ROW_HEIGHT, SubtasksTable } from './SubtasksTable';

/**
 * A vertex of parallelism 1,000 (a hot key on subtask 737): the table must still read at a glance. Rendered with
 * react-dom/server, so this runs in Node, in a box tall enough for every row (the table renders only the rows its box
 * shows); the browser side (1,280 px, scrolling, 4,096 rows) is e2e/specs/web/layout and big-job.
 */
const P = 1000;
const HOT = 737;

function row(index: number, at: number): SubtaskRow {
  const hot = index === HOT;
  return {
    index,
    attempt: 0,
    status: index === 5 ? 'INITIALIZING' : 'RUNNING',
    endpoint: `10.0.${Math.floor(index / 250)}.${index % 250}:41000`,
    taskManagerId: `tm-${Math.floor(index / 4)}`,
    recordsIn: index === 5 ? null : (hot ? 40 : 1) * 1000 * at,
    recordsOut: (hot ? 40 : 1) * 900 * at,
    bytesIn: 100 * 1000 * at,
    bytesOut: 90 * 1000 * at,
    clockMs: null,
    busyTimeMsPerSecond: index === 5 ? null : hot ? 1000 : index % 97,
    backPressuredTimeMsPerSecond: hot ? 0 : 10,
    idleTimeMsPerSecond: hot ? 0 : 900,
    backpressureLevel: index === 5 ? null : 'ok',
    watermark: 1_767_225_600_000 + index,
  };
}

function refresh(at: number): VertexSubtasks {
  // Flink answers in subtask order; shuffle to prove rates are matched by index, not position.
  const subtasks = Array.from({ length: P }, (_, i) => row(i, at)).reverse();
  return { clusterId: 'c', jobId: 'j', vertexId: 'v', name: 'tenant-cost', parallelism: P, subtasks, backpressureLevel: 'ok', fetchedAt: at * 1000, requestCount: 3 };
}

function tableRows(): SubtaskTableRow[] {
  const state = nextRateState(nextRateState(INITIAL_RATE_STATE, refresh(10)), refresh(20));
  return refresh(20).subtasks.map((r) => ({ ...r, rates: state.rates.get(r.index) ?? null }));
}

describe('a 1,000-subtask table', () => {
  const rows = sortSubtasks(tableRows(), { column: 'busyTimeMsPerSecond', direction: 'desc' });
  const render = (initialHeight?: number) =>
    renderToStaticMarkup(createElement(SubtasksTable, { rows, sort: { column: 'busyTimeMsPerSecond', direction: 'desc' }, onSort: () => {}, now: 1_767_225_600_000, initialHeight }));
  const html = render(P * SUBTASK_ROW_HEIGHT);
  const bodyRows = [...html.matchAll(/<tr data-testid="subtask-row-(\d+)"/g)].map((m) => Number(m[1]));

  it('shows every subtask once, the hottest first and the one without figures last', () => {
    expect(bodyRows).toHaveLength(P);
    expect(new Set(bodyRows).size).toBe(P);
    expect(bodyRows[0]).toBe(HOT);
    expect(bodyRows.at(-1)).toBe(5);
  });

  it('renders only the rows its box shows (and a few beyond), and keeps the height of the others', () => {
    const windowed = render(600);
    const shown = [...windowed.matchAll(/<tr data-testid="subtask-row-(\d+)"/g)].map((m) => Number(m[1]));
    expect(shown.length).toBeGreaterThanOrEqual(600 / SUBTASK_ROW_HEIGHT);
    expect(shown.length).toBeLessThan(40);
    expect(shown).toEqual(bodyRows.slice(0, shown.length));
    const spacer = /<tr class="virtual-spacer" aria-hidden="true" style="height:(\d+)px"/.exec(windowed);
    expect(Number(spacer?.[1])).toBe((P - shown.length) * SUBTASK_ROW_HEIGHT);
  });

  it('pins the index column: every row starts with its sticky subtask index', () => {
    const firstCells = [...html.matchAll(/<tr data-testid="subtask-row-(\d+)"[^>]*><td class="([^"]*)"[^>]*>(\d+)<\/td>/g)];
    expect(firstCells).toHaveLength(P);
    for (const [, testIdIndex, className, shown] of firstCells) {
      expect(className).toBe('num sticky-column');
      expect(shown).toBe(testIdIndex);
    }
  });

  it('names the unit of every figure in its header, and labels records and bytes as totals with rates', () => {
    const headers = [...html.matchAll(/<th [^>]*>(.*?)<\/th>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').replace(/[▲▼]/g, '').trim());
    expect(headers).toEqual([
      '#',
      'Status',
      'BP level',
      'Busy ms/s',
      'Back-pressured ms/s',
      'Idle ms/s',
      'Watermark local time',
      'Records in total · /s',
      'Records out total · /s',
      'Bytes in total · /s',
      'Bytes out total · /s',
      'Endpoint / TaskManager',
    ]);
  });

  it('shows each total with its rate since the previous refresh beside it', () => {
    const hot = html.slice(html.indexOf(`data-testid="subtask-row-${HOT}"`), html.indexOf(`data-testid="subtask-row-${rows[1].index}"`));
    // 40 × 1000 records a second over the 10 s between the two refreshes: 800k in total, 40k/s.
    expect(hot).toContain('<span class="total-rate__total">800k</span><span class="total-rate__rate">40k/s</span>');
    expect(rows.find((r) => r.index === 1)!.rates).toEqual({ recordsInPerSecond: 1000, recordsOutPerSecond: 900, bytesInPerSecond: 100_000, bytesOutPerSecond: 90_000 });
  });

  it('keeps the identifying and the alarming columns within 1,280 px: they come first and fit in the page\'s width', () => {
    // 1,280 px minus the cluster sidebar (260), the page's padding (48) and the panel's (36 + borders) and a scrollbar.
    const available = 1280 - 260 - 48 - 38 - 16;
    const ids = SUBTASK_COLUMNS.map((c) => c.id);
    const throughWatermark = SUBTASK_COLUMNS.slice(0, ids.indexOf('watermark') + 1);
    expect(throughWatermark.map((c) => c.id)).toEqual(
      expect.arrayContaining(['index', 'status', 'backpressureLevel', 'busyTimeMsPerSecond', 'backPressuredTimeMsPerSecond', 'idleTimeMsPerSecond', 'watermark']),
    );
    expect(throughWatermark.reduce((sum, c) => sum + c.width, 0)).toBeLessThanOrEqual(available);
    expect(SUBTASK_COLUMNS.filter((c) => c.sticky).map((c) => c.id)).toEqual(['index']);
  });
});
