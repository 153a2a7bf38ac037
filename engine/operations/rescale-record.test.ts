import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobRescaleDetails, type JobRescaleDetailsBody } from '../flink-rest/rescale-schemas.ts';
import { findOwnRescale, outcomeFromRescaleRecord } from './rescale-record.ts';

const RECORDED = path.join(import.meta.dirname, '../../e2e/flink/recorded/2.3.0');
const recorded = (name: string): JobRescaleDetailsBody => JobRescaleDetails.parse(JSON.parse(readFileSync(path.join(RECORDED, name), 'utf8')));
const completed = recorded('rescales-details-completed.json');
const ignored = recorded('rescales-details-ignored.json');
const targetOf = (details: JobRescaleDetailsBody, p: number) => Object.fromEntries(Object.keys(details.vertices!).map((id) => [id, p]));
const slots = { available: 0, total: 4 };

describe('outcomeFromRescaleRecord', () => {
  it('COMPLETED at the target: succeeded, with each vertex before and after and the UUID', () => {
    const outcome = outcomeFromRescaleRecord(completed, targetOf(completed, 2), slots);
    expect(outcome).toMatchObject({ state: 'succeeded', words: null, record: { rescaleUuid: completed.rescaleUuid, terminalState: 'COMPLETED' } });
    expect(outcome.record.vertices.map((v) => [v.vertexName, v.before, v.after])).toContainEqual(['throttle', 1, 2]);
    expect(outcome.record.slots).toEqual([{ slotSharingGroup: 'default', desired: 2, minimal: 1, before: 1, after: 2 }]);
  });

  it('COMPLETED short of the target: failed, naming the vertices and the slots', () => {
    const outcome = outcomeFromRescaleRecord(completed, targetOf(completed, 4), slots);
    expect(outcome.state).toBe('failed');
    expect(outcome.words).toMatch(/completed short of the target: .*throttle runs at 2, not 4/);
    expect(outcome.words).toContain('The cluster has 0 free slots of 4.');
  });

  it('IGNORED, not enough slots: says so, with what the job wants and the cluster has', () => {
    const outcome = outcomeFromRescaleRecord(ignored, targetOf(ignored, 3), slots);
    expect(outcome.state).toBe('failed');
    expect(outcome.words).toBe(
      `Flink ignored the rescale (${ignored.rescaleUuid}): not enough slots to change the parallelism. The job wants 3 slots and holds 2. ` +
        'The cluster has 0 free slots of 4. The requirements stay set: the adaptive scheduler scales up once the slots are there.',
    );
  });

  it.each([
    ['RESOURCE_REQUIREMENTS_UPDATED', 'replaced by newer resource requirements before it ran'],
    ['JOB_FINISHED', 'the job finished during the rescale'],
    ['JOB_FAILED', 'the job failed during the rescale'],
    ['JOB_CANCELED', 'the job was canceled during the rescale'],
    ['JOB_FAILOVER_RESTARTING', 'the job restarted after a failure during the rescale'],
    ['SOME_NEW_REASON', 'SOME_NEW_REASON'],
  ])('IGNORED %s: the reason in words', (reason, words) => {
    const outcome = outcomeFromRescaleRecord({ ...ignored, terminatedReason: reason }, targetOf(ignored, 3), null);
    expect(outcome).toMatchObject({ state: 'failed', words: `Flink ignored the rescale (${ignored.rescaleUuid}): ${words}.` });
  });

  it('FAILED: the exception first line in words, the whole text as the detail', () => {
    const exception = 'org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat org.apache.flink...';
    const failed = { ...completed, terminalState: 'FAILED', terminatedReason: 'EXCEPTION_OCCURRED', schedulerStates: [{ state: 'Restarting', stringifiedException: exception }] };
    const outcome = outcomeFromRescaleRecord(failed, targetOf(completed, 2), slots);
    expect(outcome).toMatchObject({
      state: 'failed',
      words: `Flink's rescale ${completed.rescaleUuid} failed: org.apache.flink.runtime.JobException: Recovery is suppressed.`,
      failureDetail: exception,
      record: { exception },
    });
  });

  it('no terminal state yet: in progress, with the slots it waits for', () => {
    const running = { ...ignored, terminalState: null, terminatedReason: null, endTimestampInMillis: null };
    const outcome = outcomeFromRescaleRecord(running, targetOf(ignored, 3), slots);
    expect(outcome.state).toBe('in-progress');
    expect(outcome.words).toContain('The job wants 3 slots and holds 2. The cluster has 0 free slots of 4.');
  });
});

describe('findOwnRescale', () => {
  const r = (rescaleUuid: string, triggerCause = 'UPDATE_REQUIREMENT') => ({ rescaleUuid, triggerCause });
  it('the oldest new UPDATE_REQUIREMENT record after the known ones', () => {
    expect(findOwnRescale([r('c'), r('b'), r('x', 'NEW_RESOURCE_AVAILABLE'), r('a')], ['a'])?.rescaleUuid).toBe('b');
    expect(findOwnRescale([r('a')], ['a'])).toBeUndefined();
    expect(findOwnRescale([r('x', 'RECOVERABLE_FAILOVER')], [])).toBeUndefined();
  });
});
