import { describe, expect, it } from 'vitest';
import { EngineError } from '../flink-rest/errors.ts';
import { checkedId, liveJobsQuery, rawSamplesQuery, taskSeriesSelector } from './promql.ts';

const JOB = '0123456789abcdef0123456789abcdef';
const VERTEX = 'fedcba9876543210fedcba9876543210';

describe('PromQL of the console', () => {
  it('selects a job\'s or a vertex\'s task series by exact id matchers, all metrics in one selector', () => {
    expect(taskSeriesSelector(['numRecordsIn', 'accumulateBusyTimeMs'], JOB)).toBe(
      `{__name__=~"flink_taskmanager_job_task_(numRecordsIn|accumulateBusyTimeMs)",job_id="${JOB}"}`,
    );
    expect(taskSeriesSelector(['numRecordsIn'], JOB, VERTEX)).toBe(`{__name__=~"flink_taskmanager_job_task_(numRecordsIn)",job_id="${JOB}",task_id="${VERTEX}"}`);
    expect(liveJobsQuery('numRecordsIn', [JOB, VERTEX])).toBe(`count by (job_id, job, instance) (flink_taskmanager_job_task_numRecordsIn{job_id=~"${JOB}|${VERTEX}"})`);
    expect(rawSamplesQuery('numRecordsIn', JOB, 300)).toBe(`flink_taskmanager_job_task_numRecordsIn{job_id="${JOB}",subtask_index="0"}[300s]`);
  });

  const injections = [
    `${JOB}"} or vector(1) #`,
    `${JOB}",job_id=~".*`,
    `${JOB}\n`,
    JOB.toUpperCase(),
    JOB.slice(1),
    `${JOB}0`,
    'my-job',
    '',
    `.*`,
  ];
  for (const id of injections) {
    it(`refuses ${JSON.stringify(id)} as an id, wherever it would go`, () => {
      for (const build of [() => taskSeriesSelector(['numRecordsIn'], id), () => taskSeriesSelector(['numRecordsIn'], JOB, id), () => liveJobsQuery('numRecordsIn', [JOB, id]), () => rawSamplesQuery('numRecordsIn', id, 60)]) {
        expect(build).toThrow(EngineError);
        expect(build).toThrow(/is not a Flink (job|vertex) id \(32 hex digits\): not put into a Prometheus query/);
      }
    });
  }

  it('refuses a metric name that is not one, and an empty list of metrics', () => {
    expect(() => taskSeriesSelector(['numRecordsIn)|.*|(x'], JOB)).toThrow(/is not a metric name/);
    expect(() => liveJobsQuery('a"}', [JOB])).toThrow(/is not a metric name/);
    expect(() => taskSeriesSelector([], JOB)).toThrow(/at least one metric/);
    expect(() => rawSamplesQuery('numRecordsIn', JOB, 1.5)).toThrow(/whole number of seconds/);
  });

  it('says an invalid id as data, quoted and cut short, never as raw text', () => {
    const error = (() => {
      try {
        checkedId(`\u001b[31m${'x'.repeat(200)}`, 'job');
      } catch (e) {
        return e as EngineError;
      }
    })();
    expect(error?.info.kind).toBe('invalid-input');
    expect(error?.info.message).not.toContain('\u001b');
    expect(error!.info.message.length).toBeLessThan(200);
  });
});
