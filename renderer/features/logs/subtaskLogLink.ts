import { createContext, useContext } from 'react';
import type { SubtaskRow } from '../../../engine/contracts/jobs';

/** Opens a subtask's TaskManager log filtered to its task's lines; absent where no table offers it. */
export const SubtaskLogLink = createContext<((row: SubtaskRow) => void) | null>(null);

export function useSubtaskLogLink(): ((row: SubtaskRow) => void) | null {
  return useContext(SubtaskLogLink);
}
