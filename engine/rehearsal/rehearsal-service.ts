import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { DiagnosisApi } from '../contracts/diagnosis.ts';
import type { RehearsedPrediction } from '../contracts/before-after.ts';
import type { Rehearsal, RehearsalApi, RehearsalOptions } from '../contracts/rehearsal.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId, requireText } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { REAL_CLOCK } from '../operations/driver-context.ts';
import { rehearseJob } from './rehearse-job.ts';

/** How far back the diagnosis that names the skewed vertex looks. */
const DIAGNOSIS_WINDOW_MS = 5 * 60_000;

/** Rehearsals of a job's fix on the local engine, one at a time per job, each cancellable by a second call. */
export class RehearsalService implements RehearsalApi {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
    private readonly diagnosis: Pick<DiagnosisApi, 'diagnose'>,
  ) {}

  async rehearse(clusterId: string, jobId: string, options: RehearsalOptions) {
    const cluster = requireText(clusterId, 'cluster id');
    this.registry.find(cluster);
    const job = requireId(jobId, 'job');
    const id = `${cluster}\n${job}`;
    if (this.running.has(id)) throw new EngineError('invalid-input', 'A rehearsal of this job is already running: wait for it, or cancel it.');
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      const connection = this.registry.connection(cluster);
      const diagnosis = await this.diagnosis.diagnose(cluster, job, DIAGNOSIS_WINDOW_MS);
      const { metricsFetchIntervalMs } = await connection.check();
      const rehearsal = await rehearseJob({ client: connection.client, history: this.history, clusterId: cluster, jobId: job, options: options ?? {}, diagnosis, metricsFetchIntervalMs, clock: REAL_CLOCK, signal: controller.signal });
      // A prediction (the twin matched production) is kept: the operation that carries it out shows it beside the outcome.
      const prediction = predictionOf(rehearsal, REAL_CLOCK.now());
      if (prediction) await this.history.rehearsals.append(cluster, job, prediction);
      return rehearsal;
    } finally {
      this.running.delete(id);
    }
  }

  async cancel(clusterId: string, jobId: string) {
    const controller = this.running.get(`${requireText(clusterId, 'cluster id')}\n${requireId(jobId, 'job')}`);
    controller?.abort();
    return controller !== undefined;
  }
}

/** Pure: what a rehearsal predicted, when it predicted (the twin matched production and the change ran). */
export function predictionOf(rehearsal: Rehearsal, at: number): RehearsedPrediction | null {
  if (!rehearsal.match.matches || !rehearsal.proposed) return null;
  return {
    rehearsedAt: at,
    proposal: rehearsal.proposal,
    vertexId: rehearsal.vertexId,
    vertexName: rehearsal.vertexName,
    baseline: { busyMaxOverMean: rehearsal.baseline.busy.maxOverMean, throughputRecordsPerSecond: rehearsal.baseline.throughputRecordsPerSecond },
    predicted: { busyMaxOverMean: rehearsal.proposed.busy.maxOverMean, throughputRecordsPerSecond: rehearsal.proposed.throughputRecordsPerSecond },
    sentence: rehearsal.sentence,
  };
}
