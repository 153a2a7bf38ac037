import { lazy } from 'react';
import type { JobTab } from '../job-graph/JobTabs';

export const metricsHistoryTab: JobTab = {
  id: 'metrics',
  label: 'Metrics over time',
  Component: lazy(() => import('./MetricsHistoryTab').then((m) => ({ default: m.MetricsHistoryTab }))),
};
