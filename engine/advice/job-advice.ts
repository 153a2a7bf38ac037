import { planKeyedVertex, SATURATED_BUSY_MS_PER_SECOND } from '../analysis/rescale-plan.ts';
import { adviseSalting, estimateKeyRate, placeStringKey, rescaleDoesNotSplit } from '../analysis/salting-advice.ts';
import type { AdviceOptions, JobAdvice } from '../contracts/advice.ts';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { keyedVertexIds, readClusterFacts } from '../operations/cluster-facts.ts';
import type { OperationClock } from '../operations/driver-context.ts';
import { observeLoad } from '../operations/observed-load.ts';

export interface JobAdviceInput {
  client: FlinkRestClient;
  history: HistoryStore;
  clusterId: string;
  jobId: string;
  options: AdviceOptions;
  /** The job's diagnosis now (its skew finding names the vertex and the hot subtask); null when there is none. */
  diagnosis: JobDiagnosis | null;
  metricsFetchIntervalMs: number;
  clock: OperationClock;
}

/**
 * The advice for a hot key of a job: the vertex (asked for, or the diagnosis' skew finding), its load per subtask
 * (the history's recent minutes, else measured now), salting and a rescale side by side.
 */
export async function jobAdvice(input: JobAdviceInput): Promise<JobAdvice> {
  try {
    return await adviseJob(input);
  } catch (error) {
    // The key-group math and the salted key format refuse impossible input with a RangeError: to the operator, bad input.
    if (error instanceof RangeError) throw new EngineError('invalid-input', error.message);
    throw error;
  }
}

async function adviseJob(input: JobAdviceInput): Promise<JobAdvice> {
  const { options } = input;
  const key = options.key;
  if (typeof key !== 'string' || key === '') {
    throw new EngineError('invalid-input', 'Give the hot key (--key K): the console has no sample of the job\'s keys to take it from.');
  }
  const given = options.keyRecordsPerSecond;
  if (given !== undefined && !(Number.isFinite(given) && given > 0)) throw new EngineError('invalid-input', `The key's rate must be a number of records per second above 0, not "${String(given)}".`);
  const facts = await readClusterFacts(input.client, input.jobId);
  const details = facts.details;
  const keyed = keyedVertexIds(details);
  const findings = input.diagnosis ? [input.diagnosis.finding, ...input.diagnosis.otherFindings] : [];
  const skew = findings.find((f) => f.kind === 'skew' && f.vertexId !== null && keyed.has(f.vertexId));
  let vertex;
  if (options.vertexId) {
    vertex = details.vertices.find((v) => v.id === options.vertexId || v.name === options.vertexId);
    if (!vertex) throw new EngineError('invalid-input', `The job has no vertex "${options.vertexId}". Its vertices: ${details.vertices.map((v) => `${v.name} (${v.id})`).join(', ')}.`);
    if (!keyed.has(vertex.id)) throw new EngineError('invalid-input', `${vertex.name} is not keyed (no keyBy edge into it): salting splits a key of a keyed vertex.`);
  } else {
    vertex = skew ? details.vertices.find((v) => v.id === skew.vertexId) : undefined;
    if (!vertex) {
      const names = details.vertices.filter((v) => keyed.has(v.id)).map((v) => v.name);
      throw new EngineError('invalid-input', `The diagnosis finds no skew on a keyed vertex: name the vertex (--vertex${names.length ? `: ${names.join(', ')}` : ''}).`);
    }
  }
  const load = await observeLoad({ history: input.history, client: input.client, clusterId: input.clusterId, jobId: input.jobId, vertexIds: [vertex.id], metricsFetchIntervalMs: input.metricsFetchIntervalMs, clock: input.clock });
  const observed = load.vertices.get(vertex.id);
  if (!observed || observed.parallelism !== vertex.parallelism || !observed.recordsInPerSecond.some((r) => Number.isFinite(r))) {
    const seconds = Math.round((load.to - load.from) / 1000);
    throw new EngineError('not-found', `No load figures for ${vertex.name}: its subtasks' counters did not move over the ${load.samples} samples taken (${seconds} s${load.source === 'history' ? " of the console's history" : ', measured now'}).`);
  }
  const maxParallelism = vertex.maxParallelism ?? details.maxParallelism ?? 128;
  const home = placeStringKey(key, maxParallelism, vertex.parallelism);
  const keyRate = given ?? estimateKeyRate(home.subtask, observed.recordsInPerSecond);
  // Saturated, the key's subtask lets through only what it can: its observed rate is a lower bound of the key's demand.
  const homeSaturated = observed.busyTimeMsPerSecond[home.subtask] >= SATURATED_BUSY_MS_PER_SECOND;
  const salting = adviseSalting({
    key,
    keyRecordsPerSecond: keyRate,
    keyRateIsLowerBound: given === undefined && homeSaturated,
    maxParallelism,
    recordsInPerSecond: observed.recordsInPerSecond,
    busyTimeMsPerSecond: observed.busyTimeMsPerSecond,
    format: options.format,
    buckets: options.buckets,
  });

  // A rescale to double the parallelism and to the most the key groups allow: what it does to every other subtask.
  const targets = [...new Set([Math.min(maxParallelism, vertex.parallelism * 2), maxParallelism])].filter((p) => p !== vertex.parallelism);
  const hotKeys = keyRate === null ? [] : [{ key, recordsPerSecond: keyRate }];
  const plans = targets.map((to) =>
    planKeyedVertex({ vertexId: vertex.id, vertexName: vertex.name, maxParallelism, recordsInPerSecond: observed.recordsInPerSecond, busyTimeMsPerSecond: observed.busyTimeMsPerSecond }, to, hotKeys),
  );

  const hotSubtask = skew && skew.vertexId === vertex.id ? (skew.subtasks[0]?.subtask ?? null) : null;
  const warnings: string[] = [];
  if (hotSubtask !== null && hotSubtask !== home.subtask) {
    warnings.push(`${key} lands on subtask ${home.subtask} (key group ${home.keyGroup}), not on the hot subtask ${hotSubtask}: it may not be the key that makes ${vertex.name} skewed.`);
  }
  return {
    clusterId: input.clusterId,
    jobId: details.jid,
    jobName: details.name,
    vertexId: vertex.id,
    vertexName: vertex.name,
    basis: { vertex: options.vertexId ? 'option' : 'diagnosis', key: 'option', rate: given === undefined ? 'estimated' : 'option', load: load.source, from: load.from, to: load.to, samples: load.samples },
    hotSubtask,
    salting,
    rescale: { sentence: rescaleDoesNotSplit(key, keyRate, salting.capacity, homeSaturated), plans },
    warnings,
  };
}
