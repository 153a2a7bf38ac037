import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { checkpointSubtaskRows, decodeCheckpointSubtasks, encodeCheckpointSubtasks } from '../history/checkpoint-subtasks.ts';
import { realBody, recordedBody } from '../local/checkpoint/testdata/shape.ts';
import { checkpointsIn, recordChanged, toCheckpointOverview, toCheckpointRecord, toCheckpointSubtaskColumns, toCheckpointVertexRecords } from './checkpoint-records.ts';

/** Real Flink bodies (2.2.1 and 1.20.3, recorded from the test cluster) through the client's schemas into the history's records. */
const statistics = (body: unknown) => endpoints.jobCheckpoints.response.parse(body);

describe('checkpoint records from real Flink responses', () => {
  it('lists every checkpoint and savepoint of /checkpoints once, with savepoints and in-progress ones as such', () => {
    const body = statistics(realBody('checkpoints-with-savepoints.json'));
    const records = checkpointsIn(body).map((c) => toCheckpointRecord(c, 1_000));
    expect(records.map((r) => [r.id, r.status, r.isSavepoint])).toEqual([
      [7, 'IN_PROGRESS', false],
      [6, 'COMPLETED', false],
      [5, 'COMPLETED', true],
      [4, 'COMPLETED', true],
      [3, 'COMPLETED', false],
      [2, 'COMPLETED', false],
      [1, 'COMPLETED', false],
    ]);
    expect(records[2]).toMatchObject({ savepointFormat: 'CANONICAL', checkpointType: 'SAVEPOINT', externalPath: expect.stringContaining('savepoint-') });
    expect(records[1]).toMatchObject({ endToEndDurationMs: 19_637, checkpointedBytes: 6458, stateBytes: 6458, processedBytes: 529_391, persistedBytes: 0, numAcknowledgedSubtasks: 6 });
  });

  it('keeps the failure message of a failed checkpoint, and reads "NaN" percentiles as no value', () => {
    const body = statistics(realBody('checkpoints-after-failover.json'));
    const failed = toCheckpointRecord(body.latest!.failed!, 1_000);
    expect(failed).toMatchObject({ status: 'FAILED', failureMessage: 'Checkpoint Coordinator is suspending.', failureTimestamp: 1_795_970_307_754 });
    const overview = toCheckpointOverview(body, 5);
    expect(overview.counts).toEqual({ restored: 0, total: 2, inProgress: 1, completed: 0, failed: 1 });
    expect(overview.summary.endToEndDurationMs).toEqual({ min: 0, max: 0, avg: 0, p50: null, p90: null, p95: null, p99: null, p999: null });
  });

  it.each(['2.3.0', '2.2.1', '1.20.3'] as const)('reads the summary with its p99 as Flink %s reports it', (version) => {
    const overview = toCheckpointOverview(statistics(recordedBody(version, 'checkpoints.json')), 5);
    const e2e = overview.summary.endToEndDurationMs!;
    expect(e2e.p99).toBeGreaterThanOrEqual(e2e.avg!);
    expect(e2e.max).toBeGreaterThanOrEqual(e2e.min!);
    expect(overview.counts.completed).toBeGreaterThanOrEqual(2);
  });

  it('turns a completed checkpoint\'s details into vertices and subtask columns, -1 and missing as no value', () => {
    const details = endpoints.checkpointDetails.response.parse(realBody('details-completed.json'));
    const vertices = toCheckpointVertexRecords(details);
    expect(vertices.map((v) => [v.vertexId.slice(0, 6), v.stateBytes, v.numAcknowledgedSubtasks])).toEqual([
      ['0c80f7', 530, 2],
      ['8ad0a3', 0, 2],
      ['c4900c', 5928, 2],
    ]);
    const task = endpoints.checkpointSubtaskDetails.response.parse(realBody('subtasks-completed.json'));
    const rows = checkpointSubtaskRows(decodeCheckpointSubtasks(encodeCheckpointSubtasks(toCheckpointSubtaskColumns(task))));
    expect(rows[1]).toEqual({
      index: 1,
      status: 'completed',
      ackTimestamp: 1_795_969_949_518,
      endToEndDurationMs: 69,
      checkpointedBytes: 265,
      stateBytes: 265,
      syncDurationMs: 3,
      asyncDurationMs: 2,
      alignmentBufferedBytes: 0,
      alignmentProcessedBytes: 0,
      alignmentPersistedBytes: 0,
      alignmentDurationMs: 0,
      startDelayMs: 51,
      unaligned: false,
      aborted: false,
    });

    const pending = endpoints.checkpointSubtaskDetails.response.parse(realBody('subtasks-in-progress.json'));
    const pendingRows = checkpointSubtaskRows(toCheckpointSubtaskColumns(pending));
    expect(pendingRows[0]).toMatchObject({ status: 'pending_or_failed', ackTimestamp: null, startDelayMs: null, unaligned: null });
  });

  it('sees a change only when a figure changed, not when a sample repeats the same ones', () => {
    const wire = statistics(realBody('checkpoints-with-savepoints.json')).history![0];
    const first = toCheckpointRecord(wire, 1_000);
    const again = toCheckpointRecord(wire, 2_000, first);
    expect(again.firstSeenAt).toBe(1_000);
    expect(recordChanged(first, again)).toBe(false);
    expect(recordChanged(first, { ...again, numAcknowledgedSubtasks: 6 })).toBe(true);
  });
});
