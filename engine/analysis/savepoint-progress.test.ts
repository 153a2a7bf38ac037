import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CheckpointingStatistics, CheckpointStatistics } from '../flink-rest/schemas.ts';
import { abandonedCheckpointsNote, describeProgress, momentOf, recentCheckpoints, savepointByPath, savepointInFlight, vertexProgress } from './savepoint-progress.ts';
import { explainFailedCheckpoint } from './checkpoint-failure.ts';

/** Bodies of a real Flink 2.2.1 (the test jar's job at parallelism 1, back-pressured): a savepoint and a stop in flight. */
const real = (name: string) => JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8')) as unknown;
const savepointInFlightBody = CheckpointingStatistics.parse(real('real-2.2.1-checkpoints-savepoint-in-flight.json'));
const savepointDetails = CheckpointStatistics.parse(real('real-2.2.1-checkpoint-details-savepoint-in-flight.json'));
const duringStop = CheckpointingStatistics.parse(real('real-2.2.1-checkpoints-during-stop.json'));
const afterStop = CheckpointingStatistics.parse(real('real-2.2.1-checkpoints-after-stop.json'));
/** The shared cluster's back-pressured test job: checkpoint 4 in flight, 1–3 took 18.7–20.7 s. */
const backpressured = CheckpointingStatistics.parse(real('../../../e2e/flink/recorded/2.2.1/checkpoints.json'));

const stopTrigger = 1796158716804;

describe('the savepoint in flight, from GET /jobs/:id/checkpoints', () => {
  it('finds the IN_PROGRESS savepoint of its kind triggered since the operation began, with its acknowledged subtasks', () => {
    const since = 1796158846456 - 500;
    expect(savepointInFlight(savepointInFlightBody, 'savepoint', since, 42)).toEqual({ checkpointId: 3, acknowledged: 1, total: 3, triggerTimestamp: 1796158846456, vertices: null, readAt: 42 });
    expect(savepointInFlight(duringStop, 'stop', stopTrigger - 300, 42)).toMatchObject({ checkpointId: 3, acknowledged: 1, total: 3 });
  });

  it('is not a periodic checkpoint, another kind of savepoint, or one triggered before the operation', () => {
    expect(savepointInFlight(backpressured, 'savepoint', 0, 0)).toBeNull();
    expect(savepointInFlight(duringStop, 'savepoint', 0, 0)).toBeNull();
    expect(savepointInFlight(savepointInFlightBody, 'stop', 0, 0)).toBeNull();
    expect(savepointInFlight(savepointInFlightBody, 'savepoint', 1796158846456 + 60_000, 0)).toBeNull();
  });

  it('per vertex from its details, in the job order, named; the words say which vertices it waits on', () => {
    const ids = Object.keys(savepointDetails.tasks!);
    const vertices = vertexProgress(savepointDetails, [
      { id: ids[2], name: 'sink' },
      { id: ids[0], name: 'source' },
      { id: ids[1], name: 'tenant-cost' },
    ]);
    expect(vertices.map((v) => [v.name, v.acknowledged, v.total])).toEqual([
      ['sink', 0, 1],
      ['source', 1, 1],
      ['tenant-cost', 0, 1],
    ]);
    const progress = { ...savepointInFlight(savepointInFlightBody, 'savepoint', 0, 0)!, vertices };
    expect(describeProgress(progress, 'savepoint')).toBe('Savepoint 3 in progress: 1 of 3 subtasks acknowledged; waiting on sink (0 of 1), tenant-cost (0 of 1).');
    expect(describeProgress({ ...progress, vertices: null }, 'stop')).toBe('Stop-with-savepoint: savepoint 3 in progress: 1 of 3 subtasks acknowledged.');
  });
});

