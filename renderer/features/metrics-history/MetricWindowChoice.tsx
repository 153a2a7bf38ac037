import { useState, type ReactNode } from 'react';
import { WindowChoice } from '../../components/WindowChoice';
import { METRIC_WINDOWS, metricWindow, type MetricWindowId } from './windows';

/** The time window a history chart shows: live (following the present) or fixed where it was chosen. */
export interface MetricWindowState {
  id: MetricWindowId;
  window: (typeof METRIC_WINDOWS)[number];
  /** Where a fixed window ends (epoch ms); undefined while it follows the present. */
  end: number | undefined;
  /** What the chart's poll is keyed by: a new choice or a move to now reads again. */
  key: string;
  choose(id: MetricWindowId): void;
  toNow(): void;
}

/** The window choice the job's and the processes' history charts share. */
export function useMetricWindow(): MetricWindowState {
  const [id, setId] = useState<MetricWindowId>('live');
  const [anchoredAt, setAnchoredAt] = useState<number>(() => Date.now());
  const window = metricWindow(id);
  return {
    id,
    window,
    end: window.follows ? undefined : anchoredAt,
    key: `${id}/${window.follows ? 'live' : anchoredAt}`,
    choose: (next) => {
      setId(next);
      setAnchoredAt(Date.now());
    },
    toNow: () => setAnchoredAt(Date.now()),
  };
}

/** The windows as small buttons, and "to now" for a fixed one. */
export function MetricWindowChoice({ state, testId }: { state: MetricWindowState; testId: string }): ReactNode {
  return (
    <WindowChoice label="Time window" options={METRIC_WINDOWS.map((w) => ({ key: w.id, label: w.label }))} chosen={state.id} onChoose={state.choose} testId={testId}>
      {!state.window.follows ? (
        <button type="button" className="button button--tiny button--ghost" onClick={state.toNow} title="Move the window to end now">
          ↻ to now
        </button>
      ) : null}
    </WindowChoice>
  );
}
