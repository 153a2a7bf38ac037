import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './failure-cause.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REAL = JSON.parse(readFileSync(path.join(HERE, '../local/checkpoint/testdata/real-2.2.1/async-operations.json'), 'utf8')) as Record<string, { body: never }>;
const observations = (REAL as unknown as { observations: string[] }).observations;

describe('failure causes in words', () => {
  it('a savepoint of a job the cluster does not run (a real Flink 2.2.1 body)', () => {
    const trace = (REAL.savepointFailed.body as { operation: { 'failure-cause': { 'stack-trace': string } } }).operation['failure-cause']['stack-trace'];
    expect(describeFailure(trace)).toEqual({
      words: 'The job is not running on the cluster (it ended, or the cluster never had it): there is nothing to take a savepoint of.',
      detail: 'Could not find Flink job (9cc7ea0f3256fd828b84880e3b954ba2)',
    });
  });

  it('a restore from a savepoint that is not there (real Flink 2.2.1 messages)', () => {
    const missing = observations.find((o) => o.includes('does-not-exist'))!;
    const trace = /'(java\.util\.concurrent\.CompletionException: .*?)'$/.exec(missing.slice(0, missing.lastIndexOf("'") + 1))?.[1] ?? missing;
    expect(describeFailure(trace).words).toMatch(/^The savepoint to restore from does not exist or has no _metadata/);
  });

  it('keeps the innermost cause and peels off Java wrapper classes', () => {
    const trace = [
      'java.util.concurrent.CompletionException: java.util.concurrent.CompletionException: org.apache.flink.runtime.checkpoint.CheckpointException: Failure to finalize checkpoint.',
      '\tat java.base/java.util.concurrent.CompletableFuture.encodeThrowable(CompletableFuture.java:332)',
      'Caused by: org.apache.flink.runtime.checkpoint.CheckpointException: Failure to finalize checkpoint.',
      'Caused by: java.io.IOException: Mkdirs failed to create file:/savepoints/savepoint-1a2b3c-4d5e6f7a8b9c',
      '\t... 12 more',
    ].join('\n');
    expect(describeFailure(trace)).toEqual({
      words:
        'The JobManager could not write the savepoint to the target directory (Mkdirs failed to create file:/savepoints/savepoint-1a2b3c-4d5e6f7a8b9c). Check that the folder exists (or can be created) and that Flink may write there.',
      detail: 'Mkdirs failed to create file:/savepoints/savepoint-1a2b3c-4d5e6f7a8b9c',
    });
  });

  it.each([
    ['org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint Coordinator is suspending.', /failed over while the savepoint was being taken/],
    ['org.apache.flink.util.FlinkException: TaskManager with id 10.0.0.7:41233-5b6c7d is no longer reachable.', /A TaskManager was lost during the savepoint/],
    ['org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint triggering task Source: events (1/2) of job x is not being executed at the moment.', /Not every task of the job is running/],
    ['org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.', /not enough free slots/],
  ])('%s', (trace, words) => {
    expect(describeFailure(trace).words).toMatch(words);
  });

  it('falls back to Flink\'s own message, and says so when there is none', () => {
    expect(describeFailure('java.lang.IllegalStateException: Something new in Flink 3.0')).toEqual({ words: 'Something new in Flink 3.0.', detail: 'Something new in Flink 3.0' });
    expect(describeFailure(undefined).words).toBe('The cluster reported a failure without details.');
  });
});
