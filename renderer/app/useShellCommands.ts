import { useCallback, useEffect, useState } from 'react';
import { subscribeShellEvents } from '../api/shell-client';
import { useClusters } from '../features/clusters/ClustersProvider';
import { testIds } from '../testIds';
import { refreshSettings } from './refreshSettings';
import { parseHash, routeClusterId } from './route';
import type { ShortcutAction } from './shortcuts';
import { focusWhenPresent, useKeyboardShortcuts } from './useKeyboardShortcuts';
import { useHashRoute } from './useHashRoute';

/**
 * The shell-wide commands: keyboard shortcuts, and the desktop shell's menu commands and links.
 * `/` filters jobs, `g` `j` goes to the jobs list, `Esc` closes the sheet or the subtasks panel, `?` opens the sheet.
 */
export function useShellCommands(): { sheetOpen: boolean; showShortcuts: () => void; closeShortcuts: () => void } {
  const [route, navigate] = useHashRoute();
  const { clusters } = useClusters();
  const [sheetOpen, setSheetOpen] = useState(false);
  const showShortcuts = useCallback(() => setSheetOpen(true), []);
  const closeShortcuts = useCallback(() => setSheetOpen(false), []);

  const goToJobs = (): boolean => {
    const clusterId = routeClusterId(route) ?? (clusters?.length === 1 ? clusters[0].id : null);
    if (!clusterId) return false;
    if (route.page !== 'cluster') navigate({ page: 'cluster', clusterId });
    return true;
  };

  useKeyboardShortcuts((action: ShortcutAction) => {
    switch (action) {
      case 'show-shortcuts':
        setSheetOpen(true);
        return;
      case 'close-panel':
        if (sheetOpen) setSheetOpen(false);
        else if (route.page === 'job' && route.vertexId) navigate({ ...route, vertexId: null }, { replace: true });
        return;
      case 'go-to-jobs':
        if (goToJobs()) focusWhenPresent(`[data-testid="${testIds.jobs.panel}"] h2`);
        return;
      case 'focus-job-filter':
        if (document.querySelector(JOB_FILTER) || goToJobs()) focusWhenPresent(JOB_FILTER);
        return;
    }
  });

  useEffect(
    () =>
      subscribeShellEvents((event) => {
        if (event.type === 'refresh-data') refreshSettings.refreshNow();
        if (event.type === 'show-shortcuts') setSheetOpen(true);
        // Only a link the page itself reads as a deep link moves it; anything else is ignored.
        if (event.type === 'open-link' && parseHash(event.hash).page === 'deep-link') window.location.hash = event.hash;
      }),
    [],
  );

  return { sheetOpen, showShortcuts, closeShortcuts };
}

const JOB_FILTER = '[data-shortcut-target="job-filter"]';
