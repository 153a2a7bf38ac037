import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationEndpoints } from '../flink-rest/application-endpoints.ts';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchApplication, fetchApplicationExceptions, fetchApplications, NO_APPLICATIONS, toApplicationDetail, toApplicationExceptions, toApplicationList } from './cluster-applications.ts';

/** Real bodies recorded from Flink 2.3.0's applications endpoints (e2e/flink/recorded/2.3.0/applications-*.json). */
const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/flink/recorded/2.3.0');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8'));

describe('the applications of Flink 2.3.0, as recorded', () => {
  it('the overview: every application with its state and job counts, running first', () => {
    const list = toApplicationList('c', applicationEndpoints.applicationsOverview.response.parse(read('applications-overview.json')), 1);
    expect(list.supported).toBe(true);
    const running = list.applications.filter((a) => a.state === 'RUNNING');
    expect(running.length).toBeGreaterThan(0);
    expect(running[0]).toMatchObject({ name: expect.stringMatching(/^SingleJobApplication\(/), endTime: null, jobCounts: { RUNNING: 1 } });
    const failed = list.applications.find((a) => a.state === 'FAILED')!;
    expect(failed).toMatchObject({ name: 'dev.flinkops.testjob.GatewayMeterJob', jobCounts: {} });
    expect(failed.endTime).toBeGreaterThan(failed.startTime);
    expect(list.applications.indexOf(failed)).toBe(list.applications.length - 1);
  });

  it('one application: its jobs as /jobs/overview lists them, and when it reached each state', () => {
    const detail = toApplicationDetail('c', applicationEndpoints.applicationDetails.response.parse(read('applications-detail.json')), 1);
    expect(detail.jobs).toHaveLength(1);
    expect(detail.jobs[0]).toMatchObject({ id: detail.id, name: 'gatewaymeter-test', state: 'RUNNING', endTime: null });
    expect(detail.jobs[0].tasks).not.toHaveProperty('total');
    expect(detail.jobCounts).toEqual({ RUNNING: 1 });
    expect(Object.keys(detail.timestamps).sort()).toEqual(['CREATED', 'RUNNING']);
  });

  it('an application whose main() failed: no jobs, and the program\'s own error as the cause', () => {
    const detail = toApplicationDetail('c', applicationEndpoints.applicationDetails.response.parse(read('applications-detail-failed.json')), 1);
    expect(detail).toMatchObject({ state: 'FAILED', jobs: [], jobCounts: {} });
    const exceptions = toApplicationExceptions('c', detail.id, applicationEndpoints.applicationExceptions.response.parse(read('applications-exceptions-failed.json')), 1);
    expect(exceptions.entries).toHaveLength(1);
    expect(exceptions.entries[0]).toMatchObject({
      exceptionName: 'org.apache.flink.client.deployment.application.ApplicationExecutionException',
      message: 'Could not execute application.',
      cause: 'For input string: "notanumber"',
      jobId: null,
    });
    expect(toApplicationExceptions('c', 'x', applicationEndpoints.applicationExceptions.response.parse(read('applications-exceptions.json')), 1).entries).toEqual([]);
  });

  it('refuses what no application can be: an unknown state, a negative job count, an id that is no Flink id', () => {
    const overview = read('applications-overview.json') as { applications: Array<Record<string, unknown>> };
    const bad = (patch: Record<string, unknown>) => applicationEndpoints.applicationsOverview.response.safeParse({ applications: [{ ...overview.applications[0], ...patch }] });
    expect(bad({ status: 'CANCELLING' }).error?.issues[0].message).toMatch(/ApplicationState/);
    expect(bad({ jobs: { RUNNING: -1 } }).success).toBe(false);
    expect(bad({ jobs: { RUNING: 1 } }).success).toBe(false);
    expect(bad({ id: 'x' }).success).toBe(false);
  });
});

describe('a cluster before Flink 2.3, and an application a 2.3 cluster does not know', () => {
  let server: Server;
  let client: FlinkRestClient;
  const unknown500 = JSON.stringify(read('applications-detail-unknown-500.json'));
  beforeAll(async () => {
    // Two clusters in one: /old answers 404 to /applications (Flink 2.2), the rest is a 2.3 that knows no application.
    server = createServer((req, res) => {
      const old = req.url!.startsWith('/old/');
      res.setHeader('content-type', 'application/json');
      if (old) {
        res.statusCode = 404;
        res.end(JSON.stringify({ errors: ['Not found: /applications/overview'] }));
      } else if (req.url === '/applications/overview') {
        res.end(JSON.stringify({ applications: [] }));
      } else {
        res.statusCode = 500;
        res.end(unknown500);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    client = new FlinkRestClient({ baseUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('404 on /applications/overview: no applications, and why', async () => {
    const old = new FlinkRestClient({ baseUrl: `${client.baseUrl}/old` });
    expect(await fetchApplications(old, 'c')).toMatchObject({ supported: false, unsupported: NO_APPLICATIONS, applications: [] });
    await expect(fetchApplication(old, 'c', 'a'.repeat(32))).rejects.toMatchObject({ info: { kind: 'not-found', message: expect.stringMatching(/no applications \(Flink < 2\.3\)/) } });
  });

  it('Flink 2.3\'s 500 for an unknown application reads as not found', async () => {
    const id = '0'.repeat(32);
    await expect(fetchApplication(client, 'c', id)).rejects.toMatchObject({ info: { kind: 'not-found', message: expect.stringContaining(`has no application ${id}`) } });
    await expect(fetchApplicationExceptions(client, 'c', id)).rejects.toMatchObject({ info: { kind: 'not-found' } });
  });
});
