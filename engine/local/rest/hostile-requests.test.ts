import { existsSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_CHECKPOINT_REQUESTS, MAX_USER_REQUESTS_IN_FLIGHT } from '../checkpoint/checkpoint-coordinator.ts';
import type { LocalEngine } from '../engine.ts';
import { BUILT_IN_JARS } from '../jars/built-in-jars.ts';
import { isFlinkErrorBody } from '../rest-spec/validate-against-spec.ts';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { tempDirs } from '../testing/engine-test-kit.ts';
import { ManualClock } from '../time/clock.ts';
import { createRestApp, listen } from './server.ts';

/**
 * The local engine against what a hostile neighbour sends: web pages (foreign Origin, cross-site fetches, form posts),
 * DNS rebinding (foreign Host), no token, bad target folders, prototype keys, oversized bodies and headers, bad
 * percent-encoding and a flood of savepoints. Each is answered (none is left hanging) in Flink's `{"errors": [...]}`
 * shape, nothing is written where it should not be, and the engine keeps answering.
 */
const TOKEN = 'test-token-0123456789abcdef';
const temp = tempDirs('le-hostile-');
let handle: LocalEngineHandle;
let jobId: string;
let port: number;
/** The folder the engine was started with `--allow-dir`: requests may name folders under it. */
let allowed: string;
/** A fresh folder under the allowed one. */
const allowedDir = () => mkdtempSync(path.join(allowed, 'd-'));

