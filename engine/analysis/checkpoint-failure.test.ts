import { describe, expect, it } from 'vitest';
import { explainCheckpointFailure } from './checkpoint-failure.ts';

describe('a failed checkpoint in words', () => {
  it.each([
    ['Checkpoint Coordinator is suspending.', /job was restarting .* abandoned/],
    ['Checkpoint expired before completing.', /checkpoint timeout/],
    ['org.apache.flink.runtime.checkpoint.CheckpointException: Asynchronous task checkpoint failed.', /could not write its state/],
    ['Checkpoint was declined (tasks not ready)', /not running yet/],
    ['Checkpoint was declined.', /declined the checkpoint/],
  ])('%s', (message, words) => {
    expect(explainCheckpointFailure(message)).toMatch(words);
  });

  it('says nothing it does not know', () => {
    expect(explainCheckpointFailure('Something new in Flink 3.0')).toBeNull();
    expect(explainCheckpointFailure(null)).toBeNull();
  });
});
