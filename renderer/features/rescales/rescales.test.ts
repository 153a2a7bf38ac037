import { describe, expect, it } from 'vitest';
import { configSentence, parallelismChange, slotsChange } from './rescales';

describe('the Rescales tab\'s words', () => {
  it('says how long a rescale waits, from the scheduler\'s settings', () => {
    const config = { historySize: 20, cooldownMs: 30_000, resourceStabilizationMs: 60_000, maxTriggerDelayMs: 30_000, submissionResourceWaitMs: 300_000, submissionResourceStabilizationMs: 10_000, rescaleOnFailedCheckpointCount: 2 };
    expect(configSentence(config)).toBe(
      'A rescale waits at least 30s after the last one (cooldown) and up to 1m 00s for resources to stabilize; a wanted rescale is triggered at the latest 30s after it became possible. ' +
        'At submission the job waits up to 5m 00s for resources and 10s for them to stabilize. The cluster keeps the last 20 rescales of a job.',
    );
  });

  it('a setting Flink did not send reads as a dash, never as 0', () => {
    const none = { historySize: null, cooldownMs: null, resourceStabilizationMs: 0, maxTriggerDelayMs: null, submissionResourceWaitMs: null, submissionResourceStabilizationMs: null, rescaleOnFailedCheckpointCount: null };
    expect(configSentence(none)).toBe('A rescale waits at least — after the last one (cooldown) and up to 0ms for resources to stabilize. At submission the job waits up to — for resources and — for them to stabilize.');
  });

  it('parallelism and slots before → after, with what was wanted when it was not reached', () => {
    expect(parallelismChange({ vertexId: 'v', vertexName: 'map', before: 1, after: 2, desired: 2 })).toBe('1 → 2');
    expect(parallelismChange({ vertexId: 'v', vertexName: 'map', before: 2, after: null, desired: 3 })).toBe('2 → — (wanted 3)');
    expect(slotsChange({ slotSharingGroup: 'default', before: 1, after: 2, desired: 4, minimal: 1 })).toBe('1 → 2 (wanted 4)');
  });
});
