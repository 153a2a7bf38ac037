/**
 * A byte count in IEC units to three significant digits: `512 B`, `1.5 KiB`, `23.4 MiB`, `512 GiB`. Pure and without
 * dependencies, so that the renderer (which may import only engine/contracts) and the engine say sizes alike.
 * null for a count that is not one (negative, NaN, infinite): each caller says "unknown" in its own way.
 */

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function bytesInIecUnits(bytes: number): string | null {
  if (!Number.isFinite(bytes) || bytes < 0) return null;
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let n = bytes;
  let unit = 0;
  // 1023.5 KiB would round to "1024 KiB": it reads as the next unit.
  while (n >= 1023.5 && unit < BYTE_UNITS.length - 1) {
    n /= 1024;
    unit += 1;
  }
  return `${threeSignificant(n)} ${BYTE_UNITS[unit]}`;
}

function threeSignificant(n: number): string {
  if (n >= 100) return String(Math.round(n));
  return trimZeros(n.toFixed(n >= 10 ? 1 : 2));
}

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
