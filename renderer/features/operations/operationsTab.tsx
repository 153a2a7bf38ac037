import type { JobTab } from '../job-graph/JobTabs';
import { OperationsArea } from './OperationsArea';

export const operationsTab: JobTab = {
  id: 'operations',
  label: 'Operations',
  Component: ({ clusterId, jobId, graph, refresh, entry }) => (
    <OperationsArea clusterId={clusterId} jobId={jobId} jobState={graph?.state ?? null} refresh={refresh} markedEntry={entry} />
  ),
};
