import type { Finding, SubtaskRef, VertexDiagnosis, Victim } from '../contracts/diagnosis.ts';
import { msPerSecondInWords, namesInWords, timesInWords } from './in-words.ts';
import { keyGroupRanges } from './key-groups/key-location.ts';
import { SATURATED_BUSY_MS } from './skew-figures.ts';
import { metricValues, subtaskRef } from './vertex-diagnosis.ts';
import { stateCode } from '../history/job-sample.ts';
import type { JobWindowStats, VertexWindowStats } from './window-stats.ts';

const RUNNING_STATE = stateCode('RUNNING');

/**
 * The on-call reading order, as a pure function of a window: a back-pressured vertex is a victim; walk downstream
 * to the first vertex that is busy but not back-pressured: that is the cause. Then say why it is busy: a few hot
 * subtasks (skew), all of them (under-provisioned), a sink (the external system is slow). Without backpressure:
 * a stalled watermark (an idle source split), a vertex close to saturation, or nothing wrong.
 */

/** Flink's "low" threshold: more than 10% of the time back-pressured. */
export const BACKPRESSURED_MS = 100;
/** Flink's "high" threshold: more than 50%. */
export const HIGH_MS = 500;
/** A subtask this busy limits its vertex. */
export const BUSY_MS = 500;
/** ... and this busy, it is saturated. */
export const SATURATED_MS = SATURATED_BUSY_MS;
/** Skew rather than under-provisioning: the other active subtasks are at most this share as busy as the loaded ones. */
export const SKEW_REST_SHARE = 0.6;
/** The utilization a rescale aims at (the Flink autoscaler's `utilization.target`). */
export const TARGET_UTILIZATION = 0.7;
/** A watermark that has not moved for this long while records flow is stalled. */
export const WATERMARK_STALL_MS = 30_000;
/**
 * "Nothing wrong" is said only on this much evidence: every running subtask's figures covering at least this long
 * (or the whole window asked for less one sampling interval, when that is shorter). Less, and the verdict waits (the
 * first look says what Flink shows now meanwhile).
 */
export const VERDICT_EVIDENCE_MS = 30_000;

export interface RootCause {
  finding: Finding;
  otherFindings: Finding[];
}

interface Context {
  window: JobWindowStats;
  byId: Map<string, VertexWindowStats>;
  diagnosis: Map<string, VertexDiagnosis>;
  downstream: Map<string, string[]>;
  upstream: Map<string, string[]>;
  span: string;
}

