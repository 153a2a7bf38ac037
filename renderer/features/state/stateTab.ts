import { preloadable } from '../../components/preloadable';
import type { JobTab } from '../job-graph/JobTabs';

const StateTab = preloadable(() => import('./StateTab').then((m) => m.StateTab));

/** Where the job's state lives, how fast it grows, and the likeliest reason why (code-split: it brings charts). */
export const stateTab: JobTab = {
  id: 'state',
  label: 'State',
  Component: StateTab,
  preload: StateTab.preload,
};
