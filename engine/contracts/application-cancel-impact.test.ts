import { describe, expect, it } from 'vitest';
import { cancelApplicationImpact } from './application-cancel-impact.ts';

const job = (id: string, state: string) => ({ id: id.repeat(32), name: `job-${id}`, state, startTime: 1, endTime: null, durationMs: 1, tasks: {} });

describe('the impact of cancelling an application, in words', () => {
  it('names each job that ends and the state that is lost', () => {
    expect(cancelApplicationImpact({ id: 'a'.repeat(32), name: 'SingleJobApplication(orders)', jobs: [job('1', 'RUNNING')] })).toBe(
      `Cancel application SingleJobApplication(orders) (${'a'.repeat(32)}). Its job ends: job-1 (${'1'.repeat(32)}, RUNNING). It stops without a savepoint: the state built up since the last completed checkpoint is lost. To keep it, stop the job with a savepoint first.`,
    );
  });

  it('leaves out the jobs that have ended; with none left only main() ends', () => {
    const words = cancelApplicationImpact({ id: 'a'.repeat(32), name: 'etl', jobs: [job('1', 'RUNNING'), job('2', 'FINISHED'), job('3', 'RESTARTING')] });
    expect(words).toMatch(/Its 2 jobs end: job-1 .*, job-3 .*RESTARTING\)\. They stop without a savepoint/);
    expect(words).not.toMatch(/job-2/);
    expect(cancelApplicationImpact({ id: 'a'.repeat(32), name: 'etl', jobs: [] })).toBe(`Cancel application etl (${'a'.repeat(32)}). It has no running job: only the application (its main()) ends.`);
  });
});
