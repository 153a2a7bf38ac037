import { MAX_SALT_BUCKETS } from '../analysis/salting-advice.ts';
import type { JobDiagnosis } from '../contracts/diagnosis.ts';
import type { ObservedFigures, Rehearsal, RehearsalLimits, RehearsalOptions, RehearsalRun } from '../contracts/rehearsal.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { keyedVertexIds } from '../operations/cluster-facts.ts';
import type { OperationClock } from '../operations/driver-context.ts';
import { observeFigures } from './observed-figures.ts';
import { checkTwinSize, DEFAULT_MEASURED_SECONDS, REHEARSAL_LIMITS, RehearsalLimitError } from './rehearsal-limits.ts';
import { RehearsalCancelledError, runTwin } from './run-twin.ts';
import { placeSaltedKeys } from './salt-placement.ts';
import { matchTwin } from './twin-match.ts';
import { scaleShape, twinScale, unscaleRun } from './twin-scale.ts';
import type { TwinShape } from './twin-scenario.ts';
import { twinTraffic } from './twin-traffic.ts';

export interface RehearseJobInput {
  client: FlinkRestClient;
  history: HistoryStore;
  clusterId: string;
  jobId: string;
  options: RehearsalOptions;
  /** The job's diagnosis now (its skew finding names the vertex); null when there is none. */
  diagnosis: JobDiagnosis | null;
  metricsFetchIntervalMs: number;
  clock: OperationClock;
  signal?: AbortSignal;
  /** @default REHEARSAL_LIMITS */
  limits?: RehearsalLimits;
  /** Told as each run of the twin starts (the CLI shows it). */
  onRun?: (run: 'baseline' | 'proposal', simulatedSeconds: number) => void;
}

/**
 * A rehearsal of a job's fix: production's figures of the keyed vertex, the twin on the job's current shape (the
 * baseline), its match with production, and only then the proposal's run and what it predicts.
 */
export async function rehearseJob(input: RehearseJobInput): Promise<Rehearsal> {
  try {
    return await rehearse(input);
  } catch (error) {
    if (error instanceof RehearsalCancelledError) throw new EngineError('cancelled', error.message);
    // The limits, the key-group math and the job's options refuse impossible input: to the operator, bad input.
    if (error instanceof RehearsalLimitError || error instanceof RangeError) throw new EngineError('invalid-input', error.message);
    throw error;
  }
}

const wholeIn = (n: number | undefined, min: number, max: number) => n === undefined || (Number.isInteger(n) && n >= min && n <= max);

