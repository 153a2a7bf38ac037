import { lazy } from 'react';
import type { JobTab } from '../job-graph/JobTabs';

export const checkpointsTab: JobTab = {
  id: 'checkpoints',
  label: 'Checkpoints',
  Component: lazy(() => import('./CheckpointsTab').then((m) => ({ default: m.CheckpointsTab }))),
};
