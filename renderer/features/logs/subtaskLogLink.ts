import { createContext, useContext } from 'react';
import type { SubtaskRow } from '../../../engine/contracts/jobs';

/** Opens a subtask's TaskManager log filtered to its task's lines; absent where no table offers it. */
export const SubtaskLogLink = createContext<((row: SubtaskRow) => void) | null>(null);

export function useSubtaskLogLink(): ((row: SubtaskRow) => void) | null {
  return useContext(SubtaskLogLink);
}

/** `Execution.getVertexWithAttempt()`: the name Flink gives a subtask in its logs and to its thread. */
export function taskName(vertexName: string, subtaskIndex: number, parallelism: number, attempt: number): string {
  return `${vertexName} (${subtaskIndex + 1}/${parallelism})#${attempt}`;
}
