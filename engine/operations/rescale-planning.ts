import type { HotKeyLoad } from '../contracts/operations.ts';
import type { RescalePlan } from '../contracts/rescale.ts';
import { planKeyedVertex, RESCALE_PLAN_ASSUMPTION } from '../analysis/rescale-plan.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { keyedVertexIds, schedulerOf, slotsUsedByJob, type ClusterFacts } from './cluster-facts.ts';
import type { ObservedLoad } from './observed-load.ts';

/**
 * The rescale plan of a job: the target per vertex, the route, what refuses it (above max parallelism), what warns
 * (uneven key groups, too few slots), and per keyed vertex the predicted per-subtask load. Pure over the facts and
 * the observed load.
 */

/** One parallelism for all vertices, or per vertex id; checked against the job's vertices. */
export function targetParallelism(facts: Pick<ClusterFacts, 'details'>, requested: number | Record<string, number>): Record<string, number> {
  const vertices = facts.details.vertices;
  const check = (p: unknown, where: string): number => {
    if (!Number.isInteger(p) || (p as number) < 1) throw new EngineError('invalid-input', `The parallelism${where} must be a whole number of at least 1, not "${String(p)}".`);
    return p as number;
  };
  if (typeof requested === 'number') {
    const p = check(requested, '');
    return Object.fromEntries(vertices.map((v) => [v.id, p]));
  }
  if (typeof requested !== 'object' || requested === null) throw new EngineError('invalid-input', 'Give a parallelism: a number, or one per vertex id.');
  const target: Record<string, number> = Object.fromEntries(vertices.map((v) => [v.id, v.parallelism]));
  for (const [id, p] of Object.entries(requested)) {
    const vertex = vertices.find((v) => v.id === id || v.name === id);
    if (!vertex) throw new EngineError('invalid-input', `The job has no vertex "${id}". Its vertices: ${vertices.map((v) => `${v.name} (${v.id})`).join(', ')}.`);
    target[vertex.id] = check(p, ` of ${vertex.name}`);
  }
  return target;
}

export function validateHotKeys(hotKeys: unknown): HotKeyLoad[] {
  if (hotKeys === undefined || hotKeys === null) return [];
  if (!Array.isArray(hotKeys)) throw new EngineError('invalid-input', 'Hot keys must be a list of {key, recordsPerSecond}.');
  return hotKeys.map((k, i) => {
    const key = (k as HotKeyLoad | null)?.key;
    const rate = (k as HotKeyLoad | null)?.recordsPerSecond;
    if (typeof key !== 'string' || key === '') throw new EngineError('invalid-input', `Hot key ${i + 1} has no key.`);
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0) throw new EngineError('invalid-input', `Hot key "${key}" needs a rate in records per second (a number ≥ 0).`);
    const vertexId = (k as HotKeyLoad).vertexId;
    return { key, recordsPerSecond: rate, ...(typeof vertexId === 'string' && vertexId !== '' ? { vertexId } : {}) };
  });
}

