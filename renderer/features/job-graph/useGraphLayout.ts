import { useEffect, useMemo, useState } from 'react';
import type { JobGraph } from '../../../engine/contracts/engine-api';
import { layoutJobGraph } from './elkLayout';
import { graphStructureKey, type GraphLayout } from './layout';

/**
 * The layout of the current graph, recomputed only when its structure (vertices, edges, strategies)
 * changes: a metric refresh reuses the positions it already has.
 */
export function useGraphLayout(graph: JobGraph | null): { layout: GraphLayout | null; structureKey: string | null } {
  const structureKey = useMemo(() => (graph ? graphStructureKey(graph.vertices, graph.edges) : null), [graph]);
  const [state, setState] = useState<{ key: string; layout: GraphLayout } | null>(null);

  // The structure itself, kept only when the key changes, so the effect below runs once per structure.
  const structure = useMemo(
    () => (graph ? { vertices: graph.vertices.map((v) => ({ id: v.id })), edges: graph.edges } : null),
    // Keyed on the structure on purpose: a metric refresh must not re-run the layout.
    [structureKey],
  );

  useEffect(() => {
    if (!structure || structureKey == null) return;
    let live = true;
    void layoutJobGraph(structure.vertices, structure.edges).then((layout) => {
      if (live) setState({ key: structureKey, layout });
    });
    return () => {
      live = false;
    };
  }, [structure, structureKey]);

  return { layout: state && state.key === structureKey ? state.layout : null, structureKey };
}
