import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { HeatmapRow, SkewHeatmap } from '../../../engine/contracts/diagnosis';
import { testIds } from '../../testIds';
import { cellAt, clampPan, columnCount, heatImage, hottestCell, type GridView } from './heatmapModel';
import { formatMetricValue } from './format';

const LABEL_WIDTH = 190;
const HEADER_HEIGHT = 18;
const MAX_CELL = 28;
const MAX_HEIGHT = 460;

export interface HeatmapProps {
  heatmap: SkewHeatmap;
  rows: HeatmapRow[];
  /** Colour each row on its own scale (a quiet vertex's skew shows too). */
  perRow: boolean;
  /** A cell to outline (the finding's subtask, a key lookup's owner). */
  highlight: { vertexId: string; subtask: number } | null;
  onSelectCell: (vertexId: string, subtask: number) => void;
}

interface Hover {
  row: HeatmapRow;
  subtask: number;
  x: number;
  y: number;
}

/**
 * Every vertex × subtask of one metric on a canvas: the data becomes an image of one pixel per cell once, then
 * panning and zooming only scale and shift that image, so 200 × 1,024 cells stay smooth. Drag to pan, ctrl/⌘ +
 * wheel (or the buttons) to zoom, hover for a cell's figures, click to open the subtask.
 */
