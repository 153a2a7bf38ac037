/**
 * Pure: the small pieces the HTML exports are written with: escaped text, tables, lists, and numbers, sizes and times
 * formatted without the locale (the same bytes on every machine).
 */

export function table(headers: string[], rows: unknown[][]): string {
  const cells = (row: unknown[]) => row.map((c) => `<td>${esc(c === null || c === undefined ? '' : String(c))}</td>`).join('');
  return `<table><thead><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${cells(r)}</tr>`).join('\n')}</tbody></table>`;
}

export function list(items: string[]): string {
  return items.length ? `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : '';
}

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Locale-free number formatting: the same bytes on every machine. */
export function num(value: number): string {
  const fixed = Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(Math.abs(value) >= 10 ? 1 : 2);
  const [whole, fraction] = fixed.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

export function pct(value: number): string {
  return `${value.toFixed(1)}%`;
}

export function bytes(value: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = value;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

export function seconds(ms: number): string {
  return ms % 60_000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : `${num(ms / 1000)} s`;
}

export function iso(t: number): string {
  return new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
}

export function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