/** Pure: the finding (the one sentence and its evidence) and any further ones, from a window and its vertex figures. */
export function findRootCause(window: JobWindowStats, vertices: VertexDiagnosis[], requestedMs = window.to - window.from): RootCause {
  const ctx: Context = {
    window,
    byId: new Map(window.vertices.map((v) => [v.id, v])),
    diagnosis: new Map(vertices.map((v) => [v.vertexId, v])),
    downstream: adjacency(window, 'source', 'target'),
    upstream: adjacency(window, 'target', 'source'),
    span: formatSpan(Number.isFinite(window.to - window.from) && window.to > window.from ? window.to - window.from : requestedMs),
  };
  if (window.samples < 2) return { finding: notEnoughData(window), otherFindings: [] };

  const measured = window.vertices.filter((v) => !v.unavailable);
  const victims = measured.filter((v) => maxOf(v.mean.backPressuredTimeMsPerSecond) > BACKPRESSURED_MS);
  const causes = new Map<string, Set<string>>();
  const unexplained: VertexWindowStats[] = [];
  for (const victim of victims) {
    const found = walkDownstream(ctx, victim.id);
    if (found.length === 0) unexplained.push(victim);
    for (const cause of found) (causes.get(cause) ?? causes.set(cause, new Set()).get(cause)!).add(victim.id);
  }

  const findings: Finding[] = [];
  const ranked = [...causes.entries()].sort(([a, va], [b, vb]) => maxOf(ctx.byId.get(b)!.mean.busyTimeMsPerSecond) - maxOf(ctx.byId.get(a)!.mean.busyTimeMsPerSecond) || vb.size - va.size);
  for (const [causeId, victimIds] of ranked) findings.push(busyVertexFinding(ctx, ctx.byId.get(causeId)!, [...victimIds].map((id) => ctx.byId.get(id)!)));
  // Back-pressured vertices whose downstream shows nothing busy: report the ones furthest downstream.
  const frontier = unexplained.filter((v) => !(ctx.downstream.get(v.id) ?? []).some((d) => unexplained.some((u) => u.id === d)));
  for (const victim of frontier) findings.push(unclearBackpressure(ctx, victim));
  findings.push(...stalledWatermarks(ctx));
  if (victims.length === 0) {
    const busy = measured
      .filter((v) => maxOf(v.mean.busyTimeMsPerSecond) >= BUSY_MS)
      .sort((a, b) => maxOf(b.mean.busyTimeMsPerSecond) - maxOf(a.mean.busyTimeMsPerSecond));
    for (const vertex of busy) findings.push(busyVertexFinding(ctx, vertex, []));
  }
  if (findings.length === 0) {
    const evidence = verdictEvidence(window);
    // A window of W sampled every I holds samples spanning W − I at the least: that much is all it can cover.
    const intervalMs = (window.to - window.from) / Math.max(1, window.samples - 1);
    const needed = Math.min(VERDICT_EVIDENCE_MS, requestedMs - intervalMs);
    // 10% of slack: the readings fall a JobManager refresh apart, not exactly on the samples.
    findings.push(evidence.missing.length === 0 && evidence.spanMs >= 0.9 * needed ? nothingWrong({ ...ctx, span: evidenceSpan(ctx, evidence.spanMs, requestedMs) }, vertices) : noVerdictYet(ctx, evidence, needed, requestedMs));
  }
  const order: Record<Finding['severity'], number> = { critical: 0, warning: 1, ok: 2, unknown: 3 };
  const sorted = findings.map((f, i) => ({ f, i })).sort((a, b) => order[a.f.severity] - order[b.f.severity] || a.i - b.i).map(({ f }) => f);
  return { finding: sorted[0], otherFindings: sorted.slice(1) };
}

/** The first vertices downstream of a victim that are busy but not back-pressured themselves. */
function walkDownstream(ctx: Context, victimId: string): string[] {
  const found = new Set<string>();
  const seen = new Set<string>([victimId]);
  const queue = [...(ctx.downstream.get(victimId) ?? [])];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const vertex = ctx.byId.get(id);
    if (!vertex || vertex.unavailable) continue;
    if (maxOf(vertex.mean.backPressuredTimeMsPerSecond) > BACKPRESSURED_MS) queue.push(...(ctx.downstream.get(id) ?? []));
    else if (maxOf(vertex.mean.busyTimeMsPerSecond) >= BUSY_MS) found.add(id);
  }
  return [...found];
}

