import { useCallback, useState } from 'react';
import type { Finding } from '../../../engine/contracts/diagnosis';
import type { JobsApi, VertexSubtasks } from '../../../engine/contracts/jobs';
import { toErrorInfo } from '../../components/errors';
import type { LogsTab } from './LogsPanel';
import { subtaskLogTarget } from '../../../engine/contracts/logs';

/** The log (or thread dump) of a finding's subtask: its TaskManager, and the name Flink gives its task there. */
export interface FindingLogTarget {
  processId: string;
  task: string;
  tab: LogsTab;
}

/** Where the finding's first subtask runs, as a log target; or why there is none, in words. */
export function findingLogTarget(index: number, vertex: Pick<VertexSubtasks, 'name' | 'parallelism' | 'subtasks'>, tab: LogsTab): FindingLogTarget | string {
  const target = subtaskLogTarget(index, vertex);
  return typeof target === 'string' ? target : { ...target, tab };
}

/**
 * From the finding's sentence to its subtask's TaskManager log or thread: where the subtask runs is read from Flink
 * when asked (one request, on the click), since the finding names the subtask, not its TaskManager or attempt.
 */
export function useFindingLog(jobsApi: Pick<JobsApi, 'subtasks'>, clusterId: string, jobId: string) {
  const [target, setTarget] = useState<FindingLogTarget | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const open = useCallback(
    async (finding: Finding, tab: LogsTab) => {
      const index = finding.subtasks[0]?.subtask;
      if (!finding.vertexId || index === undefined) return;
      setProblem(null);
      try {
        const found = findingLogTarget(index, await jobsApi.subtasks(clusterId, jobId, finding.vertexId), tab);
        if (typeof found === 'string') setProblem(found);
        else setTarget(found);
      } catch (error) {
        setProblem(`Where subtask ${index} runs could not be read: ${toErrorInfo(error).message}`);
      }
    },
    [jobsApi, clusterId, jobId],
  );
  const close = useCallback(() => setTarget(null), []);
  return { target, problem, open, close };
}
