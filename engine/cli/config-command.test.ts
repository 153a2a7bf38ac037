import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigurationView } from '../contracts/inspect.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { formatConfiguration } from './config-command.ts';
import { runCli } from './testing/run-cli.ts';

/** `flink-ops config` against the local engine, and its text output from what a hostile cluster could send. */
let handle: LocalEngineHandle;
let jobId: string;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), scenario: 'hot-tenant' });
  jobId = [...handle.engine.cluster.jobs.keys()][0];
}, 60_000);
afterAll(() => handle?.close());

describe('flink-ops config', () => {
  it('prints the job\'s and the JobManager\'s configuration, and the same as JSON', async () => {
    const text = await runCli(['config', '--url', handle.url, '--job', jobId]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Job .+\(/);
    expect(text.stdout).toContain('JobManager configuration (');
    expect(text.stdout).toMatch(/JVM: Node\.js v/);
    const json = await runCli(['config', '--url', handle.url, '--job', jobId, '--json']);
    const view = JSON.parse(json.stdout) as ConfigurationView;
    expect(view.jobId).toBe(jobId);
    expect(view.jobManager.length).toBeGreaterThan(0);
    for (const entry of view.jobManager.slice(0, 5)) expect(text.stdout).toContain(entry.key);
  });

  it('exits non-zero with one line for a job the cluster does not have', async () => {
    const run = await runCli(['config', '--url', handle.url, '--job', 'no-such-job']);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('no-such-job');
  });
});

describe('formatConfiguration', () => {
  const view: ConfigurationView = {
    clusterId: 'c',
    jobId: 'a'.repeat(32),
    job: { name: 'job\u001b]0;owned\u0007', restartStrategy: null, parallelism: 2, objectReuse: false, userConfig: [{ key: 'api.token', value: '******', redacted: true }] },
    checkpoints: null,
    jobManager: [{ key: 'evil', value: '\u001b[31mred\u001b[0m\nsecond line', redacted: false }],
    environment: null,
    fetchedAt: 0,
    requestCount: 4,
  };

  it('prints nothing a terminal would act on, and says which values Flink redacted', () => {
    const text = formatConfiguration(view);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/\u001b|\u0007/);
    expect(text).toContain('red second line');
    expect(text).toContain('****** (redacted by Flink)');
    expect(text).toContain('1 value redacted by Flink');
    expect(text).toContain('The job does not checkpoint');
    expect(text).toContain('Not served by this cluster');
  });
});