async function rehearse(input: RehearseJobInput): Promise<Rehearsal> {
  const limits = input.limits ?? REHEARSAL_LIMITS;
  const wallStart = Date.now();
  const heapAtStart = process.memoryUsage().heapUsed;
  const { options } = input;
  if ((options.salt === undefined) === (options.parallelism === undefined)) {
    throw new EngineError('invalid-input', 'Rehearse one proposal: salting with N buckets (--salt N) or a new parallelism (--parallelism P).');
  }
  if (!wholeIn(options.salt, 2, MAX_SALT_BUCKETS)) throw new EngineError('invalid-input', `Salt buckets must be a whole number from 2 to ${MAX_SALT_BUCKETS}, not ${options.salt}.`);
  const given = options.inputRecordsPerSecond;
  if (given !== undefined && !(Number.isFinite(given) && given > 0)) throw new EngineError('invalid-input', `The input rate must be a number of records per second above 0, not "${String(given)}".`);
  if (options.key !== undefined && options.key === '') throw new EngineError('invalid-input', 'The hot key cannot be empty.');
  const shares = options.keyShares ?? [];
  if (shares.some((s) => s.key === '' || !(s.share > 0 && s.share <= 1)) || shares.reduce((a, s) => a + s.share, 0) > 1 + 1e-9) {
    throw new EngineError('invalid-input', 'Key shares are keys with a share of all records above 0 and at most 1, summing to at most 1.');
  }
  const measuredSeconds = options.measuredSeconds ?? DEFAULT_MEASURED_SECONDS;

  const details = await input.client.request(endpoints.jobDetails, { jobid: input.jobId });
  const keyed = keyedVertexIds(details);
  const findings = input.diagnosis ? [input.diagnosis.finding, ...input.diagnosis.otherFindings] : [];
  const skew = findings.find((f) => f.kind === 'skew' && f.vertexId !== null && keyed.has(f.vertexId));
  const vertex = options.vertexId ? details.vertices.find((v) => v.id === options.vertexId || v.name === options.vertexId) : details.vertices.find((v) => v.id === skew?.vertexId);
  if (!vertex) {
    const names = details.vertices.filter((v) => keyed.has(v.id)).map((v) => v.name);
    throw new EngineError(
      'invalid-input',
      options.vertexId ? `The job has no vertex "${options.vertexId}". Its vertices: ${details.vertices.map((v) => `${v.name} (${v.id})`).join(', ')}.` : `The diagnosis finds no skew on a keyed vertex: name the vertex (--vertex${names.length ? `: ${names.join(', ')}` : ''}).`,
    );
  }
  if (!keyed.has(vertex.id)) throw new EngineError('invalid-input', `${vertex.name} is not keyed (no keyBy edge into it): the twin replays a keyed vertex.`);
  const maxParallelism = vertex.maxParallelism ?? details.maxParallelism ?? 128;
  if (!wholeIn(options.parallelism, 1, maxParallelism)) {
    throw new EngineError('invalid-input', `The parallelism must be a whole number from 1 to the max parallelism ${maxParallelism} of ${vertex.name}, not ${options.parallelism}.`);
  }
  const upstreamIds = new Set(upstreamOf(details.plan?.nodes ?? [], vertex.id));
  const upstream = details.vertices.filter((v) => upstreamIds.has(v.id)).map((v) => ({ id: v.id, parallelism: v.parallelism }));

  const observed = await observeFigures({
    client: input.client,
    history: input.history,
    clusterId: input.clusterId,
    jobId: input.jobId,
    vertex: { id: vertex.id, name: vertex.name, parallelism: vertex.parallelism, maxParallelism },
    upstream,
    inputRecordsPerSecond: given,
    metricsFetchIntervalMs: input.metricsFetchIntervalMs,
    clock: input.clock,
  });
  const demandScale = Math.max(1, observed.demandRecordsPerSecond / observed.throughputRecordsPerSecond);
  const traffic = twinTraffic({
    maxParallelism,
    recordsInPerSecond: observed.subtasks.map((s) => s.recordsInPerSecond ?? Number.NaN),
    demandScale,
    key: options.key,
    keyShares: shares,
  });
  const proposedParallelism = options.parallelism ?? vertex.parallelism;
  for (const parallelism of [vertex.parallelism, proposedParallelism]) {
    checkTwinSize({ parallelism, maxParallelism, measuredSeconds }, limits);
  }
  const scale = twinScale(traffic.totalRecordsPerSecond, limits.maxRecordsPerSecond);

  const common = { warmUpMs: limits.warmUpSeconds * 1000, measuredMs: measuredSeconds * 1000, limits, deadline: wallStart + limits.maxWallMs, heapAtStart, signal: input.signal };
  const shape = { maxParallelism, recordsPerSecond: traffic.recordsPerSecond, capacityRecordsPerSecond: observed.capacityRecordsPerSecond, costPerRecordMs: observed.costPerRecordMs };
  const twin = async (s: TwinShape, saltBuckets?: number) => unscaleRun(await runTwin({ ...common, shape: scaleShape(s, scale), saltBuckets }), scale);
  input.onRun?.('baseline', limits.warmUpSeconds + measuredSeconds);
  const baseline = await twin({ ...shape, job: 'gatewaymeter', parallelism: vertex.parallelism });
  const match = matchTwin(observed, baseline);
  const proposal: Rehearsal['proposal'] = options.salt !== undefined ? { kind: 'salt', buckets: options.salt } : { kind: 'parallelism', parallelism: proposedParallelism };
  if (match.matches) input.onRun?.('proposal', limits.warmUpSeconds + measuredSeconds);
  const proposed = match.matches
    ? await twin({ ...shape, job: proposal.kind === 'salt' ? 'gatewaymeter-salted' : 'gatewaymeter', parallelism: proposedParallelism }, proposal.kind === 'salt' ? proposal.buckets : undefined)
    : null;
  const placement = proposal.kind === 'salt' ? placeSaltedKeys(traffic.hotKey, proposal.buckets, maxParallelism, vertex.parallelism) : null;

  const notes = demandNotes(observed, traffic.hotKey, options.key !== undefined);
  if (scale < 1) {
    notes.push(`The twin ran at ${(scale * 100).toPrecision(2)}% of production's rate (every subtask's capacity scaled alike, so busy is the same); its rates are shown scaled back.`);
  }
  if (observed.watermarkLagMs !== null) {
    notes.push("Watermark lag adds up while the input is held back: production's counts since it fell behind, the twin's since its own start; compare the trend, not the value.");
  }
  return {
    clusterId: input.clusterId,
    jobId: details.jid,
    jobName: details.name,
    vertexId: vertex.id,
    vertexName: vertex.name,
    key: traffic.hotKey,
    keyGiven: options.key !== undefined,
    proposal,
    observed,
    baseline,
    match,
    proposed,
    placement,
    twinScale: scale,
    sentence: verdict(observed, baseline, match, proposed, proposal, placement?.sentence),
    notes,
    limits,
  };
}

