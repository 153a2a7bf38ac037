import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApplicationList } from '../../engine/contracts/applications.ts';
import type { JournalEntry } from '../../engine/contracts/operations.ts';
import { killAll, runFlinkOps, spawnFlinkOps, waitFor } from '../../engine/operations/testing/console-processes.ts';
import { ROOT } from '../support/paths.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { eventually } from './eventually.ts';
import { cancelQuietly, jobDetails, runTestJob, waitState } from './testJobs.ts';

/**
 * Flink 2.3's applications through the CLI on a real cluster: the list, and Cancel application with the CLI killed
 * (SIGKILL) right after it journaled the cancel and sent it; the next `flink-ops` resumes the entry from the
 * application's state, and the job ends CANCELED with exactly one outcome in the journal. Before 2.3 the same
 * commands say the cluster has no applications. Only the test's own job is cancelled.
 */
const cluster = readFlinkCluster();
const HAS_APPLICATIONS = !/^1\.|^2\.[0-2]\./.test(cluster.version);
const root = path.join(ROOT, '.cache/test-operations', cluster.version);
const started: string[] = [];
let work: string | undefined;

afterAll(async () => {
  for (const jobId of started) await cancelQuietly(cluster, jobId);
  killAll();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The shared cluster's free slots are shared by several suites: wait for one rather than queue a job behind them. */
async function freeSlot(): Promise<void> {
  await eventually(async () => {
    const overview = (await (await fetch(`${cluster.restUrl}/overview`)).json()) as { 'slots-available': number };
    return overview['slots-available'] >= 1 ? true : undefined;
  }, 'a free slot on the shared cluster', 300_000);
}

describe(`applications through the CLI on a real Flink ${cluster.version}`, () => {
  it(HAS_APPLICATIONS ? 'lists the applications, and cancels one with the CLI killed mid-cancel: resumed, cancelled once' : 'says the cluster has no applications (Flink < 2.3), and refuses to cancel one', async () => {
    mkdirSync(root, { recursive: true });
    work = mkdtempSync(path.join(root, 'applications-'));
    const dataDir = path.join(work, 'data');
    const url = cluster.restUrl;

    if (!HAS_APPLICATIONS) {
      const listed = await runFlinkOps(['applications', '--url', url]);
      expect(listed).toMatchObject({ code: 0, stdout: 'This cluster has no applications (Flink < 2.3): its jobs are listed on their own.\n' });
      const cancel = await runFlinkOps(['cancel-application', '--url', url, '--application', 'a'.repeat(32), '--yes', '--data-dir', dataDir]);
      expect(cancel.code).not.toBe(0);
      expect(cancel.stderr).toBe('flink-ops: This cluster has no applications (Flink < 2.3): its jobs are listed on their own.\n');
      return;
    }

    await freeSlot();
    const jobId = await runTestJob(cluster, 1);
    started.push(jobId);
    const applicationId = ((await (await fetch(`${url}/jobs/${jobId}`)).json()) as { 'application-id': string })['application-id'];
    expect(applicationId).toMatch(/^[0-9a-f]{32}$/);

    const listed = await runFlinkOps(['applications', '--url', url, '--json']);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as ApplicationList;
    expect(list.supported).toBe(true);
    expect(list.applications.find((a) => a.id === applicationId)).toMatchObject({ name: 'SingleJobApplication(gatewaymeter-test)', state: 'RUNNING', jobCounts: { RUNNING: 1 }, endTime: null });
    const table = await runFlinkOps(['applications', '--url', url]);
    expect(table.stdout).toMatch(new RegExp(`^${applicationId}\\s+RUNNING\\s+\\S+\\s+RUNNING:1\\s+SingleJobApplication\\(gatewaymeter-test\\)$`, 'm'));

    // The CLI is killed as soon as it has journaled the cancel (its "started" line), from the line's own event: the
    // request is then on its way or not yet sent, never answered by the CLI's own look at the outcome.
    const cli = spawnFlinkOps(['cancel-application', '--url', url, '--application', applicationId, '--yes', '--data-dir', dataDir]);
    const startedLine = /cancel-application of application \S+ started \(trigger id [0-9a-f]{32}\)/;
    cli.child.stderr!.on('data', () => {
      if (startedLine.test(cli.stderr())) cli.child.kill('SIGKILL');
    });
    await waitFor(() => (cli.child.exitCode !== null || cli.child.signalCode !== null ? true : undefined), 'the CLI to start the cancel and be killed', 60_000);
    expect((await cli.exit).signal, cli.stderr()).toBe('SIGKILL');

    // Any next flink-ops settles what the killed one left open, as Flink has it: sent and done, or never sent (the job
    // still RUNNING: then a new cancel goes out, once).
    const journalEntries = async () => {
      const journal = await runFlinkOps(['journal', '--data-dir', dataDir, '--json']);
      expect(journal.code).toBe(0);
      return (JSON.parse(journal.stdout) as { entries: JournalEntry[] }).entries;
    };
    const settled = await journalEntries();
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ kind: 'cancel-application', jobId, params: { applicationId, applicationJobs: [{ id: jobId, state: 'RUNNING' }] } });
    expect(['succeeded', 'not-started']).toContain(settled[0].state);
    if (settled[0].state === 'not-started') {
      expect((await jobDetails(cluster, jobId)).state, 'a cancel the journal says was never sent').toBe('RUNNING');
      const retried = await runFlinkOps(['cancel-application', '--url', url, '--application', applicationId, '--yes', '--data-dir', dataDir]);
      expect(retried.code, retried.stderr).toBe(0);
    }
    const entries = await journalEntries();
    expect(entries).toHaveLength(settled[0].state === 'not-started' ? 2 : 1);
    expect(entries.find((e) => e.state === 'succeeded')).toMatchObject({ kind: 'cancel-application', jobId });
    // One cancel reached Flink, whichever way it went.
    expect(entries.reduce((sum, e) => sum + e.requests.trigger, 0)).toBeLessThanOrEqual(settled[0].state === 'not-started' ? 2 : 1);
    expect(entries.filter((e) => e.state === 'succeeded')).toHaveLength(1);
    // Flink's REST answers a job's details from a cache (web.refresh-interval, 3 s): CANCELED within that.
    await waitState(cluster, jobId, 'CANCELED');
    const after = JSON.parse((await runFlinkOps(['applications', '--url', url, '--json'])).stdout) as ApplicationList;
    expect(after.applications.find((a) => a.id === applicationId)).toMatchObject({ state: 'CANCELED', jobCounts: { CANCELED: 1 } });

    // Once more: the application has ended, so the CLI sends nothing and says why.
    const again = await runFlinkOps(['cancel-application', '--url', url, '--application', applicationId, '--yes', '--data-dir', dataDir]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toBe(`flink-ops: Not sent: application ${applicationId} is CANCELED, so there is nothing to cancel.\n`);
  }, 600_000);
});
