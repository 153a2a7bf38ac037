import type { JobTab } from './JobTabs';
import { GraphTab } from './GraphTab';

export const graphTab: JobTab = { id: 'graph', label: 'Graph', Component: GraphTab };