/** Why a vertex is busy: a few hot subtasks (skew), all of them (under-provisioned), or a slow external system (sink). */
function busyVertexFinding(ctx: Context, vertex: VertexWindowStats, victims: VertexWindowStats[]): Finding {
  const busy = vertex.mean.busyTimeMsPerSecond;
  const diagnosis = ctx.diagnosis.get(vertex.id);
  const p = vertex.parallelism;
  const max = maxOf(busy);
  const mean = meanOf(busy);
  const loaded = indexes(busy, (v) => v >= Math.max(BUSY_MS, 0.7 * max)).sort((a, b) => busy[b] - busy[a] || a - b);
  const active = indexes(busy, (v) => v > 0.01 * max);
  const rest = active.filter((k) => !loaded.includes(k));
  const restMean = rest.length > 0 ? rest.reduce((s, k) => s + busy[k], 0) / rest.length : 0;
  const loadedMean = loaded.reduce((s, k) => s + busy[k], 0) / loaded.length;
  const idleSubtasks = p - active.length;
  const victimList = victimsOf(ctx, vertex, victims);
  const direct = victimList.filter((v) => v.direct);
  const name = shortName(vertex.name);
  const keyed = diagnosis?.keyed ?? false;
  const because = direct.length > 0 ? ` ${namesInWords(direct.map((v) => shortName(v.name)))} ${direct.length === 1 ? 'is' : 'are'} back-pressured because of it.` : '';
  const noBackpressure = victims.length === 0;
  const base = {
    vertexId: vertex.id,
    vertexName: vertex.name,
    metric: 'busyTimeMsPerSecond' as const,
    victims: victimList,
  };
  const details: string[] = [];
  const fewKeysNote =
    idleSubtasks > 0
      ? `${idleSubtasks} of its ${p} subtasks ${keyed ? 'receive no records: fewer active keys than subtasks' : 'do nothing'} — that part is not skew.`
      : null;

  if (loaded.length <= active.length / 2 && restMean <= SKEW_REST_SHARE * loadedMean) {
    const hot = loaded;
    const siblings = p - hot.length;
    const restMax = Math.max(0, ...indexes(busy, () => true).filter((k) => !hot.includes(k)).map((k) => busy[k]).filter(Number.isFinite));
    const state = busy[hot[0]] >= SATURATED_MS ? 'saturated' : 'busy';
    const who = `${name} subtask${hot.length > 1 ? 's' : ''} ${namesInWords(hot.map(String))}`;
    const level = `${hot.length > 1 ? 'up to ' : ''}${msPerSecondInWords(busy[hot[0]])}`;
    const figure = `${state === 'saturated' ? `busy ${level}` : level}, ${timesInWords(busy[hot[0]] / mean)} the vertex's average`;
    const siblingsPhrase =
      siblings === 0 ? '' : restMax < 100 ? ` while its ${siblings} sibling${siblings === 1 ? '' : 's'} ${siblings === 1 ? 'is' : 'are'} nearly idle (busy at most ${msPerSecondInWords(restMax)})` : ` while its ${siblings} sibling${siblings === 1 ? ' is' : 's are'} busy at most ${msPerSecondInWords(restMax)}`;
    const cause = keyed ? 'data skew on the key' : 'the load is skewed across subtasks (the input is not keyed)';
    const sentence = noBackpressure
      ? `No backpressure yet, but ${who} ${hot.length > 1 ? 'are' : 'is'} ${state} (${figure})${siblingsPhrase}: ${cause}.`
      : `${who} ${hot.length > 1 ? 'are' : 'is'} ${state} (${figure})${siblingsPhrase}: ${cause}.${because}`;
    if (keyed && vertex.maxParallelism) {
      const ranges = keyGroupRanges(vertex.maxParallelism, p);
      details.push(
        `${hot.map((k) => `Subtask ${k} owns key groups ${ranges[k].startKeyGroup}–${ranges[k].endKeyGroup}`).join('; ')} of ${vertex.maxParallelism}: the hot key is there (look a key up to see which subtask owns it).`,
      );
    }
    if (fewKeysNote) details.push(fewKeysNote);
    details.push(...convoyExplanation(ctx, vertex, hot, direct));
    const further = victimList.filter((v) => !v.direct);
    if (further.length > 0) details.push(`${namesInWords(further.map((v) => v.name))}, further upstream, ${further.length === 1 ? 'is' : 'are'} back-pressured too.`);
    if (keyed) details.push('More parallelism will not help: the hot key stays on one subtask. Split it (salt the key and aggregate in two stages) or give it its own path.');
    return { ...base, kind: 'skew', severity: noBackpressure ? 'warning' : 'critical', sentence, details, subtasks: hot.map((k) => subtaskRef(ctx.window, vertex, k)), suggestedParallelism: null };
  }

  const suggested = Math.ceil((p * max) / (1000 * TARGET_UTILIZATION));
  const atLeast = max >= SATURATED_MS;
  const evenKeyGroups = keyed && vertex.maxParallelism ? evenKeyGroupParallelism(Math.max(suggested, p + 1), vertex.maxParallelism) : null;
  const suggestion = { current: p, suggested: Math.max(suggested, p + (atLeast ? 1 : 0)), atLeast, evenKeyGroups: evenKeyGroups !== null && evenKeyGroups !== suggested ? evenKeyGroups : null };
  if (fewKeysNote) details.push(fewKeysNote);
  const isSink = (ctx.downstream.get(vertex.id) ?? []).length === 0;
  const busyAll =
    p === 1 ? `busy ${msPerSecondInWords(max)} on its only subtask` : `busy on ${active.length === p ? `all ${p}` : `${active.length} of ${p}`} subtasks (average ${msPerSecondInWords(mean)}, busiest ${msPerSecondInWords(max)})`;
  if (isSink) {
    details.push('A sink busy on every subtask is usually waiting on the system it writes to (latency, throttling, a full disk): check that system first. More sink parallelism helps only if it can take more writes.');
    const sentence = noBackpressure
      ? `No backpressure yet, but ${name}, a sink, is ${busyAll}: the external system it writes to is slow.`
      : `${name}, a sink, is ${busyAll}: the external system it writes to is slow.${because}`;
    return { ...base, kind: 'external-system-slow', severity: noBackpressure ? 'warning' : 'critical', sentence, details, subtasks: [], suggestedParallelism: suggestion };
  }
  const target = `Parallelism ${suggestion.atLeast ? 'of at least ' : ''}${suggestion.suggested} would bring the busiest subtask under ${TARGET_UTILIZATION * 100}% busy`;
  details.unshift(
    `${target}${suggestion.evenKeyGroups ? `; ${suggestion.evenKeyGroups} spreads its ${vertex.maxParallelism} key groups evenly` : ''}.${suggestion.atLeast ? ' It is saturated, so backpressure hides how much more it is asked to do: expect to need more.' : ''}`,
  );
  const sentence = noBackpressure
    ? `No backpressure yet, but ${name} is ${busyAll}: close to its capacity.`
    : `${name} is under-provisioned: ${busyAll}.${because}`;
  return { ...base, kind: 'under-provisioned', severity: noBackpressure ? 'warning' : 'critical', sentence, details, subtasks: [], suggestedParallelism: suggestion };
}

