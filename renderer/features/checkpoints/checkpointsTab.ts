import { preloadable } from '../../components/preloadable';
import type { JobTab } from '../job-graph/JobTabs';

const CheckpointsTab = preloadable(() => import('./CheckpointsTab').then((m) => m.CheckpointsTab));

export const checkpointsTab: JobTab = {
  id: 'checkpoints',
  label: 'Checkpoints',
  Component: CheckpointsTab,
  preload: CheckpointsTab.preload,
};
