import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { saveLogFile, streamLogFile } from './log-download.ts';
import { numberedLines, startLogServer, TM, type LogServerOptions } from './testing/log-server.ts';

/**
 * A whole log downloaded against servers that send several megabytes, never end, stall, cut the connection or send
 * bytes no terminal should see: streamed at the pace of where it goes (never held whole), saved whole or not at all,
 * and a failure said in one line naming what the server did.
 */
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const dirs = tempDirs('flink-ops-log-download-');
afterAll(() => dirs.removeAll());
const logServer = (file: () => Iterator<Buffer>, options?: LogServerOptions) => startLogServer(servers, file, options);

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
function linesHash(count: number): { hash: string; bytes: number } {
  const h = createHash('sha256');
  let bytes = 0;
  for (let it = numberedLines(count), next = it.next(); !next.done; next = it.next()) {
    h.update(next.value);
    bytes += next.value.length;
  }
  return { hash: h.digest('hex'), bytes };
}

/** A receiver slower than the network (a busy disk): takes a chunk each turn of the loop, and records its backlog. */
function slowSink(): { sink: Writable; received: () => Buffer; maxBacklog: () => number } {
  const parts: Buffer[] = [];
  let maxBacklog = 0;
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      setImmediate(done);
    },
  });
  const write = sink.write.bind(sink);
  sink.write = ((chunk: Buffer, ...rest: never[]) => {
    const ok = write(chunk, ...rest);
    maxBacklog = Math.max(maxBacklog, sink.writableLength);
    return ok;
  }) as typeof sink.write;
  return { sink, received: () => Buffer.concat(parts), maxBacklog: () => maxBacklog };
}

describe('a log of several megabytes', () => {
  it('streams to a slow receiver a chunk at a time: what waits in memory stays under a megabyte, the file arrives whole', async () => {
    const lines = 80_000; // 8 MB
    const served = await logServer(() => numberedLines(lines));
    const { sink, received, maxBacklog } = slowSink();
    const done = await streamLogFile(served.client, TM, { kind: 'log' }, sink);
    sink.end();
    await finished(sink);
    const expected = linesHash(lines);
    expect(done.bytes).toBe(expected.bytes);
    expect(sha(received())).toBe(expected.hash);
    // Without backpressure the whole 8 MB would queue in the receiver as fast as the socket delivers it.
    expect(maxBacklog()).toBeLessThan(1024 * 1024);
  });

  it('is saved whole at the target, through a temporary file beside it', async () => {
    const dir = dirs.make();
    const served = await logServer(() => numberedLines(40_000));
    const target = path.join(dir, 'tm.log');
    const done = await saveLogFile(served.client, TM, { kind: 'log' }, target);
    expect(done.bytes).toBe(4_000_000);
    expect(sha(readFileSync(target))).toBe(linesHash(40_000).hash);
    expect(readdirSync(dir)).toEqual(['tm.log']);
  });
});

describe('a download that cannot be whole', () => {
  it('a connection cut mid-file leaves no file, and an older file at the target untouched', async () => {
    const dir = dirs.make();
    const target = path.join(dir, 'tm.log');
    writeFileSync(target, 'the older download\n');
    const served = await logServer(() => numberedLines(30_000), { after: 'cut' });
    await expect(saveLogFile(served.client, TM, { kind: 'log' }, target)).rejects.toMatchObject({
      info: { kind: 'network', message: expect.stringMatching(/^GET \/taskmanagers\/:taskmanagerid\/log on http:\/\/127\.0\.0\.1:\d+: the connection was cut after its headers \(HTTP 200\) and \d+ bytes of the body/) },
    });
    expect(readdirSync(dir)).toEqual(['tm.log']);
    expect(readFileSync(target, 'utf8')).toBe('the older download\n');
  });

  it('a server that stops sending is given up after the client\'s timeout, in one line', async () => {
    const dir = dirs.make();
    const served = await logServer(() => numberedLines(20_000), { after: 'stall', timeoutMs: 400 });
    const started = performance.now();
    await expect(saveLogFile(served.client, TM, { kind: 'log' }, path.join(dir, 'tm.log'))).rejects.toMatchObject({
      info: { kind: 'timeout', message: expect.stringMatching(/sent nothing for 400 ms after its headers \(HTTP 200\) and 2000000 bytes of the body: the body stalled\.$/) },
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an endless file is cut at the cap, and nothing is left', async () => {
    const dir = dirs.make();
    const served = await logServer(() => numberedLines(Infinity));
    await expect(saveLogFile(served.client, TM, { kind: 'log' }, path.join(dir, 'tm.log'), 2 * 1024 * 1024)).rejects.toMatchObject({
      info: { kind: 'unexpected-response', message: expect.stringContaining('larger than 2 MiB') },
    });
    expect(readdirSync(dir)).toEqual([]);
    // The client hung up at the cap: the server's response closed, and it did not go on writing.
    await served.closed();
    expect(served.written()).toBeLessThan(2 * 1024 * 1024 + 16 * 1024 * 1024);
  });

  it('a folder that cannot be written fails as the disk does, and the cluster is not blamed', async () => {
    const served = await logServer(() => numberedLines(1_000));
    const missing = path.join(dirs.make(), 'no-such-folder', 'tm.log');
    await expect(saveLogFile(served.client, TM, { kind: 'log' }, missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(path.dirname(missing))).toBe(false);
  });

  it('an HTML page or an unknown TaskManager is no log', async () => {
    const html = await logServer(function* () {
      yield Buffer.from('<html><body>Sign in</body></html>');
    }, { contentType: 'text/html' });
    const dir = dirs.make();
    await expect(saveLogFile(html.client, TM, { kind: 'log' }, path.join(dir, 'a.log'))).rejects.toMatchObject({ info: { kind: 'not-flink' } });
    await expect(saveLogFile(html.client, 'e'.repeat(32), { kind: 'log' }, path.join(dir, 'b.log'))).rejects.toMatchObject({ info: { kind: 'not-found' } });
    await expect(saveLogFile(html.client, TM, { kind: 'file', name: '../../etc/passwd' }, path.join(dir, 'c.log'))).rejects.toMatchObject({ info: { kind: 'invalid-input' } });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('binary bytes and escape sequences', () => {
  it('are saved as the cluster sent them: a download is the file, not text to show', async () => {
    const bytes = Buffer.concat([Buffer.from('2026-12-02 16:00:00,000 INFO  \u001b[2J\u001b]0;title\u0007\u202eevil\n'), Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0x0d, 0x0a])]);
    const served = await logServer(function* () {
      yield bytes;
    });
    const target = path.join(dirs.make(), 'tm.log');
    await saveLogFile(served.client, TM, { kind: 'log' }, target);
    expect(readFileSync(target).equals(bytes)).toBe(true);
  });
});
