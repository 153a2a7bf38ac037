import type { Finding, JobDiagnosis } from '../contracts/diagnosis.ts';
import type { JobGraph, VertexView } from '../contracts/jobs.ts';
import { BUSY_MS, SATURATED_MS, SKEW_REST_SHARE, formatSpan, shortName } from './root-cause.ts';
import { msPerSecondInWords, namesInWords, timesInWords } from './in-words.ts';
import { maxOverAvg } from './skew.ts';

/**
 * The first look: what Flink's own current figures say (the aggregated subtask metrics the graph reads, with Flink's
 * backpressure thresholds), for the time before the history holds enough evidence for a verdict — and the guard that
 * no health verdict stands while Flink reports a vertex HIGH. Pure: the caller brings the graph.
 */

/**
 * How long after its deployment a vertex's per-second figures may still measure nothing: Flink's idle and
 * back-pressured gauges read 0 (so busy 1,000 ms/s) until their first 5 s view update, which covers only part of its
 * 5 s, and the JobManager serves the figures it fetched up to `metrics.fetcher.update-interval` (10 s) before.
 */
export const SETTLING_MS = 15_000;

/** Pure: the vertex's figures cannot be taken as a measurement yet (deployed under `SETTLING_MS` before they were read). */
export function isSettling(vertex: VertexView, fetchedAt: number): boolean {
  return vertex.startTime !== undefined && fetchedAt - vertex.startTime < SETTLING_MS;
}

/** Pure: the reading order over Flink's current figures; null when they show nothing to act on. */
export function firstLook(graph: JobGraph): Finding | null {
  if (graph.state !== 'RUNNING') return null;
  const byId = new Map(graph.vertices.map((v) => [v.id, v]));
  const downstream = new Map<string, string[]>();
  for (const e of graph.edges) (downstream.get(e.source) ?? downstream.set(e.source, []).get(e.source)!).push(e.target);
  const measured = (v: VertexView) => !isSettling(v, graph.fetchedAt);
  const pressured = (v: VertexView) => measured(v) && (v.backpressureLevel === 'high' || v.backpressureLevel === 'low');
  const busyMax = (v: VertexView) => (measured(v) ? (v.busyTimeMsPerSecond?.max ?? 0) : 0);

  const victims = graph.vertices.filter(pressured);
  const causes = new Map<string, VertexView[]>();
  for (const victim of victims) {
    const seen = new Set([victim.id]);
    const queue = [...(downstream.get(victim.id) ?? [])];
    while (queue.length > 0) {
      const vertex = byId.get(queue.shift()!);
      if (!vertex || seen.has(vertex.id)) continue;
      seen.add(vertex.id);
      if (pressured(vertex)) queue.push(...(downstream.get(vertex.id) ?? []));
      else if (busyMax(vertex) >= BUSY_MS) (causes.get(vertex.id) ?? causes.set(vertex.id, []).get(vertex.id)!).push(victim);
    }
  }
  const ranked = [...causes.entries()].sort(([a], [b]) => busyMax(byId.get(b)!) - busyMax(byId.get(a)!));
  if (ranked.length > 0) {
    const [causeId, of] = ranked[0];
    return busyFinding(graph, byId.get(causeId)!, of);
  }
  if (victims.length > 0) {
    const worst = [...victims].sort((a, b) => (b.backPressuredTimeMsPerSecond?.max ?? 0) - (a.backPressuredTimeMsPerSecond?.max ?? 0))[0];
    return {
      ...base(worst),
      kind: 'unclear-backpressure',
      severity: 'warning',
      sentence: `Flink now: ${shortName(worst.name)} is back-pressured ${level(worst)} (up to ${msPerSecondInWords(worst.backPressuredTimeMsPerSecond!.max)}), and nothing downstream is busy.`,
      metric: 'backPressuredTimeMsPerSecond',
    };
  }
  const busy = graph.vertices.filter((v) => busyMax(v) >= BUSY_MS).sort((a, b) => busyMax(b) - busyMax(a));
  return busy.length > 0 ? busyFinding(graph, busy[0], []) : null;
}