/** Vertices upstream of `id` in the plan (its inputs, their inputs, ...). */
function upstreamOf(nodes: ReadonlyArray<{ id: string; inputs?: ReadonlyArray<{ id: string }> | null }>, id: string): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const stack = [...(byId.get(id)?.inputs ?? []).map((i) => i.id)];
  while (stack.length) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(byId.get(next)?.inputs ?? []).map((i) => i.id));
  }
  return [...seen];
}

const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} records/s`;
const ratio = (n: number | null) => (n === null ? '?' : n.toFixed(1));

function demandNotes(observed: ObservedFigures, key: string, keyGiven: boolean): string[] {
  const notes: string[] = [];
  if (observed.demandBasis === 'watermark-lag') {
    notes.push(
      `The input brings ~${rate(observed.demandRecordsPerSecond)} (${rate(observed.throughputRecordsPerSecond)} got through): read from the watermark lag, which grew as the source was held back. Give the measured rate (--input-rate) if you have it.`,
    );
  } else if (observed.demandBasis === 'throughput' && observed.busy.max >= 900) {
    notes.push(`The twin replays what got through (${rate(observed.throughputRecordsPerSecond)}): with the hot subtask saturated the input may bring more, which no proposal can show. Give it with --input-rate.`);
  }
  if (!keyGiven) notes.push(`No key given: ${key} stands for the hottest subtask's excess load (one key group of it).`);
  return notes;
}

function verdict(observed: ObservedFigures, baseline: RehearsalRun, match: Rehearsal['match'], proposed: RehearsalRun | null, proposal: Rehearsal['proposal'], placement: string | undefined): string {
  const twin = `the baseline twin (hot subtask ${baseline.hotSubtask}, busy max/mean ${ratio(baseline.busy.maxOverMean)}) against production (hot subtask ${observed.hotSubtask}, ${ratio(observed.busy.maxOverMean)})`;
  if (!match.matches || !proposed) return `No prediction: ${twin} does not match. ${match.reasons.join(' ')}`;
  const what = proposal.kind === 'salt' ? `Salted into ${proposal.buckets} buckets` : `At parallelism ${proposal.parallelism}`;
  const gain = baseline.throughputRecordsPerSecond > 0 ? ` (${(proposed.throughputRecordsPerSecond / baseline.throughputRecordsPerSecond).toFixed(2)}×)` : '';
  const prediction =
    `${what}, the twin predicts: throughput ${rate(baseline.throughputRecordsPerSecond)} → ${rate(proposed.throughputRecordsPerSecond)}${gain}, ` +
    `busy max/mean ${ratio(baseline.busy.maxOverMean)} → ${ratio(proposed.busy.maxOverMean)}, busiest subtask ${proposed.hotSubtask} at ${Math.round(proposed.busy.max)} ms/s.`;
  return `The twin matches production: ${twin}. ${prediction}${placement ? ` ${placement}` : ''}`;
}
