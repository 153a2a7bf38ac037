import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine, LocalEngineError } from '../engine.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';

/**
 * The local engine serves the REST shape of the Flink version it claims (`/config`'s `flink-version`): the field
 * names, in order, of a real cluster of that version's answers (e2e/flink/recorded/<version>/), for the bodies where
 * 2.3 differs from 2.2 (application, scheduler and job type on the jobs, assigned tasks on the TaskManagers).
 */
const RECORDED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../e2e/flink/recorded');
const recorded = (version: string, file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, version, file), 'utf8'));
const fields = (body: unknown): string[] => Object.keys(body as object);

let handle: LocalEngineHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

describe.each(['2.2.1', '2.3.0'] as const)('claiming Flink %s', (version) => {
  async function start(): Promise<{ get: (url: string) => Promise<unknown>; jobId: string }> {
    handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), flinkVersion: version });
    handle.engine.advance(5_000);
    const url = handle.url;
    return { get: async (p) => (await fetch(url + p)).json(), jobId: [...handle.engine.cluster.jobs.keys()][0] };
  }

  it('names the version in /config and /overview', async () => {
    const { get } = await start();
    expect(await get('/config')).toMatchObject({ 'flink-version': version });
    expect(await get('/overview')).toMatchObject({ 'flink-version': version });
    expect(fields(await get('/config'))).toEqual(fields(recorded(version, 'config.json')));
    expect(fields(await get('/overview'))).toEqual(fields(recorded(version, 'overview.json')));
  });

  it('the job\'s details, its vertices and the jobs overview have that version\'s fields, in its order', async () => {
    const { get, jobId } = await start();
    type Job = { vertices: unknown[]; jid: string; 'application-id'?: string; schedulerType?: string };
    const details = (await get(`/jobs/${jobId}`)) as Job;
    const real = recorded(version, 'job-detail.json') as Job;
    expect(fields(details)).toEqual(fields(real));
    expect(fields(details.vertices[0])).toEqual(fields(real.vertices[0]));
    const overview = ((await get('/jobs/overview')) as { jobs: unknown[] }).jobs[0];
    expect(fields(overview)).toEqual(fields((recorded(version, 'jobs-overview.json') as { jobs: unknown[] }).jobs[0]));
    if (version === '2.3.0') {
      // A job of /jars/:jarid/run is a single-job application of its own id; the engine rescales in place (adaptive).
      expect(details).toMatchObject({ 'application-id': details.jid, schedulerType: 'Adaptive' });
      expect(overview).toMatchObject({ jobType: 'STREAMING', schedulerType: 'Adaptive' });
    }
  });

  it('the TaskManagers have that version\'s fields, in its order', async () => {
    const { get } = await start();
    const [tm] = ((await get('/taskmanagers')) as { taskmanagers: Array<Record<string, unknown>> }).taskmanagers;
    expect(fields(tm)).toEqual(fields((recorded(version, 'taskmanagers.json') as { taskmanagers: unknown[] }).taskmanagers[0]));
    if (version === '2.3.0') {
      const slots = handle!.engine.cluster.taskManagers[0].slots.filter((s) => s !== null).length;
      // Every vertex of the job has a subtask in each slot it holds (slot sharing).
      expect(tm.assignedTasks).toBe(slots * handle!.engine.cluster.jobs.values().next().value!.vertices.length);
    }
  });
});

it('refuses a version it does not emulate, naming those it does', () => {
  expect(() => new LocalEngine({ flinkVersion: '1.20.3' as never })).toThrow(LocalEngineError);
  expect(() => new LocalEngine({ flinkVersion: '1.20.3' as never })).toThrow(/Flink version "1.20.3".*2\.2\.1, 2\.3\.0/);
});
