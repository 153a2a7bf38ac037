import type { BeforeAfterRow } from '../../../engine/contracts/before-after';
import { DASH, formatBytes, formatMillis, formatRate } from '../../components/format';

/** One before/after figure in its unit, as the journal and the job page show it. */
export function formatFigure(unit: BeforeAfterRow['unit'], value: number | null): string {
  if (value === null || !Number.isFinite(value)) return DASH;
  switch (unit) {
    case 'ratio':
      return `${value.toFixed(2)}×`;
    case 'ms/s':
      return `${Math.round(value)} ms/s`;
    case 'records/s':
      return formatRate(value);
    case 'ms':
      return formatMillis(value);
    case 'bytes':
      return formatBytes(value);
  }
}

/** after / before as a signed percentage: `−58%`, `+64%`, `±0%`. */
export function formatChange(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return DASH;
  const percent = Math.round((change - 1) * 100);
  return percent === 0 ? '±0%' : percent > 0 ? `+${percent}%` : `\u2212${-percent}%`;
}