export function Heatmap({ heatmap, rows, perRow, highlight, onSelectCell }: HeatmapProps): ReactNode {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const columns = columnCount(rows);
  const height = Math.min(MAX_HEIGHT, HEADER_HEIGHT + Math.max(rows.length * 18, 60));
  const fitCell = useCallback(
    (w: number): Pick<GridView, 'cellWidth' | 'cellHeight'> => ({
      cellWidth: Math.min(MAX_CELL * 4, Math.max(1, (w - LABEL_WIDTH) / Math.max(1, columns))),
      cellHeight: Math.min(MAX_CELL, Math.max(2, (height - HEADER_HEIGHT) / Math.max(1, rows.length))),
    }),
    [columns, rows.length, height],
  );
  const view = useRef<GridView>({ originX: LABEL_WIDTH, originY: HEADER_HEIGHT, cellWidth: 1, cellHeight: 1, panX: 0, panY: 0 });
  const [hover, setHover] = useState<Hover | null>(null);
  const [viewTick, setViewTick] = useState(0);
  const frame = useRef<number | null>(null);
  const drag = useRef<{ x: number; y: number; panX: number; panY: number; moved: boolean } | null>(null);

  // The image: one pixel per cell, rebuilt only when the data, the rows or the scale change.
  const image = useMemo(() => {
    // For `npm run bench`: from the data to the first paint of it.
    performance.mark('heatmap-data');
    const { width: w, height: h, data } = heatImage(heatmap, rows, perRow);
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    canvas.getContext('2d')!.putImageData(new ImageData(data, w, h), 0, 0);
    return canvas;
  }, [heatmap, rows, perRow]);
  const hottest = useMemo(() => hottestCell(rows), [rows]);

  /** Draws the visible part of the grid; false when there is nothing to draw on yet. */
  const draw = useCallback((): boolean => {
    frame.current = null;
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return false;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
    }
    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const v = view.current;
    const gridWidth = Math.min(width - v.originX, columns * v.cellWidth - v.panX);
    const gridHeight = Math.min(height - v.originY, rows.length * v.cellHeight - v.panY);
    if (gridWidth > 0 && gridHeight > 0) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(image, v.panX / v.cellWidth, v.panY / v.cellHeight, gridWidth / v.cellWidth, gridHeight / v.cellHeight, v.originX, v.originY, gridWidth, gridHeight);
    }
    const firstRow = Math.floor(v.panY / v.cellHeight);
    const lastRow = Math.min(rows.length - 1, Math.floor((v.panY + height - v.originY) / v.cellHeight));
    const firstColumn = Math.floor(v.panX / v.cellWidth);
    const lastColumn = Math.min(columns - 1, Math.floor((v.panX + width - v.originX) / v.cellWidth));
    const xOf = (c: number) => v.originX + c * v.cellWidth - v.panX;
    const yOf = (r: number) => v.originY + r * v.cellHeight - v.panY;
    ctx.save();
    ctx.beginPath();
    ctx.rect(v.originX, v.originY, width - v.originX, height - v.originY);
    ctx.clip();
    // Hot subtasks get a thin white frame once cells are big enough to see one.
    if (v.cellWidth >= 4 && v.cellHeight >= 4) {
      ctx.strokeStyle = 'rgba(255,255,255,0.85)';
      ctx.lineWidth = 1;
      for (let r = firstRow; r <= lastRow; r++) for (const k of rows[r].hot) ctx.strokeRect(xOf(k) + 0.5, yOf(r) + 0.5, v.cellWidth - 1, v.cellHeight - 1);
    }
    if (highlight) {
      const r = rows.findIndex((row) => row.vertexId === highlight.vertexId);
      if (r >= 0) {
        ctx.strokeStyle = '#ffd54a';
        ctx.lineWidth = 2;
        ctx.strokeRect(xOf(highlight.subtask) - 1, yOf(r) - 1, Math.max(3, v.cellWidth) + 2, Math.max(3, v.cellHeight) + 2);
      }
    }
    ctx.restore();
    // Row labels and the subtask ruler.
    ctx.fillStyle = '#98a4b5';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    if (v.cellHeight >= 9) {
      for (let r = firstRow; r <= lastRow; r++) {
        const y = yOf(r) + v.cellHeight / 2;
        if (y < v.originY) continue;
        ctx.fillStyle = rows[r].hot.length > 0 ? '#ff9b95' : '#c9d3df';
        ctx.fillText(ellipsize(ctx, rows[r].name, LABEL_WIDTH - 10), 4, y);
      }
    } else {
      ctx.fillText(`${rows.length} vertices (zoom in for names)`, 4, v.originY + 8);
    }
    ctx.fillStyle = '#98a4b5';
    const step = Math.max(1, Math.ceil(28 / v.cellWidth));
    const niceStep = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].find((s) => s >= step) ?? step;
    for (let c = Math.ceil(firstColumn / niceStep) * niceStep; c <= lastColumn; c += niceStep) ctx.fillText(String(c), xOf(c) + 1, HEADER_HEIGHT / 2);
    return true;
  }, [image, rows, columns, width, height, highlight]);

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(() => draw());
  }, [draw]);

  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    const observer = new ResizeObserver(() => setWidth(wrap.clientWidth));
    observer.observe(wrap);
    setWidth(wrap.clientWidth);
    return () => observer.disconnect();
  }, []);

  // New data keeps the zoom and pan; a new shape (rows, width) fits the grid again.
  useEffect(() => {
    if (width === 0) return;
    view.current = { ...view.current, ...fitCell(width), panX: 0, panY: 0 };
    setViewTick((t) => t + 1);
  }, [width, fitCell, rows.length, columns]);

  useEffect(() => {
    if (draw()) performance.mark('heatmap-painted');
  }, [draw, viewTick]);

  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);

  const pointAt = (event: { clientX: number; clientY: number }) => {
    const box = canvasRef.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const zoom = (factor: number, at?: { x: number; y: number }) => {
    const v = view.current;
    const fit = fitCell(width);
    const cellWidth = Math.min(MAX_CELL * 4, Math.max(fit.cellWidth, v.cellWidth * factor));
    const cellHeight = Math.min(MAX_CELL * 2, Math.max(fit.cellHeight, v.cellHeight * factor));
    const ax = (at?.x ?? v.originX) - v.originX;
    const ay = (at?.y ?? v.originY) - v.originY;
    const next = { ...v, cellWidth, cellHeight, panX: ((v.panX + ax) * cellWidth) / v.cellWidth - ax, panY: ((v.panY + ay) * cellHeight) / v.cellHeight - ay };
    view.current = clampPan(next, columns, rows.length, width, height);
    setViewTick((t) => t + 1);
  };

  const onPointerDown = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, panX: view.current.panX, panY: view.current.panY, moved: false };
  };
  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d) {
      const dx = event.clientX - d.x;
      const dy = event.clientY - d.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) d.moved = true;
      if (d.moved) {
        view.current = clampPan({ ...view.current, panX: d.panX - dx, panY: d.panY - dy }, columns, rows.length, width, height);
        setHover(null);
        schedule();
        return;
      }
    }
    const p = pointAt(event);
    const cell = cellAt(p.x, p.y, view.current, rows);
    setHover(cell ? { row: rows[cell.row], subtask: cell.subtask, x: p.x, y: p.y } : null);
  };
  const onPointerUp = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d?.moved) {
      setViewTick((t) => t + 1);
      return;
    }
    const p = pointAt(event);
    const cell = cellAt(p.x, p.y, view.current, rows);
    if (cell) onSelectCell(rows[cell.row].vertexId, cell.subtask);
  };
  const onWheel = (event: React.WheelEvent<HTMLCanvasElement>) => {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    zoom(event.deltaY < 0 ? 1.25 : 0.8, pointAt(event));
  };

  const v = view.current;
  const tm = hover ? heatmap.taskManagers[hover.row.taskManagers[hover.subtask]] : undefined;
  const hoverValue = hover ? hover.row.values[hover.subtask] : null;
  return (
    <div className="heatmap" ref={wrapRef}>
      <div className="heatmap__tools">
        <button type="button" className="button button--tiny" onClick={() => zoom(1.5)} aria-label="Zoom the heatmap in">
          +
        </button>
        <button type="button" className="button button--tiny" onClick={() => zoom(1 / 1.5)} aria-label="Zoom the heatmap out">
          −
        </button>
        <button
          type="button"
          className="button button--tiny"
          onClick={() => {
            view.current = { ...view.current, ...fitCell(width), panX: 0, panY: 0 };
            setViewTick((t) => t + 1);
          }}
        >
          Fit
        </button>
        <span className="muted small">Drag to pan · ctrl/⌘ + wheel to zoom · click a cell for its subtask</span>
      </div>
      <canvas
        ref={canvasRef}
        className="heatmap__canvas"
        style={{ width: '100%', height }}
        data-testid={testIds.diagnosis.heatmapCanvas}
        data-metric={heatmap.metric}
        data-rows={rows.map((r) => r.vertexId).join(',')}
        data-hottest={hottest ? `${rows[hottest.row].vertexId}:${hottest.subtask}` : ''}
        data-origin-x={v.originX}
        data-origin-y={v.originY}
        data-cell-width={v.cellWidth}
        data-cell-height={v.cellHeight}
        data-pan-x={v.panX}
        data-pan-y={v.panY}
        role="img"
        aria-label={`Heatmap of ${heatmap.metric} over ${rows.length} vertices and up to ${columns} subtasks${hottest ? `; hottest: ${rows[hottest.row].name} subtask ${hottest.subtask}` : ''}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHover(null)}
        onWheel={onWheel}
      />
      {hover ? (
        <div className="heatmap__tooltip" style={{ left: Math.min(hover.x + 14, width - 260), top: hover.y + 14 }} data-testid={testIds.diagnosis.heatmapTooltip} role="tooltip">
          <div className="heatmap__tooltip-title">{hover.row.name}</div>
          <div>
            Subtask <strong>{hover.subtask}</strong> of {hover.row.parallelism}
            {hover.row.hot.includes(hover.subtask) ? <span className="diag-hot"> hot</span> : null}
          </div>
          <div>
            {heatmap.aggregate === 'max' ? 'Max' : 'Mean'} <strong data-testid={testIds.diagnosis.heatmapTooltipValue}>{formatMetricValue(hoverValue, heatmap.unit)}</strong>
          </div>
          <div className="muted small">{tm ? (tm.endpoint ?? tm.id) : 'TaskManager unknown'}</div>
        </div>
      ) : null}
    </div>
  );
}

function ellipsize(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let end = text.length;
  while (end > 1 && ctx.measureText(`${text.slice(0, end)}…`).width > max) end--;
  return `${text.slice(0, end)}…`;
}