function busyFinding(graph: JobGraph, vertex: VertexView, victims: VertexView[]): Finding {
  const busy = vertex.busyTimeMsPerSecond!;
  const ratio = maxOverAvg(busy);
  // The window's rule (root-cause: the rest at most 0.6× as busy as the loaded) on what the aggregates tell: the
  // least busy subtask far below the busiest. max/mean alone cannot reach 2× at parallelism 2.
  const skewed = vertex.parallelism > 1 && busy.min <= SKEW_REST_SHARE * busy.max;
  const state = busy.max >= SATURATED_MS ? 'saturated' : 'busy';
  const spread =
    vertex.parallelism === 1
      ? `its only subtask busy ${msPerSecondInWords(busy.max)}`
      : `busiest subtask ${msPerSecondInWords(busy.max)}, average ${msPerSecondInWords(busy.avg)}${ratio !== null ? `, max/mean ${timesInWords(ratio)}` : ''}${vertex.dataSkewPercent != null ? `, Data Skew ${Math.round(vertex.dataSkewPercent)}%` : ''}`;
  const why = skewed ? 'likely a hot key (its least busy subtask far below the busiest)' : vertex.parallelism > 1 ? 'its subtasks are busy alike: likely under-provisioned' : 'it is at its capacity';
  const blamed =
    victims.length > 0 ? ` ${namesInWords(victims.map((v) => `${shortName(v.name)} (${level(v)})`))} ${victims.length === 1 ? 'is' : 'are'} back-pressured behind it.` : '';
  return {
    ...base(vertex),
    kind: skewed ? 'skew' : 'under-provisioned',
    severity: victims.length > 0 ? 'critical' : 'warning',
    sentence: `Flink now: ${shortName(vertex.name)} is ${state} (${spread}): ${why}.${blamed}`,
    details: [
      `From Flink's current figures (the JobManager's metrics at ${new Date(graph.fetchedAt).toISOString().slice(11, 19)} UTC): the window's history is too short for a verdict yet, and will tell which subtasks and how steadily.`,
    ],
    victims: victims.map((v) => ({ vertexId: v.id, name: v.name, level: v.backpressureLevel === 'high' ? 'high' : 'low', highSubtasks: [], idleSubtasks: [], direct: true })),
  };
}

function base(vertex: VertexView): Finding {
  return {
    kind: 'not-enough-data',
    severity: 'unknown',
    sentence: '',
    details: [],
    vertexId: vertex.id,
    vertexName: vertex.name,
    subtasks: [],
    metric: 'busyTimeMsPerSecond',
    victims: [],
    suggestedParallelism: null,
  };
}

/**
 * Pure: the diagnosis to show, given what Flink says now. A window finding that calls for attention stands. A window
 * without a verdict yet gives way to the first look (or says, without a verdict, that Flink shows nothing now). A
 * "nothing wrong" never stands while Flink reports a vertex HIGH: the first look takes its place and says the window
 * does not show it yet.
 */
export function withFlinkNow(diagnosis: JobDiagnosis, graph: JobGraph | null): JobDiagnosis {
  const { finding } = diagnosis;
  const windowOnly = { ...diagnosis, basis: { source: 'window' as const } };
  // Only a running job has current figures (a restarting one's are its last sample's, not now's).
  if (finding.severity === 'critical' || finding.severity === 'warning' || !graph || graph.state !== 'RUNNING') return windowOnly;
  const now = firstLook(graph);
  // A verdict on enough evidence gives way only to what Flink calls HIGH (a busy vertex's instant figure flickers).
  const overrides = finding.kind !== 'nothing-wrong' || graph.vertices.some((v) => v.backpressureLevel === 'high');
  if (now && overrides) {
    const reason = finding.kind === 'nothing-wrong' ? ('flink-high' as const) : ('no-evidence' as const);
    const note =
      reason === 'flink-high'
        ? `The window's figures show nothing wrong yet (${finding.sentence}) — Flink's current ones do: the change is newer than the window's evidence.`
        : finding.sentence;
    return { ...diagnosis, basis: { source: 'flink-now', fetchedAt: graph.fetchedAt, reason }, finding: { ...now, details: [...now.details, note] } };
  }
  if (finding.kind === 'nothing-wrong') return windowOnly;
  // Flink shows nothing to act on: said for the vertices that have figures, and the ones without named.
  const without = graph.vertices.filter((v) => !v.busyTimeMsPerSecond || !v.backPressuredTimeMsPerSecond).map((v) => shortName(v.name));
  const settling = graph.vertices.filter((v) => v.busyTimeMsPerSecond && v.backPressuredTimeMsPerSecond && isSettling(v, graph.fetchedAt));
  const unmeasured = [
    ...(without.length > 0 ? [`${namesInWords(without)} ${without.length === 1 ? 'has' : 'have'} none yet`] : []),
    ...(settling.length > 0 ? [`${namesInWords(settling.map((v) => shortName(v.name)))} started ${formatSpan(graph.fetchedAt - Math.max(...settling.map((v) => v.startTime!)))} ago: ${settling.length === 1 ? 'its' : 'their'} figures do not measure anything yet`] : []),
  ];
  const seen =
    unmeasured.length === 0
      ? 'Flink now: no vertex is back-pressured or busy.'
      : without.length === graph.vertices.length
        ? 'Flink has no current figures for this job yet.'
        : `Flink now: no vertex with figures is back-pressured or busy (${unmeasured.join('; ')}).`;
  return { ...diagnosis, basis: { source: 'flink-now', fetchedAt: graph.fetchedAt, reason: 'no-evidence' }, finding: { ...finding, sentence: `${seen} ${finding.sentence}` } };
}

function level(v: VertexView): string {
  return v.backpressureLevel === 'high' ? 'HIGH' : 'LOW';
}

