import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStoreApi,
  type NodeMouseHandler,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useCallback, useEffect, useId, useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import type { JobGraph } from '../../../engine/contracts/jobs';
import { useTheme } from '../../app/theme';
import { testIds } from '../../testIds';
import { paintVertex } from './colors';
import { markedHottest, pathStyle } from './graphFocus';
import { sameEdgeData, sameElements, type Kept } from './keepUnchanged';
import { sameVertex } from './sameVertex';
import { FOCUS_ZOOM } from './levelOfDetail';
import { LARGE_GRAPH_VERTICES, VERTEX_HEIGHT, VERTEX_WIDTH, usableEdges, type GraphLayout } from './layout';
import { Legend } from './Legend';
import { ShipEdge, type ShipEdgeData, type ShipFlowEdge } from './ShipEdge';
import { VertexNode, type VertexFlowNode, type VertexMark } from './VertexNode';
import { fitView, initialView, initialViewShowsWhole, sameViewport, showsBox, viewAfterResize, type InitialView, type Viewport } from './viewport';

const nodeTypes = { vertex: VertexNode };
/** A graph this small is read whole at a glance; the MiniMap would only cover part of it. */
const MINIMAP_FROM_VERTICES = 8;
const edgeTypes = { ship: ShipEdge };
/** One object for every refresh (a vertex the layout missed, an edge without a route), so an unchanged one compares equal. */
const ORIGIN = { x: 0, y: 0 };
const NO_POINTS: ShipEdgeData['points'] = [];
const EDGE_MARKER = { type: MarkerType.ArrowClosed, width: 16, height: 16, color: 'var(--graph-edge)' };

/** Fit padding that keeps vertices clear of the MiniMap (bottom right) and the controls (bottom left). */
const FIT_VIEW_OPTIONS = {
  padding: { top: '32px', left: '64px', bottom: '40px', right: '210px' },
  maxZoom: 1.1,
} as const;

/** What the page can ask of the graph: bring a vertex into view (the vertex list's "zoom to"), or show it whole. */
export interface JobGraphControl {
  zoomTo(vertexId: string): void;
  fitView(): void;
}

export interface JobGraphCanvasProps {
  graph: JobGraph;
  layout: GraphLayout;
  selectedVertexId: string | null;
  onSelectVertex: (vertexId: string) => void;
  /**
   * A vertex to lead the eye to (the one the diagnosis names): marked with a callout, and zoomed to whenever the value
   * changes. The hottest vertex is marked without asking.
   */
  focusVertexId?: string | null;
  /** Vertices to highlight, e.g. `upstreamOf(graph.edges, bottleneckId)` (graphFocus.ts): the rest is drawn faint. */
  highlightPath?: readonly string[] | null;
  ref?: Ref<JobGraphControl>;
}

/**
 * Memoized: the job page re-renders on every poll's start and end (its loading flags); the graph re-renders only when
 * its own props change (a graph refresh), so a refresh of the subtasks table never redraws 200 vertices.
 */
export const JobGraphCanvas = memo(function JobGraphCanvas(props: JobGraphCanvasProps): ReactNode {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
});