describe('how long recent checkpoints took, for the confirmation', () => {
  it('the range of the completed ones, p50 from Flink\'s summary, and the checkpoint in flight', () => {
    const recent = recentCheckpoints(backpressured);
    expect(recent).toMatchObject({ completed: 3, minMs: 18744, maxMs: 20669, p50Ms: 20157 });
    expect(recent.sentence).toBe(
      'Recent checkpoints took 19–21 s (p50 20 s, last 3): this savepoint will likely take about as long, under backpressure longer. Checkpoint 4 is in flight now (3 of 6 subtasks acknowledged).',
    );
    expect(recent.stopNote).toMatch(/checkpoint in flight when the stop begins is abandoned and shows as FAILED \("Checkpoint Coordinator is suspending\."\)/);
  });

  it('one completed checkpoint; none', () => {
    expect(recentCheckpoints(savepointInFlightBody).sentence).toMatch(/^Recent checkpoints took 6\.9 s \(p50 6\.9 s, last 2\): .* Savepoint 3 is in flight now \(1 of 3 subtasks acknowledged\)\.$/);
    expect(recentCheckpoints(duringStop).sentence).toMatch(/^The last checkpoint took 7\.1 s: this savepoint will likely take about as long, under backpressure longer\. Savepoint 3 is in flight now \(1 of 3 subtasks acknowledged\)\.$/);
    const none = recentCheckpoints({ ...backpressured, history: [] });
    expect(none).toMatchObject({ completed: 0, minMs: null });
    expect(none.sentence).toBe('No recent checkpoint of this job has completed, so how long the savepoint will take is not known.');
  });
});

describe('a checkpoint the stop abandoned', () => {
  const moments = duringStop.history!.map(momentOf);
  const failed = moments.find((m) => m.status === 'FAILED')!;

  it('real Flink: the periodic checkpoint in flight FAILED "Checkpoint Coordinator is suspending." just before the stop\'s SYNC_SAVEPOINT', () => {
    expect(failed).toMatchObject({ id: 2, failureMessage: 'Checkpoint Coordinator is suspending.' });
    expect(failed.failureTimestamp!).toBeLessThan(stopTrigger);
    expect(explainFailedCheckpoint(failed, moments)).toMatch(/^Abandoned by the stop-with-savepoint \(savepoint 3\): stopping a job suspends periodic checkpointing/);
    // Alone, the message reads as a failover: the neighbours make the difference.
    expect(explainFailedCheckpoint(failed, [failed])).toMatch(/job was restarting/);
  });

  it('not when no savepoint was in flight near the failure, nor for a message a stop does not cause', () => {
    const later = moments.map((m) => (m.checkpointType === 'SYNC_SAVEPOINT' ? { ...m, triggerTimestamp: m.triggerTimestamp + 60_000 } : m));
    expect(explainFailedCheckpoint(failed, later)).toMatch(/job was restarting/);
    const expired = { ...failed, failureMessage: 'Checkpoint expired before completing.' };
    expect(explainFailedCheckpoint(expired, moments)).toMatch(/checkpoint timeout/);
  });

  it('a plain savepoint\'s barrier overtaking an aligning checkpoint', () => {
    const savepoint = { ...moments.find((m) => m.id === 3)!, checkpointType: 'SAVEPOINT' };
    const overtaken = { ...failed, failureMessage: 'Checkpoint was canceled because a barrier from newer checkpoint was received.', failureTimestamp: savepoint.triggerTimestamp + 3_000 };
    expect(explainFailedCheckpoint(overtaken, [overtaken, savepoint])).toMatch(/^Overtaken by savepoint 3/);
    expect(explainFailedCheckpoint({ ...overtaken, failureMessage: 'Checkpoint Coordinator is suspending.' }, [overtaken, savepoint])).toMatch(/job was restarting/);
  });

  it('the stop\'s result names the checkpoint it abandoned, found by the savepoint\'s path', () => {
    const sp = savepointByPath(afterStop, 'file:/tmp/i19/sp/savepoint-8236b3-b8f243a76210');
    expect(sp).toMatchObject({ id: 3, checkpoint_type: 'SYNC_SAVEPOINT' });
    expect(abandonedCheckpointsNote(afterStop, sp!.id)).toBe(
      'Checkpoint 2, in flight when the stop began, was abandoned by it (Flink marks it FAILED: "Checkpoint Coordinator is suspending."): expected, not a fault.',
    );
    expect(abandonedCheckpointsNote(savepointInFlightBody, 3)).toBeNull();
  });
});
