import type { SubtaskRow } from '../../../engine/contracts/jobs';

/**
 * The subtasks a query keeps: a number is a subtask index ("2916"); words match the status, the back-pressure level,
 * the endpoint and the TaskManager id ("high", "10.0.2.229", "INITIALIZING"), every word somewhere. Pure; an empty
 * query keeps them all (the same array).
 */
export function filterSubtasks<Row extends SubtaskRow>(rows: readonly Row[], query: string): readonly Row[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  if (words.length === 1 && /^\d+$/.test(words[0])) {
    const index = Number(words[0]);
    return rows.filter((row) => row.index === index);
  }
  return rows.filter((row) => {
    const text = [row.status, row.backpressureLevel ?? '', row.endpoint ?? '', row.taskManagerId ?? ''].join(' ').toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