function Canvas({ graph, layout, selectedVertexId, onSelectVertex, focusVertexId = null, highlightPath = null, ref }: JobGraphCanvasProps): ReactNode {
  const { resolved: theme } = useTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const flow = useReactFlow();

  const large = graph.vertices.length >= LARGE_GRAPH_VERTICES;
  const hottestId = useMemo(() => markedHottest(graph.vertices)?.id ?? null, [graph.vertices]);
  const markOf = useCallback(
    (id: string): VertexMark | null => (id === focusVertexId ? 'focus' : id === hottestId ? 'hottest' : null),
    [focusVertexId, hottestId],
  );

  // A vertex whose figures and marks did not change keeps its node object: a refresh re-renders only what moved.
  const previousNodes = useRef<Kept<VertexFlowNode>>({ list: [], byId: new Map() });
  const nodes = useMemo<VertexFlowNode[]>(() => {
    const jobNotRunning = graph.state === 'RUNNING' ? null : graph.state;
    const next = graph.vertices.map((vertex): VertexFlowNode => {
      const data = {
        vertex,
        selected: vertex.id === selectedVertexId,
        jobNotRunning,
        mark: markOf(vertex.id),
      };
      const position = layout.positions[vertex.id] ?? ORIGIN;
      const old = previousNodes.current.byId.get(vertex.id);
      if (
        old &&
        old.position === position &&
        old.data.selected === data.selected &&
        old.data.jobNotRunning === data.jobNotRunning &&
        old.data.mark === data.mark &&
        sameVertex(old.data.vertex, vertex)
      ) {
        return old;
      }
      return {
        id: vertex.id,
        type: 'vertex',
        position,
        data,
        width: VERTEX_WIDTH,
        height: VERTEX_HEIGHT,
        draggable: false,
        connectable: false,
        selectable: true,
        ariaLabel: `${vertex.name}, parallelism ${vertex.parallelism}, ${vertex.status}`,
      };
    });
    // Nothing moved: the same array, so React Flow does not even look (a new array makes it adopt every node again
    // and re-run each node's store selectors).
    if (sameElements(previousNodes.current.list, next)) return previousNodes.current.list;
    previousNodes.current = { list: next, byId: new Map(next.map((node) => [node.id, node])) };
    return next;
  }, [graph.vertices, graph.state, layout, selectedVertexId, markOf]);

  // The edges depend on the structure (fixed for this canvas: GraphTab keys it by structure) and the layout, never on
  // a refresh's figures: an edge keeps its object, and its component does not re-render.
  const previousEdges = useRef<Kept<ShipFlowEdge>>({ list: [], byId: new Map() });
  const structureEdges = useMemo(() => usableEdges(graph.vertices, graph.edges), [graph.vertices, graph.edges]);
  const edges = useMemo<ShipFlowEdge[]>(() => {
    const next = structureEdges.map(({ id, edge }): ShipFlowEdge => {
      const route = layout.edges[id];
      const data: ShipEdgeData = {
        strategy: edge.shipStrategy,
        points: route?.points ?? NO_POINTS,
        label: route?.label ?? null,
      };
      const old = previousEdges.current.byId.get(id);
      if (old && old.source === edge.source && old.target === edge.target && old.data && sameEdgeData(old.data, data)) return old;
      return {
        id,
        type: 'ship',
        source: edge.source,
        target: edge.target,
        data,
        markerEnd: EDGE_MARKER,
        selectable: false,
        focusable: false,
      };
    });
    if (sameElements(previousEdges.current.list, next)) return previousEdges.current.list;
    previousEdges.current = { list: next, byId: new Map(next.map((edge) => [edge.id, edge])) };
    return next;
  }, [structureEdges, layout]);

  // The path from the sources to the diagnosis's vertex, as a style sheet (see pathStyle): a new path restyles the
  // graph without re-rendering its nodes and edges. Built again only when the path itself changes.
  const scope = useId();
  const pathKey = highlightPath?.join(' ') ?? '';
  const highlight = useMemo(() => pathStyle(scope, pathKey === '' ? null : pathKey.split(' '), structureEdges), [scope, pathKey, structureEdges]);
  // The edges' sheet follows the vertices' a frame later, so each frame restyles half the graph (all of it in one frame
  // took 30-45 ms of CPU on the 200-vertex graph).
  const edgeSheet = useRef<HTMLStyleElement>(null);
  useEffect(() => {
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => {
        if (edgeSheet.current) edgeSheet.current.textContent = highlight.edges;
      });
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [highlight.edges]);

  const onNodeClick = useCallback<NodeMouseHandler<VertexFlowNode>>((_, node) => onSelectVertex(node.id), [onSelectVertex]);

  /** The view the canvas last set itself, and whether it showed the whole graph: a viewport that differs was moved by the user. */
  const lastApplied = useRef<{ showedWhole: boolean; viewport: Viewport } | null>(null);
  const apply = useCallback(
    async (choose: typeof initialView) => {
      const box = containerRef.current?.getBoundingClientRect();
      const canvas = { width: box?.width ?? 0, height: box?.height ?? 0 };
      const size = { width: layout.width, height: layout.height };
      const view: InitialView = choose(canvas, size);
      if (view.kind === 'viewport') await flow.setViewport(view.viewport);
      else await flow.fitView(FIT_VIEW_OPTIONS);
      lastApplied.current = { showedWhole: choose === fitView || initialViewShowsWhole(canvas, size), viewport: flow.getViewport() };
    },
    [flow, layout],
  );
  const onFitView = useCallback(() => void apply(fitView), [apply]);

  // "Zoom to": the vertex centred, its figures readable. The user's view from then on, like a pan.
  const zoomTo = useCallback(
    (vertexId: string) => {
      const at = layout.positions[vertexId];
      if (at) void flow.setCenter(at.x + VERTEX_WIDTH / 2, at.y + VERTEX_HEIGHT / 2, { zoom: FOCUS_ZOOM, duration: 300 });
    },
    [flow, layout],
  );
  useImperativeHandle(ref, () => ({ zoomTo, fitView: onFitView }), [zoomTo, onFitView]);
  // The diagnosis's vertex is zoomed to only when the view does not already show it: a graph shown whole stays whole
  // (the vertex is marked on it), rather than opening zoomed in with the sources cut off.
  // The canvas's size as React Flow last measured it: reading the element's box here would make the browser lay out
  // the page inside this effect, in the same task as the render that changed the focus (30 ms on a 200-vertex graph).
  const store = useStoreApi<VertexFlowNode, ShipFlowEdge>();
  const bringIntoView = useCallback(
    (vertexId: string) => {
      const at = layout.positions[vertexId];
      const { width, height } = store.getState();
      if (!at || !width || !height) return;
      if (!showsBox(flow.getViewport(), { width, height }, { ...at, width: VERTEX_WIDTH, height: VERTEX_HEIGHT })) zoomTo(vertexId);
    },
    [flow, layout, zoomTo, store],
  );
  // Only when the focus changes (a refresh must not pull the view back); the first view brings it in too.
  const focusRef = useRef(focusVertexId);
  useEffect(() => {
    if (focusVertexId && focusVertexId !== focusRef.current) bringIntoView(focusVertexId);
    focusRef.current = focusVertexId;
  }, [focusVertexId, bringIntoView]);
  // First view (see viewport.ts): a small graph centred and large, a big one at its sources, readable.
  const onInit = useCallback(
    () =>
      void apply(initialView).then(() => {
        if (focusRef.current) bringIntoView(focusRef.current);
      }),
    [apply, bringIntoView],
  );

  // A resized window (or the subtasks panel opening) fits the graph to the new size again, unless the user has
  // panned or zoomed since: their view is left alone.
  useEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const last = lastApplied.current;
        if (last && sameViewport(flow.getViewport(), last.viewport)) void apply(viewAfterResize(last.showedWhole));
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [apply, flow]);

  const minimapColor = useCallback((node: VertexFlowNode) => paintVertex(node.data.vertex).fill, []);

  return (
    <div className="graph-canvas" data-graph={scope} data-testid={testIds.jobGraph.canvas} data-layout={layout.engine} data-layout-thread={layout.thread} data-path={highlight.vertices ? 'shown' : undefined}>
      <style>{highlight.vertices}</style>
      <style ref={edgeSheet} />
      <Legend vertexCount={graph.vertices.length} />
      <div className="graph-canvas__flow" ref={containerRef}>
      <ReactFlow<VertexFlowNode, ShipFlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        onInit={onInit}
        nodesDraggable={false}
        nodesConnectable={false}
        edgesFocusable={false}
        minZoom={0.05}
        maxZoom={2.5}
        onlyRenderVisibleElements={large}
        attributionPosition="top-right"
        colorMode={theme}
      >
        {/* The dots move with every pan frame: a large graph is panned without repainting them. */}
        {large ? null : <Background variant={BackgroundVariant.Dots} gap={20} size={1} color="var(--graph-dots)" />}
        <Controls showInteractive={false} showFitView={false} position="bottom-left">
          <ControlButton onClick={onFitView} aria-label="Fit View" title="Fit view: the whole graph">
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d="M1 5V1h4M11 1h4v4M15 11v4h-4M5 15H1v-4" fill="none" stroke="currentColor" strokeWidth="1.8" />
            </svg>
          </ControlButton>
        </Controls>
        {graph.vertices.length > MINIMAP_FROM_VERTICES ? (
        <MiniMap<VertexFlowNode>
          position="bottom-right"
          pannable
          zoomable
          nodeColor={minimapColor}
          nodeStrokeWidth={0}
          maskColor="var(--graph-minimap-mask)"
          ariaLabel="Overview of the whole job graph"
          style={{ width: 180, height: 120 }}
        />
        ) : null}
      </ReactFlow>
      </div>
      {layout.engine === 'fallback' ? (
        <p className="graph-canvas__note" role="note">
          The automatic layout failed; vertices are shown in simple columns.
        </p>
      ) : null}
    </div>
  );
}
