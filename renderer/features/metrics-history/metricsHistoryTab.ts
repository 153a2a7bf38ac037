import { preloadable } from '../../components/preloadable';
import type { JobTab } from '../job-graph/JobTabs';

const MetricsHistoryTab = preloadable(() => import('./MetricsHistoryTab').then((m) => m.MetricsHistoryTab));

export const metricsHistoryTab: JobTab = {
  id: 'metrics',
  label: 'Metrics over time',
  Component: MetricsHistoryTab,
  preload: MetricsHistoryTab.preload,
};
