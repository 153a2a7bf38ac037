import { Suspense, useEffect, useRef, type ComponentType, type KeyboardEvent, type ReactNode } from 'react';
import type { JobDiagnosis } from '../../../engine/contracts/diagnosis';
import type { JobGraph } from '../../../engine/contracts/jobs';
import type { ClusterRefresh } from '../../app/refreshSettings';
import type { Route } from '../../app/route';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { whenIdle } from '../../components/whenIdle';
import { testIds } from '../../testIds';

/** What every tab of the job page gets. */
export interface JobTabProps {
  clusterId: string;
  jobId: string;
  vertexId: string | null;
  /** The cluster's graph of the job, or the recorded one when the cluster no longer has it; null while loading. */
  graph: JobGraph | null;
  /** The graph is the console's recording (the cluster no longer has the job, or does not answer). */
  recorded: boolean;
  /** The graph shown is older than the last refresh (it failed). */
  stale: boolean;
  /** No graph at all: the cluster did not give one and the console has no recording. */
  failed: boolean;
  refresh: ClusterRefresh;
  onNavigate: (route: Route, options?: { replace?: boolean }) => void;
  /** The subtasks table's sort column and a marked subtask, from the URL (the evidence of a finding). */
  sort: string | null;
  subtask: number | null;
  /** A journal entry marked on the Operations tab (a link from the Rescales tab), from the URL. */
  entry: string | null;
  /** The diagnosis over the chosen window (from the history); null until the first arrives. */
  diagnosis: JobDiagnosis | null;
  windowMs: number;
  /** Opens the Advice panel of the job page, with the hot key when the tab knows it. */
  /** The Advice panel for a key; with the rate and keyed vertex a Kafka sample measured it on. */
  onOpenAdvice?: (key: string | null, measured?: { rate: number; vertexId: string | null }) => void;
}

/** One tab of the job page; each feature folder exports its own (see `jobTabs.ts`). */
export interface JobTab {
  id: string;
  label: string;
  /** Code-split where the tab brings heavy code (charts), so the graph opens as fast as before. */
  Component: ComponentType<JobTabProps>;
  /** Fetches a code-split tab's chunk ahead (see `preloadable`): done once the page is idle, so a tab opens at once. */
  preload?: () => Promise<void>;
}

/** The job page's tabs: a tab list (arrow keys move between tabs) and the selected tab's panel. */
export function JobTabs({ tabs, active, onSelect, props }: { tabs: readonly JobTab[]; active: string; onSelect: (id: string) => void; props: JobTabProps }): ReactNode {
  const selected = tabs.find((t) => t.id === active) ?? tabs[0];
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  useEffect(() => whenIdle(() => tabs.forEach((tab) => void tab.preload?.().catch(() => undefined))), [tabs]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = (index + step + tabs.length) % tabs.length;
    onSelect(tabs[next].id);
    buttons.current[next]?.focus();
  };
  return (
    <>
      <div className="job-tabs" role="tablist" aria-label="Job views" data-testid={testIds.jobTabs.list}>
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`job-tab-${tab.id}`}
            aria-selected={tab.id === selected.id}
            aria-controls={`job-tab-panel-${tab.id}`}
            tabIndex={tab.id === selected.id ? 0 : -1}
            className={`job-tabs__tab${tab.id === selected.id ? ' job-tabs__tab--active' : ''}`}
            data-testid={testIds.jobTabs.tab(tab.id)}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`job-tab-panel-${selected.id}`} aria-labelledby={`job-tab-${selected.id}`} className="job-tabs__panel" data-testid={testIds.jobTabs.panel(selected.id)}>
        <ErrorBoundary panel={`The ${selected.label} tab`} resetKey={`${props.clusterId}/${props.jobId}/${selected.id}`}>
          <Suspense fallback={<p className="muted">Loading {selected.label.toLowerCase()}…</p>}>
            <selected.Component {...props} />
          </Suspense>
        </ErrorBoundary>
      </div>
    </>
  );
}
