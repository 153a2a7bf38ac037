import type { JobTab } from '../job-graph/JobTabs';
import { RescalesPanel } from './RescalesPanel';

/** Shown for every job: where the cluster keeps no rescale history (older Flink, another scheduler), the tab says why. */
export const rescalesTab: JobTab = {
  id: 'rescales',
  label: 'Rescales',
  Component: ({ clusterId, jobId, refresh }) => <RescalesPanel clusterId={clusterId} jobId={jobId} refresh={refresh} />,
};
