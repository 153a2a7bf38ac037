import { keyGroupRanges, locateKey } from '../analysis/key-groups/key-location.ts';
import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import { KEY_TYPES, type DiagnosisApi, type KeyLookup, type SkewMetric } from '../contracts/diagnosis.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import type { CurrentGraphs } from './current-graphs.ts';
import { checkWindow, type HistoryWindows } from './history-windows.ts';
import { HISTORY_ONLY, type WindowReach } from '../sampling/job-watcher.ts';

/** The root cause, the skew and the keys: read from the history, with Flink's own figures when the window cannot yet tell. */
export class DiagnosisService implements DiagnosisApi {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly windows: HistoryWindows,
    private readonly currentGraphs: CurrentGraphs,
    /** Fills a window from the cluster's metrics store where it reaches back before the history (see JobWatcher). */
    private readonly history: WindowReach = HISTORY_ONLY,
  ) {}

  async diagnose(clusterId: string, jobId: string, windowMs: number) {
    this.registry.find(clusterId);
    const id = requireId(jobId, 'job');
    await this.history.reachBack(clusterId, id, { windowMs: checkWindow(windowMs) });
    return this.currentGraphs.diagnose(this.windows.diagnose(clusterId, id, windowMs));
  }

  async skewHeatmap(clusterId: string, jobId: string, windowMs: number, metric: SkewMetric, aggregate: 'mean' | 'max') {
    this.registry.find(clusterId);
    const id = requireId(jobId, 'job');
    await this.history.reachBack(clusterId, id, { windowMs: checkWindow(windowMs) });
    return this.windows.heatmap(clusterId, id, windowMs, metric, aggregate);
  }


  async locateKey(lookup: KeyLookup) {
    if (!lookup || typeof lookup.key !== 'string' || !(KEY_TYPES as readonly unknown[]).includes(lookup.keyType)) {
      throw new EngineError('invalid-input', `A key lookup needs a key (text) and its type: ${KEY_TYPES.join(', ')}.`);
    }
    return asInvalidInput(() => locateKey(lookup));
  }

  async keyGroupRanges(maxParallelism: number, parallelism: number) {
    return asInvalidInput(() => keyGroupRanges(maxParallelism, parallelism));
  }
}

/** The key-group math throws plain errors for impossible parallelisms: to the operator, those are bad input. */
function asInvalidInput<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    throw new EngineError('invalid-input', (error as Error).message);
  }
}