beforeAll(async () => {
  allowed = temp.make();
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), token: TOKEN, checkpointDir: temp.make(), allowDirs: [allowed] });
  handle.engine.advance(5_000);
  jobId = [...handle.engine.cluster.jobs.keys()][0];
  port = handle.port;
});
afterAll(async () => {
  await handle.close();
  temp.removeAll();
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
}

/** One request with exactly these headers (fetch would add or refuse some). */
function raw(method: string, url: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    // Only bounds the wait, so that a request left hanging fails naming itself (within the test's timeout).
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${url} was left hanging: no answer within 15 s`)));
    req.end(body);
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'content-type': 'application/json' };

/** Flink's error shape, JSON, no HTML, no JavaScript stack frame. */
function expectFlinkError(response: RawResponse, status: number, message?: RegExp): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(isFlinkErrorBody(response.body), response.text).toBe(true);
  expect(response.text).not.toMatch(/<html|<pre|\n\s+at .*\.(ts|js):\d+/i);
  expect(response.headers['access-control-allow-origin']).toBeUndefined();
  if (message) expect((response.body as { errors: string[] }).errors.join('\n')).toMatch(message);
}

async function stillAnswers(): Promise<void> {
  const overview = await raw('GET', '/overview', auth);
  expect(overview.status).toBe(200);
  expect(overview.body).toMatchObject({ taskmanagers: 4 });
}

describe('who may talk to the local engine', () => {
  it('answers loopback requests with the token, without any CORS header', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const r = await raw('GET', '/jobs/overview', { ...auth, host });
      expect(r.status, host).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a foreign Host (DNS rebinding), a foreign Origin, a cross-site fetch, no token and a non-JSON write', async () => {
    expectFlinkError(await raw('GET', '/jobs/overview', { ...auth, host: `attacker.example:${port}` }), 421, /answers only to 127\.0\.0\.1/);
    expectFlinkError(await raw('GET', '/jobs/overview', { ...auth, host: `127.0.0.1:${port + 1}` }), 421);
    expectFlinkError(await raw('GET', '/jobs/overview', { ...auth, origin: 'http://localhost:18300' }), 403, /Origin http:\/\/localhost:18300/);
    expectFlinkError(await raw('OPTIONS', '/jobs/overview', { origin: 'http://localhost:18300', 'access-control-request-method': 'POST' }), 403);
    expectFlinkError(await raw('GET', '/jobs/overview', { ...auth, 'sec-fetch-site': 'same-site' }), 403);
    expectFlinkError(await raw('GET', '/jobs/overview', {}), 401, /Authorization: Bearer/);
    expectFlinkError(await raw('GET', '/jobs/overview', { authorization: 'Bearer wrong-token-0123456789ab' }), 401);
    const formPost = await raw('POST', `/jobs/${jobId}/savepoints`, { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, 'target-directory=/tmp/x');
    expectFlinkError(formPost, 415, /needs "Content-Type: application\/json"/);
    expectFlinkError(await raw('POST', `/jobs/${jobId}/savepoints`, { ...auth, 'content-type': 'text/plain' }, '{}'), 415);
    expect(handle.engine.operations.pending(jobId)).toEqual([]);
    await stillAnswers();
  });

  it('still takes a body-less write from curl (PATCH …?mode=cancel has neither body nor content type)', async () => {
    const r = await raw('PATCH', '/jobs/ffffffffffffffffffffffffffffffff?mode=cancel', auth);
    expectFlinkError(r, 404, /Job ffffffffffffffffffffffffffffffff not found/);
  });
});

describe('bad requests get Flink\'s error shape, and the engine keeps answering', () => {
  it('a 2 MB body: 413', async () => {
    expectFlinkError(await raw('POST', `/jobs/${jobId}/savepoints`, json, Buffer.alloc(2 * 1024 * 1024, 0x20)), 413, /too large/);
    await stillAnswers();
  });

  it('bad percent-encoding: 400', async () => {
    expectFlinkError(await raw('GET', '/jobs/%E0%A4%A/status', auth), 400, /percent-encoding/);
    await stillAnswers();
  });

  it('headers over 16 KiB: 431 in JSON, not Node\'s empty answer', async () => {
    expectFlinkError(await raw('GET', '/overview', { ...auth, 'x-padding': 'x'.repeat(20_000) }), 431, /exceed 16 KiB/);
    expectFlinkError(await raw('GET', `/jobs/${'a'.repeat(20_000)}`, auth), 431);
    await stillAnswers();
  });

  it('a __proto__ or constructor key in a body: 400 naming the field', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const r = await raw('POST', `/jobs/${jobId}/savepoints`, json, `{"${key}": {"polluted": true}}`);
      expectFlinkError(r, 400, new RegExp(`SavepointTriggerRequestBody\\. \\(unknown field "${key}"`));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillAnswers();
  });

  it('unknown routes and malformed JSON', async () => {
    expectFlinkError(await raw('GET', '/no/such/route', auth), 404, /Not found: \/no\/such\/route/);
    expectFlinkError(await raw('POST', `/jobs/${jobId}/savepoints`, json, '{"target-directory": '), 400, /not valid JSON/);
  });

  it('a vertex\'s metrics of a job or vertex not known: [] as Flink\'s metric store answers; a malformed id: 400', async () => {
    const unknown = await raw('GET', `/jobs/${'f'.repeat(32)}/vertices/${'e'.repeat(32)}/metrics?get=0.busyTimeMsPerSecond`, auth);
    expect([unknown.status, unknown.body]).toEqual([200, []]);
    expectFlinkError(await raw('GET', `/jobs/${jobId}/vertices/not-an-id/metrics`, auth), 400, /JobVertexID/);
  });

  it('an exception in the engine\'s own code: 500 with its message, never its JavaScript stack', async () => {
    const broken = new Proxy({}, { get: () => { throw new TypeError('the engine is broken on purpose'); } }) as unknown as LocalEngine;
    const { server, port: brokenPort } = await listen(createRestApp(broken), 0);
    try {
      const r = await new Promise<RawResponse>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: brokenPort, path: '/overview' }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) }));
        }).on('error', reject);
      });
      expectFlinkError(r, 500, /TypeError: the engine is broken on purpose/);
      expect(r.text).not.toMatch(/\.ts:\d+/);
    } finally {
      server.close();
    }
  });
});

describe('savepoint target folders are checked before anything touches the disk', () => {
  /** Triggers a savepoint to `target` and returns its failure message once it completed (virtual time advances). */
  async function savepointFailure(target: string): Promise<string | undefined> {
    const trigger = await raw('POST', `/jobs/${jobId}/savepoints`, json, JSON.stringify({ 'target-directory': target }));
    // Accepted while virtual time stands still: the trigger does not wait for the savepoint (it completes only as the
    // loop below advances the clock).
    expect(trigger.status, trigger.text).toBe(202);
    const id = (trigger.body as { 'request-id': string })['request-id'];
    for (let i = 0; i < 50; i++) {
      const status = await raw('GET', `/jobs/${jobId}/savepoints/${id}`, auth);
      const body = status.body as { status: { id: string }; operation: { location?: string; 'failure-cause'?: { class: string; 'stack-trace': string } } | null };
      if (body.status.id === 'COMPLETED') {
        if (body.operation?.location) return undefined;
        expect(body.operation?.['failure-cause']?.class).toBe('org.apache.flink.runtime.checkpoint.CheckpointException');
        return body.operation?.['failure-cause']?.['stack-trace'];
      }
      handle.engine.advance(200);
    }
    throw new Error(`the savepoint to ${target} never completed`);
  }

  it.each([
    ['/proc/self/savepoints', /does not write under \/proc/],
    ['/sys/kernel/savepoints', /does not write under \/sys/],
    ['/dev/null', /does not write under \/dev/],
    ['file:///proc/1/savepoints', /does not write under \/proc/],
    ['relative/savepoints', /is relative; give an absolute path/],
    ['../../..', /is relative/],
    ['', /empty string/],
    [`/tmp/${'x'.repeat(10 * 1024)}`, /10245 characters long; the limit is 4096/],
    [`/tmp/${'y'.repeat(300)}/sp`, /component is 300 bytes long; the limit is 255/],
    ['s3://bucket/savepoints', /local file system only/],
  ])('%s: the savepoint fails with the reason, the job keeps running', async (target, reason) => {
    const cwdBefore = readdirSync(process.cwd());
    expect(await savepointFailure(target)).toMatch(reason);
    expect(readdirSync(process.cwd())).toEqual(cwdBefore);
    expect(handle.engine.cluster.jobs.get(jobId)!.status).toBe('RUNNING');
    await stillAnswers();
  });

  it('a symbolic link into /proc is followed and refused; a file in the way is named', async () => {
    const dir = allowedDir();
    symlinkSync('/proc/self', path.join(dir, 'link'));
    expect(await savepointFailure(path.join(dir, 'link', 'sp'))).toMatch(/link\/sp leads to \/proc\/\d+\/sp, and the local engine does not write under \/proc/);
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(await savepointFailure(path.join(dir, 'a-file', 'sp'))).toMatch(/a-file is not a folder/);
  });

  describe('only folders the engine was started with, or allowed, are written', () => {
    const savepointsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.includes('savepoint-')) : []);
    const ssh = path.join(os.homedir(), '.ssh');

    it.each([
      ['/', '/'],
      ['/etc', '/etc'],
      ['$HOME/.ssh', ssh],
      ['a folder beside the allowed one', () => temp.make()],
      ['the allowed folder\'s parent, by ..', () => `${allowed}/../${path.basename(allowed)}-not`],
    ])('%s: refused, naming the allowed folders; nothing written there', async (_what, target) => {
      const dir = typeof target === 'function' ? target() : target;
      const before = savepointsIn(dir);
      const failure = await savepointFailure(dir);
      expect(failure).toMatch(/the local engine writes only under /);
      expect(failure).toContain(allowed);
      expect(failure).toMatch(/start it with --allow-dir DIR to allow another folder/);
      expect(savepointsIn(dir)).toEqual(before);
      expect(handle.engine.cluster.jobs.get(jobId)!.status).toBe('RUNNING');
    });

    it.each([['/etc'], ['/'], [ssh]])('a symbolic link inside the allowed folder into %s: followed and refused', async (into) => {
      const dir = allowedDir();
      symlinkSync(into, path.join(dir, 'link'));
      const failure = await savepointFailure(path.join(dir, 'link'));
      expect(failure).toMatch(new RegExp(`link leads to ${into.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`));
      expect(failure).toMatch(/the local engine writes only under /);
    });

    it('a dangling symbolic link inside the allowed folder, to a folder that does not exist yet outside it: refused, nothing created there', async () => {
      const dir = allowedDir();
      const outside = path.join(temp.make(), 'not-yet');
      symlinkSync(outside, path.join(dir, 'link'));
      const failure = await savepointFailure(path.join(dir, 'link', 'sp'));
      expect(failure).toContain(`link/sp leads to ${outside}/sp)`);
      expect(failure).toMatch(/the local engine writes only under /);
      expect(existsSync(outside)).toBe(false);
    });

    it('a folder under --allow-dir and one under --checkpoint-dir are written', async () => {
      const target = path.join(allowedDir(), 'savepoints');
      expect(await savepointFailure(target)).toBeUndefined();
      expect(savepointsIn(target)).toHaveLength(1);
      const checkpointDir = handle.engine.checkpointDir!;
      const own = path.join(checkpointDir, 'my-savepoints');
      expect(await savepointFailure(`file://${own}`)).toBeUndefined();
      expect(savepointsIn(own)).toHaveLength(1);
    });

    it('jar runs: a sink or checkpoint folder outside the allowed ones is refused (400, nothing started)', async () => {
      const jar = BUILT_IN_JARS[0].id;
      const jobs = handle.engine.cluster.jobs.size;
      const run = (body: unknown) => raw('POST', `/jars/${jar}/run`, json, JSON.stringify(body));
      expectFlinkError(await run({ programArgsList: ['--sink-dir', '/etc'] }), 400, /Cannot use --sink-dir \/etc: the local engine writes only under /);
      expectFlinkError(await run({ flinkConfiguration: { 'execution.checkpointing.dir': ssh } }), 400, /the local engine writes only under /);
      expectFlinkError(await run({ flinkConfiguration: { 'execution.checkpointing.savepoint-dir': 'file:///etc/savepoints' } }), 400, /the local engine writes only under /);
      expect(handle.engine.cluster.jobs.size).toBe(jobs);
      expect(existsSync('/etc/savepoints')).toBe(false);
    });
  });

  it('jar runs: a sink or checkpoint folder named over REST is checked the same way (400, nothing started)', async () => {
    const jar = BUILT_IN_JARS[0].id;
    const jobs = handle.engine.cluster.jobs.size;
    const run = (body: unknown) => raw('POST', `/jars/${jar}/run`, json, JSON.stringify(body));
    expectFlinkError(await run({ programArgsList: ['--sink-dir', 'relative-sink'] }), 400, /--sink-dir relative-sink: the path is relative/);
    expectFlinkError(await run({ programArgsList: ['--sink-dir', '/proc/self/sink'] }), 400, /does not write under \/proc/);
    expectFlinkError(await run({ flinkConfiguration: { 'execution.checkpointing.dir': '/sys/checkpoints' } }), 400, /does not write under \/sys/);
    expectFlinkError(await run({ flinkConfiguration: { 'execution.checkpointing.savepoint-dir': 'savepoints' } }), 400, /is relative/);
    expect(handle.engine.cluster.jobs.size).toBe(jobs);
    expect(existsSync('relative-sink')).toBe(false);
  });

  it('a good absolute target that does not exist yet is created, one level at a time', async () => {
    const target = path.join(allowedDir(), 'a', 'b', 'c');
    expect(await savepointFailure(target)).toBeUndefined();
    expect(readdirSync(target)).toEqual([expect.stringMatching(/^savepoint-[0-9a-f]{6}-[0-9a-f]{12}$/)]);
  });
});

