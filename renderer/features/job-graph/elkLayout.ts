import type { EdgeView } from '../../../engine/contracts/engine-api';
import { buildElkGraph, fallbackLayout, readElkLayout, type GraphLayout, type LayoutVertex } from './layout';

interface ElkLike {
  layout(graph: ReturnType<typeof buildElkGraph>): Promise<ReturnType<typeof buildElkGraph>>;
}

let elkInstance: Promise<ElkLike> | null = null;

/** ELK is ~2 MB: loaded on the first job graph only, then kept. */
function loadElk(): Promise<ElkLike> {
  elkInstance ??= import('elkjs/lib/elk.bundled.js').then((module) => {
    const ELK = (module as unknown as { default: new () => ElkLike }).default;
    return new ELK();
  });
  elkInstance.catch(() => {
    elkInstance = null;
  });
  return elkInstance;
}

/** Lays the job graph out left to right; falls back to simple columns rather than failing. */
export async function layoutJobGraph(
  vertices: readonly LayoutVertex[],
  edges: readonly EdgeView[],
): Promise<GraphLayout> {
  try {
    const elk = await loadElk();
    return readElkLayout(await elk.layout(buildElkGraph(vertices, edges)));
  } catch (error) {
    console.warn('Job graph layout failed, showing simple columns instead.', error);
    return fallbackLayout(vertices, edges);
  }
}
