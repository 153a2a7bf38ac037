import type { ReactNode } from 'react';
import { testIds } from '../../testIds';
import { BUSY_RGB, IDLE_RGB, NO_METRICS_COLOR, rgbCss } from './colors';

/** What the colours mean, in the same words as the Flink Web UI. */
export function Legend({ vertexCount }: { vertexCount: number }): ReactNode {
  return (
    <div className="legend" data-testid={testIds.jobGraph.legend} aria-label="Legend">
      <div className="legend__row">
        <span className="legend__label">Idle</span>
        <span
          className="legend__gradient"
          style={{ background: `linear-gradient(90deg, ${rgbCss(IDLE_RGB)}, ${rgbCss(BUSY_RGB)})` }}
          aria-hidden="true"
        />
        <span className="legend__label">Busy</span>
      </div>
      <div className="legend__row">
        <span className="legend__swatch legend__swatch--hatch" aria-hidden="true" />
        <span className="legend__label">Back-pressured (hatched share = share of time)</span>
      </div>
      <div className="legend__row">
        <span className="legend__swatch" style={{ background: NO_METRICS_COLOR }} aria-hidden="true" />
        <span className="legend__label">No metrics yet</span>
      </div>
      <div className="legend__row">
        <span className="legend__swatch legend__swatch--unavailable" style={{ background: NO_METRICS_COLOR }} aria-hidden="true" />
        <span className="legend__label">Metrics unavailable (request failed; hover for why)</span>
      </div>
      <div className="legend__note">
        Colour: busiest subtask’s busy time · {vertexCount} vertices · click a vertex for its subtasks
      </div>
    </div>
  );
}
