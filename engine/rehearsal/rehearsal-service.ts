import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { DiagnosisApi } from '../contracts/diagnosis.ts';
import type { RehearsalApi, RehearsalOptions } from '../contracts/rehearsal.ts';
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
      return await rehearseJob({ client: connection.client, history: this.history, clusterId: cluster, jobId: job, options: options ?? {}, diagnosis, metricsFetchIntervalMs, clock: REAL_CLOCK, signal: controller.signal });
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