/**
 * The lopsided picture a hot key paints upstream: only the upstream subtasks that feed the hot subtask are HIGH
 * (a subtask whose output is blocked on one channel stops altogether), and once the source blocks on them the
 * other upstream subtasks get no input and go idle.
 */
function convoyExplanation(ctx: Context, vertex: VertexWindowStats, hot: number[], direct: Victim[]): string[] {
  const out: string[] = [];
  for (const victim of direct) {
    const highs = victim.highSubtasks;
    const parallelism = ctx.byId.get(victim.vertexId)?.parallelism ?? 0;
    const others = parallelism - highs.length;
    if (highs.length === 0 || others === 0) continue;
    const upstream = (ctx.upstream.get(victim.vertexId) ?? []).map((id) => ctx.byId.get(id)).filter((v): v is VertexWindowStats => v !== undefined);
    const blockedUpstream = upstream.filter((u) => maxOf(u.mean.backPressuredTimeMsPerSecond) > HIGH_MS);
    const plural = highs.length > 1;
    const starve = `${others} subtask${others === 1 ? '' : 's'} get${others === 1 ? 's' : ''} little or no input and idle${others === 1 ? 's' : ''}`;
    out.push(
      `Only ${shortName(victim.name)} subtask${plural ? 's' : ''} ${namesInWords(highs.map(String))} ${plural ? 'are' : 'is'} HIGH: ` +
        `${plural ? 'they' : 'it'} cannot send to ${shortName(vertex.name)} subtask ${namesInWords(hot.map(String))}, and a Flink subtask whose output is blocked on one channel stops altogether. ` +
        (blockedUpstream.length > 0
          ? `${namesInWords(blockedUpstream.map((u) => shortName(u.name)))} then blocks on ${plural ? 'their' : 'its'} full input, so ${shortName(victim.name)}'s other ${starve}.`
          : `Its other ${starve}.`) +
        ' The backpressure looks lopsided; the cause is the hot subtask.',
    );
  }
  return out;
}

function victimsOf(ctx: Context, cause: VertexWindowStats, victims: VertexWindowStats[]): Victim[] {
  const directIds = new Set(ctx.upstream.get(cause.id) ?? []);
  return victims
    .map((v) => {
      const bp = v.mean.backPressuredTimeMsPerSecond;
      const idle = v.mean.idleTimeMsPerSecond;
      return {
        vertexId: v.id,
        name: v.name,
        level: maxOf(bp) > HIGH_MS ? ('high' as const) : ('low' as const),
        highSubtasks: indexes(bp, (x) => x > HIGH_MS),
        idleSubtasks: indexes(idle, (x, k) => x > HIGH_MS && !(bp[k] > BACKPRESSURED_MS)),
        direct: directIds.has(v.id),
      };
    })
    .sort((a, b) => Number(b.direct) - Number(a.direct));
}

