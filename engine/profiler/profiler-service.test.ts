import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { fetchProfiles, openProfile, startProfile, unavailableSentence } from './profiler-service.ts';

/**
 * The profiler's calls against answers a cluster could give (fault injection: the happy path against a real Flink is
 * e2e/flink/profiler.flink.test.ts), the recorded file of a real 2.3.0 profile among them.
 */
const RECORDED = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../analysis/testdata/async-profiler-itimer.html'), 'utf8');
const TM = '127.0.0.1:38963-4e7098';
const FILE = `${TM}_ITIMER_2026-12-02_16_38_15.html`;
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function cluster(answer: (url: string, body: string) => { status: number; body: unknown; text?: string }): Promise<{ client: FlinkRestClient; asked: string[] }> {
  const asked: string[] = [];
  const server = await startHostileServer((req, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      asked.push(`${req.method} ${req.url} ${body}`.trim());
      const a = answer(req.url!, body);
      if (a.text !== undefined) {
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        return res.end(a.text);
      }
      json(res, a.status, a.body);
    });
  });
  servers.push(server);
  return { client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 2000 }), asked };
}

const PROFILE = { status: 'FINISHED', mode: 'ITIMER', triggerTime: 2, finishedTime: 4, duration: 2, message: 'Profiling Successful', outputFile: FILE, profilingMode: 'ITIMER' };

describe('the profiler', () => {
  it('lists a process\'s profiles newest first', async () => {
    const { client, asked } = await cluster(() => ({ status: 200, body: { profilingList: [{ ...PROFILE, triggerTime: 1 }, PROFILE] } }));
    const view = await fetchProfiles(client, 'c', TM, async () => 'unused');
    expect(asked).toEqual([`GET /taskmanagers/${encodeURIComponent(TM)}/profiler`]);
    expect(view).toMatchObject({ available: true, unavailable: null });
    expect(view.profiles.map((p) => p.triggeredAt)).toEqual([2, 1]);
    expect(view.profiles[0]).toEqual({ status: 'FINISHED', mode: 'ITIMER', triggeredAt: 2, finishedAt: 4, durationSeconds: 2, message: 'Profiling Successful', fileName: FILE });
  });

  it('says why there is none where Flink answers 404', async () => {
    const { client } = await cluster(() => ({ status: 404, body: { errors: ['Unable to load requested file /jobmanager/profiler.'] } }));
    const view = await fetchProfiles(client, 'c', 'jobmanager', async (id) => unavailableSentence('2.3.0', id));
    expect(view.available).toBe(false);
    expect(view.unavailable).toMatch(/^The profiler is off on the JobManager: set rest\.profiling\.enabled: true/);
    expect(unavailableSentence('1.18.1', TM)).toBe('Flink 1.18.1 has no profiler: it came with Flink 1.19 (FLIP-375).');
  });

  it('starts a profile with the body Flink expects, and refuses what Flink would', async () => {
    const { client, asked } = await cluster(() => ({ status: 200, body: { ...PROFILE, status: 'RUNNING', finishedTime: null, outputFile: null } }));
    const started = await startProfile(client, 'jobmanager', { mode: 'CPU', durationSeconds: 5 });
    expect(asked).toEqual(['POST /jobmanager/profiler {"mode":"CPU","duration":5}']);
    expect(started).toMatchObject({ status: 'RUNNING', fileName: null });
    await expect(startProfile(client, 'jobmanager', { mode: 'CPU', durationSeconds: 301 })).rejects.toThrow('A profile lasts 1 to 300 s');
    await expect(startProfile(client, 'jobmanager', { mode: 'BOGUS' as 'CPU', durationSeconds: 5 })).rejects.toThrow("A profile's mode is one of");
    expect(asked).toHaveLength(1);
  });

  it("opens a profile's file as data: its frames, never its scripts; a file name from elsewhere is refused", async () => {
    const { client, asked } = await cluster(() => ({ status: 200, body: null, text: RECORDED }));
    const result = await openProfile(client, 'c', TM, FILE);
    expect(asked).toEqual([`GET /taskmanagers/${encodeURIComponent(TM)}/profiler/${encodeURIComponent(FILE)}`]);
    expect(result).toMatchObject({ fileName: FILE, samples: 52, truncated: false, bytes: Buffer.byteLength(RECORDED) });
    expect(result.sentence).toMatch(/^52 samples; most own time in /);
    expect(result.html).toBe(RECORDED);
    for (const name of ['../../etc/passwd', 'a/b.html', 'x.sh', '']) await expect(openProfile(client, 'c', TM, name)).rejects.toThrow('A profile is opened by the file name its list gives');
    expect(asked).toHaveLength(1);
  });

  it('refuses a list that is not one', async () => {
    const { client } = await cluster(() => ({ status: 200, body: { profilingList: [{ status: 'DONE' }] } }));
    await expect(fetchProfiles(client, 'c', 'jobmanager', async () => '')).rejects.toThrow(/profiler/);
  });
});