describe('a flood of savepoints', () => {
  it(`1,000 concurrent savepoints: at most ${MAX_USER_REQUESTS_IN_FLIGHT} are taken, the rest fail with Flink's TOO_MANY_CHECKPOINT_REQUESTS`, async () => {
    const target = allowedDir();
    const body = JSON.stringify({ 'target-directory': target });
    const triggers: RawResponse[] = [];
    // 1,000 requests in flight on 50 connections at a time: as many as a page or a script can push.
    const queue = Array.from({ length: 1000 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (queue.pop() !== undefined) triggers.push(await raw('POST', `/jobs/${jobId}/savepoints`, json, body));
      }),
    );
    expect(triggers.every((t) => t.status === 202)).toBe(true);
    handle.engine.advance(5_000);
    const outcomes = { completed: 0, refused: 0, other: [] as string[] };
    for (const t of triggers) {
      const id = (t.body as { 'request-id': string })['request-id'];
      const status = (await raw('GET', `/jobs/${jobId}/savepoints/${id}`, auth)).body as { status: { id: string }; operation: { location?: string; 'failure-cause'?: { 'stack-trace': string } } };
      if (status.operation?.location) outcomes.completed++;
      else if (status.operation?.['failure-cause']?.['stack-trace'].includes(TOO_MANY_CHECKPOINT_REQUESTS)) outcomes.refused++;
      else outcomes.other.push(JSON.stringify(status));
    }
    expect(outcomes.other).toEqual([]);
    expect(outcomes.completed).toBeGreaterThan(0);
    expect(outcomes.completed).toBeLessThanOrEqual(MAX_USER_REQUESTS_IN_FLIGHT);
    expect(outcomes.refused).toBe(1000 - outcomes.completed);
    expect(readdirSync(target).length).toBe(outcomes.completed);
    await stillAnswers();
  }, 60_000);
});
