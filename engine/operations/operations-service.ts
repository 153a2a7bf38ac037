import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { JournalFilter, OperationRequest, OperationsApi, RescalePlanRequest, ResubmitPlanRequest } from '../contracts/operations.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import type { HistoryStore } from '../history/history-store.ts';
import { exportJournal } from './journal-export.ts';
import { publicEntry } from './journal.ts';
import { parseJournalFilter, parseOperationRequest, parseResubmitPlanRequest } from './operation-input.ts';
import type { Operations } from './operations.ts';
import { listSavepoints } from './savepoint-listing.ts';

/** The operations as the UI asks for them: started and followed through the journal, never waited for. */
export class OperationsService implements OperationsApi {
  constructor(
    private readonly operations: Operations,
    private readonly registry: ClusterRegistry,
    private readonly history: HistoryStore,
  ) {}

  async context(clusterId: string, jobId: string) {
    return this.operations.operationsContext(clusterId, jobId);
  }

  async start(request: OperationRequest) {
    const { entry, done } = await this.operations.start(parseOperationRequest(request));
    // The outcome lands in the journal; the UI follows it there.
    done.catch(() => undefined);
    return publicEntry(entry);
  }

  async journalEntry(id: string) {
    if (typeof id !== 'string') throw new EngineError('invalid-input', 'Which operation? The trigger id is missing.');
    const entry = this.operations.journal.get(id);
    return entry ? publicEntry(entry) : null;
  }

  async journal(filter?: JournalFilter) {
    return this.operations.journal.list(parseJournalFilter(filter)).map(publicEntry);
  }

  async exportJournal(filter: JournalFilter, format: 'csv' | 'json') {
    if (format !== 'csv' && format !== 'json') throw new EngineError('invalid-input', `Export as csv or json, not "${String(format)}".`);
    const valid = parseJournalFilter(filter);
    const entries = this.operations.journal.list({ ...valid, limit: Number.MAX_SAFE_INTEGER }).map(publicEntry);
    return exportJournal(entries, valid, format, Date.now());
  }

  async planRescale(clusterId: string, jobId: string, request: RescalePlanRequest) {
    return this.operations.planRescale(clusterId, jobId, request);
  }

  async planResubmit(request: ResubmitPlanRequest) {
    return this.operations.planResubmit(parseResubmitPlanRequest(request));
  }

  async rescaleOutcome(entryId: string) {
    return this.operations.rescaleOutcome(entryId);
  }

  async beforeAfter(entryId: string) {
    return this.operations.beforeAfter(entryId);
  }

  async disposalImpact(clusterId: string, savepointPath: string) {
    return this.operations.disposalImpact(clusterId, savepointPath);
  }

  async savepoints(clusterId: string, jobId: string) {
    const client = this.registry.connection(clusterId).client;
    return listSavepoints({ journal: this.operations.journal, history: this.history, client, clusterId, jobId: requireId(jobId, 'job') });
  }
}