function unclearBackpressure(ctx: Context, victim: VertexWindowStats): Finding {
  const downstream = (ctx.downstream.get(victim.id) ?? []).map((id) => ctx.byId.get(id)).filter((v): v is VertexWindowStats => v !== undefined);
  const withoutBusy = downstream.filter((d) => !d.unavailable && !d.mean.busyTimeMsPerSecond.some(Number.isFinite));
  const details = [
    withoutBusy.length > 0
      ? `${namesInWords(withoutBusy.map((d) => d.name))} downstream report${withoutBusy.length === 1 ? 's' : ''} no busy time (busy-time measurement off, or a Flink older than 1.13): the cause may be there.`
      : 'Possible causes: a slow network between TaskManagers, a subtask blocked in a call Flink counts as idle, or a downstream vertex whose figures are missing.',
  ];
  const bp = victim.mean.backPressuredTimeMsPerSecond;
  return {
    kind: 'unclear-backpressure',
    severity: 'warning',
    sentence: `${shortName(victim.name)} is back-pressured (up to ${msPerSecondInWords(maxOf(bp))}), but nothing downstream of it is busy: the cause does not show in the metrics.`,
    details,
    vertexId: victim.id,
    vertexName: victim.name,
    subtasks: indexes(bp, (x) => x > HIGH_MS).map((k) => subtaskRef(ctx.window, victim, k)),
    metric: 'backPressuredTimeMsPerSecond',
    victims: [],
    suggestedParallelism: null,
  };
}

/** A watermark that does not move while records flow: an idle source split holds event time back. */
function stalledWatermarks(ctx: Context): Finding[] {
  const stalled = ctx.window.vertices.filter((v) => isStalled(v) && (ctx.upstream.get(v.id) ?? []).length > 0);
  const first = stalled.filter((v) => !(ctx.upstream.get(v.id) ?? []).some((u) => stalled.some((s) => s.id === u)));
  return first.map((vertex) => {
    const sources = upstreamSources(ctx, vertex.id);
    const idleSplits: SubtaskRef[] = [];
    for (const source of sources) {
      const out = source.mean.recordsOutPerSecond;
      if (maxOf(out) <= 0) continue;
      for (const k of indexes(out, (x) => x === 0)) idleSplits.push(subtaskRef(ctx.window, source, k));
    }
    const stalledFor = Math.max(...indexes(vertex.watermarkLast, Number.isFinite).map((k) => vertex.watermarkLastAt[k] - vertex.watermarkFirstAt[k]));
    const flowing = sum(vertex.mean.recordsInPerSecond);
    const who =
      idleSplits.length > 0
        ? `${namesInWords([...new Set(sources.map((s) => shortName(s.name)))])} subtask${idleSplits.length > 1 ? 's' : ''} ${namesInWords(idleSplits.map((r) => String(r.subtask)))} emit${idleSplits.length > 1 ? '' : 's'} nothing: an idle split holds the watermark back`
        : 'a source split without data (or a stuck one) holds it back';
    const sourceVertex = idleSplits.length > 0 ? sources.find((s) => s.mean.recordsOutPerSecond[idleSplits[0].subtask] === 0) : undefined;
    return {
      kind: 'idle-source-split' as const,
      severity: 'warning' as const,
      sentence: `The watermark of ${shortName(vertex.name)} has not moved for ${formatSpan(stalledFor)} while ${rate(flowing)} records/s flow in: ${who}.`,
      details: [
        'Event-time windows and timers downstream wait until it moves. Declare idleness on the source (WatermarkStrategy.withIdleness) so a split without data stops holding event time.',
      ],
      vertexId: sourceVertex?.id ?? vertex.id,
      vertexName: sourceVertex?.name ?? vertex.name,
      subtasks: idleSplits,
      metric: sourceVertex ? ('recordsOutPerSecond' as const) : ('recordsInPerSecond' as const),
      victims: [],
      suggestedParallelism: null,
    };
  });
}

