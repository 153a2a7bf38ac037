import type { JobTab } from '../job-graph/JobTabs';
import { InspectTab } from './InspectTab';

/** The Web UI's read-only views of a vertex (watermarks, timeline, accumulators, TaskManagers) and the configuration. */
export const inspectTab: JobTab = {
  id: 'inspect',
  label: 'Inspect',
  Component: InspectTab,
};
