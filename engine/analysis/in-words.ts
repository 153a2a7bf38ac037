import { bytesInIecUnits } from '../contracts/format-bytes.ts';

/** Figures as an operator reads them in a sentence: `850 ms`, `4.1 s`, `2 min 05 s`, `1.5 MiB`. Pure. */

export function durationInWords(ms: number): string {
  if (!Number.isFinite(ms)) return 'an unknown time';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${trim((ms / 1000).toFixed(1))} s`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(seconds / 3600)} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')} min`;
}

export function bytesInWords(bytes: number): string {
  return bytesInIecUnits(bytes) ?? 'an unknown size';
}

/** The smallest of 1, 2, 5 × 10^k strictly above `value`: "the others took < 50 ms" for a slowest other of 22 ms. */
export function roundBoundAbove(value: number): number {
  let bound = 1;
  for (;;) {
    for (const step of [1, 2, 5]) if (step * bound > value) return step * bound;
    bound *= 10;
  }
}

/** `subtask 12`, `subtasks 3 and 7`, `subtasks 1, 4 and 9`. */
export function subtaskList(indices: number[]): string {
  if (indices.length === 1) return `subtask ${indices[0]}`;
  return `subtasks ${indices.slice(0, -1).join(', ')} and ${indices[indices.length - 1]}`;
}

/** The first operator of a chained vertex (`tenant-cost -> Sink: usd-sink` → `tenant-cost`): how operators say it. */
export function shortVertexName(name: string): string {
  return name.split(' -> ')[0].trim() || name;
}

/** `a`, `a and b`, `a, b and c`; past four, `a, b, c and 2 more`. */
export function namesInWords(names: string[]): string {
  if (names.length <= 1) return names.join('');
  if (names.length > 4) return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `1,000 ms/s`. */
export function msPerSecondInWords(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')} ms/s`;
}

/** `24×`, `1.5×`. */
export function timesInWords(ratio: number): string {
  return `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
