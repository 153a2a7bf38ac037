import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { AdviceApi, AdviceOptions } from '../contracts/advice.ts';
import type { DiagnosisApi } from '../contracts/diagnosis.ts';
import { requireId, requireText } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { REAL_CLOCK } from '../operations/driver-context.ts';
import { jobAdvice } from './job-advice.ts';

/** How far back the diagnosis that names the skewed vertex looks. */
const DIAGNOSIS_WINDOW_MS = 5 * 60_000;

/** Salting beside a rescale for a job's hot key: the diagnosis names the vertex, the history (or a live sample) the load. */
export class AdviceService implements AdviceApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
    private readonly diagnosis: Pick<DiagnosisApi, 'diagnose'>,
  ) {}

  async advise(clusterId: string, jobId: string, options: AdviceOptions) {
    const cluster = requireText(clusterId, 'cluster id');
    this.registry.find(cluster);
    const job = requireId(jobId, 'job');
    const connection = this.registry.connection(cluster);
    const diagnosis = await this.diagnosis.diagnose(cluster, job, DIAGNOSIS_WINDOW_MS);
    const { metricsFetchIntervalMs } = await connection.check();
    return jobAdvice({ client: connection.client, history: this.history, clusterId: cluster, jobId: job, options: options ?? {}, diagnosis, metricsFetchIntervalMs, clock: REAL_CLOCK });
  }
}
