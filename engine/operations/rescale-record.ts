import type { RescaleRecord } from '../contracts/operations.ts';
import type { JobRescaleDetailsBody } from '../flink-rest/rescale-schemas.ts';

/**
 * An in-place rescale's outcome from Flink's own record of it (the adaptive scheduler's rescale history, Flink 2.3+):
 * pure, so every terminal state and reason is tested on its own.
 */

/** The cluster's slots when the outcome was read (GET /overview); null when unknown. */
export interface ClusterSlots {
  available: number;
  total: number;
}

export interface RecordOutcome {
  /** `in-progress`: Flink still runs (or waits to run) the rescale. */
  state: 'succeeded' | 'failed' | 'in-progress';
  /** Why it did not succeed (or what it waits for), in words; null on success. */
  words: string | null;
  /** Flink's exception of a FAILED rescale. */
  failureDetail: string | null;
  record: RescaleRecord;
}

const REASON_WORDS: Record<string, string> = {
  SUCCEEDED: 'completed',
  EXCEPTION_OCCURRED: 'failed with an exception',
  RESOURCE_REQUIREMENTS_UPDATED: 'replaced by newer resource requirements before it ran',
  NO_RESOURCES_OR_PARALLELISMS_CHANGE: 'not enough slots to change the parallelism',
  JOB_FINISHED: 'the job finished during the rescale',
  JOB_FAILED: 'the job failed during the rescale',
  JOB_CANCELED: 'the job was canceled during the rescale',
  JOB_FAILOVER_RESTARTING: 'the job restarted after a failure during the rescale',
};

/** Flink's reason in words (an unknown one as Flink spells it). */
export function describeRescaleReason(reason: string | null | undefined, state: string | null | undefined): string {
  if (reason) return REASON_WORDS[reason] ?? reason;
  return state ? state.toLowerCase() : 'in progress';
}

/** The exception of a FAILED rescale: the last scheduler state that carries one. */
function exceptionOf(details: JobRescaleDetailsBody): string | null {
  const withException = (details.schedulerStates ?? []).filter((s) => s.stringifiedException);
  return withException.at(-1)?.stringifiedException ?? null;
}

/** Flink's body as the journal and the UI keep it. */
export function toRescaleRecord(details: JobRescaleDetailsBody): RescaleRecord {
  return {
    rescaleUuid: details.rescaleUuid,
    triggerCause: details.triggerCause ?? null,
    terminalState: details.terminalState ?? null,
    terminatedReason: details.terminatedReason ?? null,
    words: describeRescaleReason(details.terminatedReason, details.terminalState),
    startedAt: details.startTimestampInMillis ?? null,
    endedAt: details.endTimestampInMillis ?? null,
    vertices: Object.values(details.vertices ?? {}).map((v) => ({
      vertexId: v.jobVertexId,
      vertexName: v.jobVertexName ?? null,
      desired: v.desiredParallelism ?? null,
      before: v.preRescaleParallelism ?? null,
      after: v.postRescaleParallelism ?? null,
    })),
    slots: Object.values(details.slots ?? {}).map((s) => ({
      slotSharingGroup: s.slotSharingGroupName ?? s.slotSharingGroupId,
      desired: s.desiredSlots ?? null,
      minimal: s.minimalRequiredSlots ?? null,
      before: s.preRescaleSlots ?? null,
      after: s.postRescaleSlots ?? null,
    })),
    exception: exceptionOf(details),
  };
}

function slotWords(record: RescaleRecord, cluster: ClusterSlots | null): string {
  const wanted = record.slots.reduce((sum, s) => sum + (s.desired ?? 0), 0);
  const held = record.slots.reduce((sum, s) => sum + (s.after ?? s.before ?? 0), 0);
  const job = wanted > 0 ? `The job wants ${wanted} slot${wanted === 1 ? '' : 's'} and holds ${held}. ` : '';
  const free = cluster ? `The cluster has ${cluster.available} free slot${cluster.available === 1 ? '' : 's'} of ${cluster.total}. ` : '';
  return job + free;
}

const STAYS = 'The requirements stay set: the adaptive scheduler scales up once the slots are there.';

function shortOf(record: RescaleRecord, target: Record<string, number>): RescaleRecord['vertices'] {
  return record.vertices.filter((v) => target[v.vertexId] !== undefined && v.after !== target[v.vertexId]);
}

/** The rescale's outcome from its record, against the parallelism the console asked for. */
export function outcomeFromRescaleRecord(details: JobRescaleDetailsBody, target: Record<string, number>, cluster: ClusterSlots | null): RecordOutcome {
  const record = toRescaleRecord(details);
  const id = `Flink's rescale ${record.rescaleUuid}`;
  const done = (state: RecordOutcome['state'], words: string | null, failureDetail: string | null = null): RecordOutcome => ({ state, words, failureDetail, record });
  switch (record.terminalState) {
    case null:
      return done('in-progress', `${id} is in progress (${record.triggerCause ?? 'trigger unknown'}). ${slotWords(record, cluster)}`.trim());
    case 'COMPLETED': {
      const short = shortOf(record, target);
      if (short.length === 0) return done('succeeded', null);
      const words = short.map((v) => `${v.vertexName ?? v.vertexId} runs at ${v.after ?? '?'}, not ${target[v.vertexId]}`).join('; ');
      return done('failed', `${id} completed short of the target: ${words}. ${slotWords(record, cluster)}${STAYS}`);
    }
    case 'IGNORED':
      if (record.terminatedReason === 'NO_RESOURCES_OR_PARALLELISMS_CHANGE') {
        return done('failed', `Flink ignored the rescale (${record.rescaleUuid}): not enough slots to change the parallelism. ${slotWords(record, cluster)}${STAYS}`);
      }
      return done('failed', `Flink ignored the rescale (${record.rescaleUuid}): ${record.words}.`);
    case 'FAILED': {
      const firstLine = record.exception?.split('\n')[0]?.trim();
      return done('failed', `${id} failed: ${firstLine || record.words}.`, record.exception);
    }
    default:
      return done('failed', `${id} ended ${record.terminalState} (${record.words}).`);
  }
}

/**
 * Our rescale in Flink's history (newest first): the first record after the ones known before the request that the
 * new requirements started. undefined while there is none.
 */
export function findOwnRescale<T extends { rescaleUuid: string; triggerCause?: string | null }>(history: T[], known: string[]): T | undefined {
  const seen = new Set(known);
  return history.filter((r) => !seen.has(r.rescaleUuid) && r.triggerCause === 'UPDATE_REQUIREMENT').at(-1);
}
