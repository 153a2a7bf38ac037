import { useEffect, useMemo, useState } from 'react';
import type { EdgeView } from '../../../engine/contracts/jobs';
import { layoutJobGraph, prepareLayout } from './elkLayout';
import { graphStructureKey, type GraphLayout, type LayoutVertex } from './layout';

/** What a layout is made from: a job's graph, or its plan before the graph's figures arrive. */
export interface GraphStructure {
  vertices: readonly LayoutVertex[];
  edges: readonly EdgeView[];
}

/** Layouts of the last few structures shown: going back to a job draws its graph at once. */
const recentLayouts = new Map<string, GraphLayout>();
const RECENT_LAYOUTS = 8;

function remember(key: string, layout: GraphLayout): void {
  recentLayouts.delete(key);
  recentLayouts.set(key, layout);
  if (recentLayouts.size > RECENT_LAYOUTS) recentLayouts.delete(recentLayouts.keys().next().value!);
}

/**
 * The layout of the current graph, recomputed only when its structure (vertices, edges, strategies)
 * changes: a metric refresh reuses the positions it already has, and a graph whose plan was laid out before it
 * arrived is drawn with that layout.
 */
export function useGraphLayout(graph: GraphStructure | null): { layout: GraphLayout | null; structureKey: string | null } {
  const structureKey = useMemo(() => (graph ? graphStructureKey(graph.vertices, graph.edges) : null), [graph]);
  const [state, setState] = useState<{ key: string; layout: GraphLayout } | null>(null);

  // The layout worker starts while the job's first answer is on its way.
  useEffect(() => prepareLayout(), []);

  // The structure itself, kept only when the key changes, so the effect below runs once per structure.
  const structure = useMemo(
    () => (graph ? { vertices: graph.vertices.map((v) => ({ id: v.id })), edges: graph.edges } : null),
    // Keyed on the structure on purpose: a metric refresh must not re-run the layout.
    [structureKey],
  );

  useEffect(() => {
    if (!structure || structureKey == null || recentLayouts.has(structureKey)) return;
    let live = true;
    const started = performance.now();
    void layoutJobGraph(structure.vertices, structure.edges).then((layout) => {
      // In the browser's performance timeline (DevTools, the bench): what the layout took, off the page's thread or on.
      performance.measure(`flink-ops: job graph layout (${layout.engine}, ${layout.thread ?? 'page'})`, { start: started, detail: { vertices: structure.vertices.length } });
      if (layout.engine === 'elk') remember(structureKey, layout);
      if (live) setState({ key: structureKey, layout });
    });
    return () => {
      live = false;
    };
  }, [structure, structureKey]);

  const layout = state && state.key === structureKey ? state.layout : structureKey != null ? (recentLayouts.get(structureKey) ?? null) : null;
  return { layout, structureKey };
}