export function buildRescalePlan(input: {
  clusterId: string;
  facts: ClusterFacts;
  target: Record<string, number>;
  hotKeys: HotKeyLoad[];
  load: ObservedLoad;
  route?: 'adaptive' | 'savepoint';
  now: number;
}): RescalePlan {
  const { facts, target } = input;
  const details = facts.details;
  const scheduler = schedulerOf(facts);
  const route = input.route ?? (scheduler.kind === 'adaptive' ? 'adaptive' : 'savepoint');
  const refusals: string[] = [];
  const warnings: string[] = [];
  for (const v of details.vertices) {
    const max = v.maxParallelism ?? details.maxParallelism;
    const p = target[v.id];
    if (max !== undefined && max > 0 && p > max) {
      refusals.push(
        `Parallelism ${p} is above the max parallelism of ${v.name} (${max}): Flink cannot run more subtasks than key groups. The max parallelism can only change with a new job that does not restore this state.`,
      );
    }
  }
  const distinct = [...new Set(Object.values(target))];
  if (route === 'savepoint' && distinct.length > 1) {
    refusals.push('Through a savepoint the job is resubmitted with one parallelism for all its vertices (the jar run has no per-vertex setting): give one parallelism, or rescale on an adaptive-scheduler cluster.');
  }
  if (route === 'adaptive' && scheduler.kind !== 'adaptive') refusals.push(`The adaptive route needs the adaptive scheduler. ${scheduler.reason}`);
  if (route === 'savepoint' && distinct.length === 1) {
    // A jar run sets one job parallelism; an operator that sets its own keeps it (as in Flink). Vertices that run
    // apart from the others now likely do: said before the stop, not only in the outcome.
    const own = ownParallelismVertices(details.vertices);
    if (own.length > 0) {
      warnings.push(
        `Through a savepoint the job runs again at one job parallelism (${distinct[0]}); an operator that sets its own parallelism keeps it. ${own.map((v) => `${v.name} runs at ${v.parallelism} unlike the others`).join('; ')}: if its operator sets that itself, it stays there. The outcome names any vertex that does not reach ${distinct[0]}.`,
      );
    }
  }
  const needed = Math.max(...Object.values(target));
  const available = facts.slots.available + slotsUsedByJob(details);
  if (needed > available) {
    const message = `Parallelism ${needed} needs ${needed} slots; the cluster has ${available} for this job (${facts.slots.available} free + the ${slotsUsedByJob(details)} it holds).`;
    if (route === 'savepoint') refusals.push(`${message} The resubmitted job could not run: add TaskManagers first.`);
    else warnings.push(`${message} The adaptive scheduler runs the job at what it can get and scales up when slots free up.`);
  }

  const keyed = keyedVertexIds(details);
  // Only the keyed vertices whose parallelism changes: the others keep their key groups where they are.
  const vertices = details.vertices
    .filter((v) => keyed.has(v.id) && target[v.id] !== v.parallelism)
    .filter((v) => !refusals.length || target[v.id] <= (v.maxParallelism ?? details.maxParallelism ?? Infinity))
    .map((v) => {
      const load = input.load.vertices.get(v.id);
      const sameParallelism = load && load.parallelism === v.parallelism;
      const nan = new Float64Array(v.parallelism).fill(Number.NaN);
      return planKeyedVertex(
        {
          vertexId: v.id,
          vertexName: v.name,
          maxParallelism: v.maxParallelism ?? details.maxParallelism ?? 128,
          recordsInPerSecond: sameParallelism ? load.recordsInPerSecond : nan,
          busyTimeMsPerSecond: sameParallelism ? load.busyTimeMsPerSecond : nan,
        },
        target[v.id],
        input.hotKeys,
      );
    });
  for (const v of vertices) if (!v.spread.even && v.from !== v.to) warnings.push(`${v.vertexName}: ${v.findings.find((f) => f.includes('key groups over')) ?? ''}`);
  const unknownVertex = input.hotKeys.find((k) => k.vertexId !== undefined && !vertices.some((v) => v.vertexId === k.vertexId));
  if (unknownVertex) warnings.push(`Hot key "${unknownVertex.key}" names vertex ${unknownVertex.vertexId}, which is not a keyed vertex of this job: it is ignored.`);
  if (keyed.size === 0) warnings.push('No vertex of this job is keyed (no keyBy edge): there are no key groups to plan.');
  else if (vertices.length === 0 && refusals.length === 0) warnings.push('No keyed vertex changes its parallelism: its key groups stay where they are.');

  return {
    clusterId: input.clusterId,
    jobId: details.jid,
    jobName: details.name,
    createdAt: input.now,
    route,
    routeReason: route === 'adaptive' || scheduler.kind !== 'adaptive' ? scheduler.reason : 'Asked to go through a savepoint although the adaptive scheduler could rescale in place.',
    parallelism: target,
    load: { source: input.load.source, from: input.load.from, to: input.load.to, samples: input.load.samples },
    vertices,
    refusals,
    warnings,
    slots: { needed, available },
    assumption: RESCALE_PLAN_ASSUMPTION,
  };
}

/**
 * Pure: the vertices whose parallelism differs from the job's most common one — operators that likely set their own
 * (a rescale through a savepoint would not change them). None when all run alike.
 */
export function ownParallelismVertices<V extends { parallelism: number }>(vertices: readonly V[]): V[] {
  const count = new Map<number, number>();
  for (const v of vertices) count.set(v.parallelism, (count.get(v.parallelism) ?? 0) + 1);
  if (count.size <= 1) return [];
  const common = [...count.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  return vertices.filter((v) => v.parallelism !== common);
}