function isStalled(vertex: VertexWindowStats): boolean {
  if (vertex.unavailable || !(sum(vertex.mean.recordsInPerSecond) > 0)) return false;
  const known = indexes(vertex.watermarkLast, Number.isFinite);
  if (known.length === 0) return false;
  return known.every((k) => vertex.watermarkLast[k] === vertex.watermarkFirst[k] && vertex.watermarkLastAt[k] - vertex.watermarkFirstAt[k] >= WATERMARK_STALL_MS);
}

function upstreamSources(ctx: Context, id: string): VertexWindowStats[] {
  const seen = new Set<string>();
  const sources: VertexWindowStats[] = [];
  const queue = [...(ctx.upstream.get(id) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const parents = ctx.upstream.get(next) ?? [];
    if (parents.length === 0) {
      const vertex = ctx.byId.get(next);
      if (vertex) sources.push(vertex);
    } else queue.push(...parents);
  }
  return sources;
}

function nothingWrong(ctx: Context, vertices: VertexDiagnosis[]): Finding {
  const hot = vertices.filter((v) => v.pattern === 'hot');
  const fewKeys = vertices.filter((v) => v.pattern === 'few-keys');
  const details = fewKeys.map((v) => {
    const load = v.metrics.find((m) => m.metric === v.loadMetric);
    return `${shortName(v.name)}: ${load?.idle ?? 0} of ${v.parallelism} subtasks ${v.keyed ? 'receive no records — fewer active keys than subtasks' : 'do nothing'}, not skew.`;
  });
  let sentence = `Nothing is back-pressured or busy and no subtask is hot over the last ${ctx.span}: no skew.`;
  const subtasks: SubtaskRef[] = [];
  let vertexId: string | null = null;
  let vertexName: string | null = null;
  let metric: Finding['metric'] = null;
  if (hot.length > 0) {
    const worst = hot
      .map((v) => ({ v, load: v.metrics.find((m) => m.metric === v.loadMetric)! }))
      .sort((a, b) => (b.load.hot[0]?.timesMean ?? 0) - (a.load.hot[0]?.timesMean ?? 0))[0];
    const top = worst.load.hot[0];
    const values = metricValues(ctx.byId.get(worst.v.vertexId)!, worst.load.metric);
    const siblings = indexes(values, (x, k) => k !== top.subtask && x > 0.01 * top.value);
    const siblingsMean = siblings.reduce((s, k) => s + values[k], 0) / Math.max(1, siblings.length);
    const lead = siblings.length > 0 && siblingsMean > 0 ? `${timesInWords(top.value / siblingsMean)} the ${LOAD_WORD[worst.load.metric] ?? 'load'} of its active siblings` : `all the ${LOAD_WORD[worst.load.metric] ?? 'load'}`;
    sentence = `Nothing is back-pressured or busy over the last ${ctx.span}; ${shortName(worst.v.name)} subtask ${top.subtask} takes ${lead}: a hot key, not yet a bottleneck.`;
    subtasks.push(...worst.load.hot);
    vertexId = worst.v.vertexId;
    vertexName = worst.v.name;
    metric = worst.load.metric;
  }
  return { kind: 'nothing-wrong', severity: 'ok', sentence, details, vertexId, vertexName, subtasks, metric, victims: [], suggestedParallelism: null };
}

const LOAD_WORD: Partial<Record<string, string>> = {
  busyTimeMsPerSecond: 'busy time',
  recordsInPerSecond: 'records in',
  recordsOutPerSecond: 'records out',
};

/**
 * What a health verdict would rest on: the shortest time any running subtask's figures cover (the growth of its own
 * clock over the window, see window-stats), and the vertices that have no figures at all.
 */
export function verdictEvidence(window: JobWindowStats): { spanMs: number; missing: string[] } {
  let spanMs = Infinity;
  const missing: string[] = [];
  for (const vertex of window.vertices) {
    if (vertex.unavailable) {
      missing.push(vertex.name);
      continue;
    }
    // The running subtasks; where none runs any more (the vertex or the job ended), the ones that ran.
    const running = Array.from({ length: vertex.parallelism }, (_, k) => k).filter((k) => vertex.state[k] === RUNNING_STATE);
    const counted = running.length > 0 ? running : Array.from({ length: vertex.parallelism }, (_, k) => k).filter((k) => Number.isFinite(vertex.coveredMs[k]));
    for (const k of counted) spanMs = Math.min(spanMs, Number.isFinite(vertex.coveredMs[k]) ? vertex.coveredMs[k] : 0);
    if (counted.length === 0 && vertex.status === 'RUNNING') missing.push(vertex.name);
  }
  return { spanMs: spanMs === Infinity ? 0 : spanMs, missing };
}

/** The window a verdict names: the one it used — the evidence's span where that falls short of the samples' span. */
function evidenceSpan(ctx: Context, evidenceMs: number, requestedMs: number): string {
  const samplesMs = ctx.window.to - ctx.window.from;
  if (evidenceMs >= 0.75 * samplesMs) return ctx.span;
  return `${formatSpan(evidenceMs)} (all the evidence there is of the ${formatSpan(requestedMs)} asked)`;
}

/** Nothing shows wrong, but too little evidence for saying so: no green verdict, and what it waits for. */
function noVerdictYet(ctx: Context, evidence: { spanMs: number; missing: string[] }, neededMs: number, requestedMs: number): Finding {
  const sentence =
    evidence.missing.length > 0
      ? `No verdict over the last ${formatSpan(requestedMs)}: ${namesInWords(evidence.missing.map(shortName))} ${evidence.missing.length === 1 ? 'has' : 'have'} no figures in it.`
      : ctx.window.jobState === 'RUNNING'
        ? `No verdict yet over the last ${formatSpan(requestedMs)}: the subtasks' figures cover ${formatSpan(evidence.spanMs)} so far, and saying nothing is wrong takes ${formatSpan(neededMs)}.`
        : `No verdict over the last ${formatSpan(requestedMs)}: the job is ${ctx.window.jobState} and its subtasks' figures cover only ${formatSpan(evidence.spanMs)} of it (a verdict takes ${formatSpan(neededMs)}).`;
  return unknownFinding(sentence, [
    `Nothing in the ${ctx.span} sampled shows backpressure, a busy vertex or a hot subtask, but that is not yet evidence: the JobManager refreshes its metrics on its own schedule, so the first figures cover only part of the window.`,
  ]);
}

/** A finding that knows no cause yet: nothing marked, nothing named. */
function unknownFinding(sentence: string, details: string[]): Finding {
  return { kind: 'not-enough-data', severity: 'unknown', sentence, details, vertexId: null, vertexName: null, subtasks: [], metric: null, victims: [], suggestedParallelism: null };
}

function notEnoughData(window: JobWindowStats): Finding {
  return unknownFinding(
    window.samples === 0
      ? 'No samples of this job yet: the console samples a job while its page is open (or while pinned), so the window fills in a few seconds.'
      : `Only one sample so far: rates need two; the window fills while the job is watched.`,
    [],
  );
}

/** The smallest parallelism ≥ `from` that divides the key groups evenly (the autoscaler's EVENLY_SPREAD). */
export function evenKeyGroupParallelism(from: number, maxParallelism: number): number | null {
  for (let p = Math.max(1, from); p <= maxParallelism; p++) if (maxParallelism % p === 0) return p;
  return null;
}

function adjacency(window: JobWindowStats, from: 'source' | 'target', to: 'source' | 'target'): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const edge of window.edges) (map.get(edge[from]) ?? map.set(edge[from], []).get(edge[from])!).push(edge[to]);
  return map;
}

function maxOf(values: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max;
}

function meanOf(values: ArrayLike<number>): number {
  let total = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i])) {
      total += values[i];
      n++;
    }
  }
  return n > 0 ? total / n : Number.NaN;
}

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) total += values[i];
  return total;
}

function indexes(values: ArrayLike<number>, keep: (value: number, k: number) => boolean): number[] {
  const out: number[] = [];
  for (let k = 0; k < values.length; k++) if (keep(values[k], k)) out.push(k);
  return out;
}

/** The chain's first operator: what an operator calls the vertex ("tenant-cost" for "tenant-cost -> Sink: usd-sink"). */
export function shortName(name: string): string {
  return name.split(' -> ')[0].trim() || name;
}

function rate(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

/** "60 s", "5 min", "1 h 30 min". */
export function formatSpan(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}
