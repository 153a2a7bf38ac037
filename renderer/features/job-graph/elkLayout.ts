import type { EdgeView } from '../../../engine/contracts/jobs';
import { buildElkGraph, fallbackLayout, LARGE_GRAPH_LAYOUT_OPTIONS, readElkLayout, type GraphLayout, type LayoutVertex } from './layout';

type ElkGraph = ReturnType<typeof buildElkGraph>;

/** Where ELK runs: its own web worker (the page never freezes while a 200-vertex job is laid out), or the page. */
export type LayoutThread = 'worker' | 'page';

interface Elk {
  thread: LayoutThread;
  layout(graph: ElkGraph): Promise<ElkGraph>;
}

let elkInstance: Promise<Elk> | null = null;

/**
 * ELK in a web worker: elkjs's own worker build (`elk-worker.min.js`, a classic script served beside the bundle, so
 * the CSP's `script-src 'self'` covers it; ELK needs no eval), behind elkjs's promise API. A worker that cannot start
 * or dies (an older shell that refuses workers on file://) makes the layout run on the page instead: slower, never
 * blank. ~2 MB either way: loaded on the first job graph only, then kept.
 */
function loadElk(): Promise<Elk> {
  elkInstance ??= (typeof Worker === 'function' ? workerElk().catch(() => pageElk()) : pageElk());
  elkInstance.catch(() => {
    elkInstance = null;
  });
  return elkInstance;
}

async function workerElk(): Promise<Elk> {
  const [{ default: ELK }, { default: workerUrl }] = await Promise.all([import('elkjs/lib/elk-api.js'), import('elkjs/lib/elk-worker.min.js?url')]);
  let failure: Promise<never> | null = null;
  const elk = new ELK({
    workerFactory: () => {
      const worker = new Worker(workerUrl, { name: 'elk-layout' });
      failure = new Promise<never>((_, reject) => worker.addEventListener('error', (event) => reject(new Error(`The layout worker failed: ${event.message || 'could not start'}`))));
      failure.catch(() => undefined);
      return worker;
    },
  });
  const died = failure as Promise<never> | null;
  // ELK is compiled Java: its first layout runs cold (a 200-vertex graph: ~0.6 s, against ~0.2 s warm). A small
  // layout now, while nothing waits on the worker, takes the first job graph's layout about a quarter faster.
  elk.layout(warmUpGraph()).catch(() => undefined);
  return {
    thread: 'worker',
    layout: async (graph) => {
      try {
        return (await Promise.race([elk.layout(graph), ...(died ? [died] : [])])) as ElkGraph;
      } catch (error) {
        // Next time, and this time, on the page.
        elk.terminateWorker();
        elkInstance = pageElk();
        throw error;
      }
    },
  };
}

async function pageElk(): Promise<Elk> {
  const module = await import('elkjs/lib/elk.bundled.js');
  const ELK = (module as unknown as { default: new () => { layout(graph: ElkGraph): Promise<ElkGraph> } }).default;
  const elk = new ELK();
  return { thread: 'page', layout: (graph) => elk.layout(graph) };
}

/** A fan-out of 24 vertices, laid out as a large job graph is: what the worker warms up on. */
function warmUpGraph(): ElkGraph {
  const vertices = Array.from({ length: 24 }, (_, i) => ({ id: `warm-${i}` }));
  const edges = vertices.slice(1).map((v, i) => ({ source: `warm-${i >> 1}`, target: v.id, shipStrategy: 'HASH' }));
  return { ...buildElkGraph(vertices, edges), layoutOptions: LARGE_GRAPH_LAYOUT_OPTIONS };
}

/** Starts loading ELK (and its worker) ahead of the first layout. */
export function prepareLayout(): void {
  loadElk().catch(() => undefined);
}

/** Lays the job graph out left to right, in the worker where it can; falls back to simple columns rather than failing. */
export async function layoutJobGraph(vertices: readonly LayoutVertex[], edges: readonly EdgeView[]): Promise<GraphLayout> {
  const graph = buildElkGraph(vertices, edges);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const elk = await loadElk();
      return { ...readElkLayout(await elk.layout(graph)), thread: elk.thread };
    } catch (error) {
      // A worker that failed has handed over to the page: try once more there.
      if (attempt === 1) console.warn('Job graph layout failed, showing simple columns instead.', error);
    }
  }
  return fallbackLayout(vertices, edges);
}
