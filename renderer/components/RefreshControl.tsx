import type { ReactNode } from 'react';
import { refreshChoices, refreshSettings, type ClusterRefresh } from '../app/refreshSettings';
import { testIds } from '../testIds';
import { formatInterval } from './format';

/** Interval choice (never below the cluster's floor), pause/resume and refresh-now, for the whole page. */
export function RefreshControl({ refresh }: { refresh: ClusterRefresh }): ReactNode {
  const choices = refreshChoices(refresh.minMs);
  return (
    <div className="refresh-control" data-testid={testIds.refresh.control}>
      <label className="refresh-control__label">
        Auto-refresh
        <select
          value={refresh.intervalMs}
          disabled={refresh.paused}
          onChange={(e) => refreshSettings.setPreference(Number(e.target.value))}
        >
          {choices.map((ms) => (
            <option key={ms} value={ms}>
              every {formatInterval(ms)}
              {ms === refresh.minMs ? ' (cluster minimum)' : ''}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button--small"
        aria-pressed={refresh.paused}
        onClick={() => refreshSettings.setPaused(!refresh.paused)}
      >
        {refresh.paused ? 'Resume' : 'Pause'}
      </button>
      <button type="button" className="button button--small" onClick={() => refreshSettings.refreshNow()}>
        Refresh now
      </button>
      {refresh.paused ? <span className="paused-mark">paused</span> : null}
    </div>
  );
}
