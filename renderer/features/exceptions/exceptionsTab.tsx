import type { JobTab } from '../job-graph/JobTabs';
import { ExceptionsPanel } from './ExceptionsPanel';

export const exceptionsTab: JobTab = {
  id: 'exceptions',
  label: 'Exceptions',
  Component: ({ clusterId, jobId, refresh }) => <ExceptionsPanel clusterId={clusterId} jobId={jobId} refresh={refresh} />,
};
