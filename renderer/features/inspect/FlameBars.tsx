import { useMemo, useState, type ReactNode } from 'react';
import type { FlameNode, HotFrame } from '../../../engine/contracts/flame-graph';
import { testIds } from '../../testIds';
import { flameBars } from './flameLayout';

/** What both flame graphs have (Flink's sampled one, a profile's). */
export interface FlameGraph {
  root: FlameNode | null;
  samples: number;
  hotFrames: HotFrame[];
  truncated: boolean;
}

const ROW_PX = 18;

/** A flame graph to explore: search its frames, zoom on a click (and back), and its hot frames below. */
export function FlameExplorer({ graph }: { graph: FlameGraph }): ReactNode {
  const [focus, setFocus] = useState('0');
  const [search, setSearch] = useState('');
  if (!graph.root) return null;
  return (
    <>
      <div className="flame-controls">
        <input type="search" placeholder="Search frames" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Search frames" data-testid={testIds.inspect.flameSearch} />
        <button type="button" className="button button--small" onClick={() => setFocus('0')} disabled={focus === '0'}>
          Reset zoom
        </button>
      </div>
      <FlameBars graph={graph} focus={focus} search={search} onFocus={setFocus} />
      {graph.hotFrames.length > 0 ? <HotFrames graph={graph} /> : null}
    </>
  );
}

/**
 * A flame graph drawn as React text (frame names come from the cluster: never HTML): the root on top, callees below;
 * a click zooms on a frame, the search marks frames and sums their samples.
 */
export function FlameBars({ graph, focus, search, onFocus }: { graph: FlameGraph; focus: string; search: string; onFocus: (path: string) => void }): ReactNode {
  const { bars, matchedSamples } = useMemo(() => flameBars(graph.root!, focus, search), [graph.root, focus, search]);
  const depth = bars.reduce((d, b) => Math.max(d, b.depth), 0) + 1;
  return (
    <>
      {search.trim() !== '' ? (
        <p className="muted small" data-testid={testIds.inspect.flameMatches}>
          “{search.trim()}”: {matchedSamples} of {graph.samples} samples ({graph.samples > 0 ? Math.round((matchedSamples / graph.samples) * 100) : 0}%)
        </p>
      ) : null}
      <div className="flame" style={{ height: depth * ROW_PX }} role="tree" aria-label="Flame graph: the root on top, callees below; click a frame to zoom">
        {bars.map((bar) => (
          <button
            type="button"
            key={bar.path}
            className={`flame__bar${bar.matched ? ' flame__bar--matched' : ''}`}
            style={{ left: `${bar.x * 100}%`, width: `${bar.width * 100}%`, top: bar.depth * ROW_PX }}
            title={`${bar.name}\n${bar.value} samples (${((bar.value / Math.max(1, graph.samples)) * 100).toFixed(1)}%)`}
            onClick={() => onFocus(bar.path)}
            data-testid={testIds.inspect.flameBar(bar.path)}
            data-name={bar.name}
          >
            {bar.name}
          </button>
        ))}
      </div>
      {graph.truncated ? <p className="muted small">The graph was larger than the console keeps: its deepest or last frames are left out.</p> : null}
    </>
  );
}

export function HotFrames({ graph }: { graph: FlameGraph }): ReactNode {
  return (
    <table className="table table--compact" data-testid={testIds.inspect.flameHotFrames}>
      <caption className="muted small">Most own time (the frame at the top of the stack)</caption>
      <thead>
        <tr>
          <th>Frame</th>
          <th className="num">Own</th>
          <th className="num">On stack</th>
        </tr>
      </thead>
      <tbody>
        {graph.hotFrames.slice(0, 10).map((f) => (
          <tr key={f.name}>
            <td className="mono">{f.name}</td>
            <td className="num">{(f.selfShare * 100).toFixed(1)}%</td>
            <td className="num">{f.totalSamples}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
