import { describe, expect, it } from 'vitest';
import type { CheckpointView } from '../../../engine/contracts/history';
import { checkpointChartRows, checkpointKind, formatMillis } from './checkpointFormat';

const base: CheckpointView = {
  id: 1, status: 'COMPLETED', isSavepoint: false, savepointFormat: null, checkpointType: 'CHECKPOINT', triggerTimestamp: 1_000,
  latestAckTimestamp: 1_040, endToEndDurationMs: 40, checkpointedBytes: 10, stateBytes: 20, alignmentBufferedBytes: 0, processedBytes: 5,
  persistedBytes: 0, numSubtasks: 4, numAcknowledgedSubtasks: 4, externalPath: null, failureTimestamp: null, failureMessage: null,
  failureExplanation: null, details: 'stored', detailsUnavailable: null,
};

describe('checkpoint formatting', () => {
  it('keeps tenths of seconds where an operator compares them', () => {
    expect([12, 999, 4_100, 4_000, 38_400, 125_000, null].map(formatMillis)).toEqual(['12 ms', '999 ms', '4.1 s', '4 s', '38 s', '2m 05s', '—']);
  });

  it('says what kind of snapshot it was', () => {
    expect(checkpointKind(base)).toBe('checkpoint');
    expect(checkpointKind({ ...base, isSavepoint: true, savepointFormat: 'CANONICAL', checkpointType: 'SAVEPOINT' })).toBe('savepoint (canonical)');
    expect(checkpointKind({ ...base, isSavepoint: true, savepointFormat: 'NATIVE', checkpointType: 'SYNC_SAVEPOINT' })).toBe('stop-with-savepoint (native)');
  });

  it('charts failed checkpoints red with the time until they failed, and keeps both runs of an id apart', () => {
    const rows = checkpointChartRows([
      base,
      { ...base, id: 2, triggerTimestamp: 2_000, status: 'FAILED', endToEndDurationMs: null, failureTimestamp: 9_500 },
      { ...base, id: 1, triggerTimestamp: 9_000, isSavepoint: true },
    ]);
    expect(rows.map((r) => [r.key, r.tone, r.endToEndDurationMs])).toEqual([
      ['1000-1', 'completed', 40],
      ['2000-2', 'failed', 7_500],
      ['9000-1', 'savepoint', 40],
    ]);
  });

  it('charts no size for a checkpoint that has not completed: a gap in the sizes, not a drop to 0 B', () => {
    // Flink reports an in-progress checkpoint's sizes as the acknowledged part so far (0 B at first), a failed one's
    // as what was acknowledged before it failed: neither is the size of the state.
    const rows = checkpointChartRows([
      base,
      { ...base, id: 2, triggerTimestamp: 2_000, status: 'FAILED', endToEndDurationMs: null, failureTimestamp: 3_000, checkpointedBytes: 3, stateBytes: 4 },
      { ...base, id: 3, triggerTimestamp: 4_000, status: 'IN_PROGRESS', endToEndDurationMs: 200, checkpointedBytes: 0, stateBytes: 0, processedBytes: 0, persistedBytes: 0 },
    ]);
    const sizes = (r: (typeof rows)[number]) => [r.checkpointedBytes, r.stateBytes, r.processedBytes, r.persistedBytes];
    expect(rows.map(sizes)).toEqual([
      [10, 20, 5, 0],
      [null, null, null, null],
      [null, null, null, null],
    ]);
    expect(rows[2].endToEndDurationMs, 'its duration so far is still charted (grey)').toBe(200);
  });
});
