import { describe, expect, it } from 'vitest';
import { checkpointFinding, findCheckpointOutliers, type CheckpointSubtaskFigures, type CheckpointVertexFigures } from './checkpoint-outliers.ts';

const MiB = 1024 * 1024;

function subtask(index: number, figures: Partial<CheckpointSubtaskFigures> = {}): CheckpointSubtaskFigures {
  return { index, status: 'completed', startDelayMs: 5, alignmentDurationMs: 0, syncDurationMs: 1, asyncDurationMs: 3, endToEndDurationMs: 40, stateBytes: 1000, ...figures };
}

function vertex(name: string, subtasks: CheckpointSubtaskFigures[]): CheckpointVertexFigures {
  return { vertexId: name, name, subtasks };
}

/** 32 subtasks of tenant-cost, the others quick (3 to 22 ms), `hot` overriding one of them. */
function tenantCost(hot: Partial<CheckpointSubtaskFigures>, at = 12): CheckpointVertexFigures {
  return vertex(
    'tenant-cost -> Sink: usd-sink',
    Array.from({ length: 32 }, (_, k) => (k === at ? subtask(k, hot) : subtask(k, { startDelayMs: 3 + (k % 20), endToEndDurationMs: 30 + (k % 20) }))),
  );
}

describe('checkpoint outliers', () => {
  it('names the subtask that started its checkpoint late, in one sentence with the usual cause', () => {
    const outliers = findCheckpointOutliers([tenantCost({ startDelayMs: 4100, endToEndDurationMs: 4150 })]);
    expect(outliers.map((o) => o.sentence)).toEqual([
      'subtask 12 of tenant-cost started its checkpoint 4.1 s late while the others took < 50 ms: data skew or backpressure on that subtask is the usual cause.',
    ]);
    expect(outliers[0]).toMatchObject({ figure: 'startDelayMs', subtasks: [12], values: [4100], othersMax: 22 });
  });

  it('names several subtasks when a few stand out together, never half the vertex', () => {
    const v = tenantCost({ startDelayMs: 2_500 });
    v.subtasks[7] = subtask(7, { startDelayMs: 3_200 });
    expect(findCheckpointOutliers([v])[0]).toMatchObject({ subtasks: [7, 12], sentence: expect.stringMatching(/^subtasks 7 and 12 of tenant-cost started their checkpoint 2.5 s to 3.2 s late while the others took < 50 ms/) });

    const halfSlow = vertex('assemble', Array.from({ length: 8 }, (_, k) => subtask(k, { startDelayMs: k < 4 ? 3_000 : 5 })));
    expect(findCheckpointOutliers([halfSlow])).toEqual([]);
  });

  it('says nothing of an even vertex, of a single subtask, or of differences below the floor', () => {
    const even = vertex('assemble', Array.from({ length: 8 }, (_, k) => subtask(k, { startDelayMs: 2_000 + k * 10 })));
    const single = vertex('source', [subtask(0, { startDelayMs: 9_000 })]);
    const small = tenantCost({ startDelayMs: 400 }); // 18× the others, but 400 ms is nothing to act on
    expect(findCheckpointOutliers([even, single, small])).toEqual([]);
  });

  it('ignores subtasks that did not acknowledge and figures the cluster did not give', () => {
    const v = tenantCost({ startDelayMs: 5_000 });
    v.subtasks[3] = { ...subtask(3), status: 'pending_or_failed', startDelayMs: null, endToEndDurationMs: null };
    v.subtasks[4] = subtask(4, { startDelayMs: Number.NaN });
    expect(findCheckpointOutliers([v]).map((o) => o.subtasks)).toEqual([[12]]);
  });

  it('explains alignment, sync and async durations, worst first across vertices', () => {
    const assemble = vertex('assemble', Array.from({ length: 4 }, (_, k) => subtask(k, k === 3 ? { alignmentDurationMs: 1_560 } : {})));
    const cost = tenantCost({ asyncDurationMs: 12_000, endToEndDurationMs: 12_100 });
    const sentences = findCheckpointOutliers([assemble, cost]).map((o) => o.sentence);
    expect(sentences).toEqual([
      'subtask 12 of tenant-cost took 12 s to write its state while the others took < 5 ms: a larger state on that subtask (key skew) or slow checkpoint storage is the usual cause.',
      'subtask 3 of assemble waited 1.6 s for the barrier on all of its inputs (alignment) while the others took < 1 ms: one of its input channels is back-pressured or skewed; unaligned checkpoints would not wait.',
    ]);
  });

  it('names a slow acknowledgement only when no part of it (start delay, alignment, snapshot) stands out', () => {
    const unexplained = tenantCost({ endToEndDurationMs: 6_200 });
    expect(findCheckpointOutliers([unexplained])[0].sentence).toMatch(/^subtask 12 of tenant-cost acknowledged 6.2 s after the trigger while the others took < 50 ms/);
  });

  it('names state skew after the durations', () => {
    const assemble = vertex('assemble', Array.from({ length: 4 }, (_, k) => subtask(k, { stateBytes: k === 2 ? 41 * MiB : 3.2 * MiB })));
    expect(findCheckpointOutliers([assemble])[0].sentence).toBe(
      'subtask 2 of assemble holds 41 MiB of state while the others hold < 5 MiB: key skew (a few keys with most of the state) is the usual cause.',
    );
  });

  it('says in one sentence when no subtask stands out, or why it cannot tell', () => {
    const calm = [tenantCost({ startDelayMs: 30 })];
    expect(checkpointFinding(findCheckpointOutliers(calm), calm)).toBe('No subtask stands out from its siblings; the longest start delay was 30 ms (subtask 12 of tenant-cost).');
    expect(checkpointFinding([], [vertex('x', [])])).toMatch(/^No per-subtask details/);
  });
});
