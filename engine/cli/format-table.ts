import { printable } from './terminal-text.ts';

/** Left-aligned columns for terminal output; the last column is not padded. Cells are made printable first. */
export function formatTable(header: string[], unsafeRows: string[][]): string {
  const rows = unsafeRows.map((row) => row.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function formatDuration(ms: number): string {
  if (ms < 0) return '-';
  const s = Math.floor(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
