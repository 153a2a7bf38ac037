import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { fetchThreadDump } from './fetch-thread-dump.ts';
import { readLogPage, searchLog } from './log-files.ts';
import { numberedLines, startLogServer, TM, type LogServerOptions } from './testing/log-server.ts';

/**
 * Logs and thread dumps against clusters that send what no log should hold: files of any size are read a page at a
 * time (the request ends after the page), binary bytes and escape sequences arrive as visible characters, lies in a
 * thread dump are refused naming the field.
 */
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const taskManagerLog = (file: () => Iterator<Buffer>, options?: LogServerOptions) => startLogServer(servers, file, options);

/** What a terminal or a page would act on, once the text is shown: every control character but the tab. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const PAYLOAD = '\u001b[2J\u001b[31mPWNED\u001b[0m\u0007\r\u001b]0;title\u0007\u202eevil\u0000\u009b31m';

describe('a huge log', () => {
  it('is read one page at a time: the request ends after the page, far before the file does', async () => {
    const served = await taskManagerLog(() => numberedLines(Infinity));
    const page = await readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: 50_000 * 100, length: 1000 });
    expect(page.lines.map((l) => l.number)).toEqual([50_001, 50_002, 50_003, 50_004, 50_005, 50_006, 50_007, 50_008, 50_009, 50_010]);
    expect(page.lines[0].text).toContain('line 0000050001');
    expect(page.lines[0].offset).toBe(50_000 * 100);
    expect(page.nextOffset).toBe(50_010 * 100);
    expect(page.endOfFile).toBe(false);
    // The server stopped soon after the page: the client hung up (socket buffers hold a few MiB at most).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(served.written()).toBeLessThan(50_000 * 100 + 16 * 1024 * 1024);
  });

  it('has its tail read as it streams by, keeping one page: the last lines with their numbers', async () => {
    const lines = 300_000; // 30 MB
    const served = await taskManagerLog(() => numberedLines(lines), { contentLength: lines * 100 });
    const page = await readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: null, length: 1050 });
    expect(page.lines.map((l) => l.number)).toEqual(Array.from({ length: 10 }, (_, i) => lines - 9 + i));
    expect(page.lines.at(-1)!.text).toContain(`line ${String(lines).padStart(10, '0')}`);
    expect(page.endOfFile).toBe(true);
    expect(page.fileBytes).toBe(lines * 100);
  });

  it('is searched up to the byte cap, and says the search stopped there', async () => {
    const served = await taskManagerLog(() => numberedLines(Infinity));
    const found = await searchLog(served.client, 'c', TM, { file: { kind: 'log' }, text: 'LINE 000000770', task: null, maxScanBytes: 1024 * 1024 });
    expect(found.matches.map((m) => m.number)).toEqual([7700, 7701, 7702, 7703, 7704, 7705, 7706, 7707, 7708, 7709]);
    expect(found.matches[0].offset).toBe(7699 * 100);
    expect(found.complete).toBe(false);
    expect(found.scannedBytes).toBe(1024 * 1024);
  });

  it('a page cut inside a character leaves the character whole to the next page', async () => {
    const text = `${'a'.repeat(9)}é\n${'b'.repeat(5)}\n`; // é is 2 bytes: bytes 9 and 10
    const served = await taskManagerLog(function* () {
      yield Buffer.from(text);
    });
    const first = await readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: 0, length: 10 });
    // A line longer than the page is shown cut; the cut character is left whole to the next page.
    expect(first.lines).toEqual([{ number: 1, offset: 0, text: 'a'.repeat(9) }]);
    expect(first.cutLine).toBe(true);
    expect(first.nextOffset).toBe(9);
    const whole = await readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: 0, length: 100 });
    expect(whole.lines.map((l) => l.text)).toEqual(['a'.repeat(9) + 'é', 'b'.repeat(5)]);
    expect(whole.lines[1].offset).toBe(12);
  });
});

describe('binary bytes and escape sequences in a log', () => {
  it('arrive as visible characters: control pictures and U+FFFD, the line numbers and offsets still true', async () => {
    const binary = Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x7f, 0x0d, 0x0a]);
    const served = await taskManagerLog(function* () {
      yield Buffer.from(`2026-12-02 16:00:00,000 INFO  first ${PAYLOAD}\n`);
      yield binary;
      yield Buffer.from('2026-12-02 16:00:01,000 INFO  after\n');
    });
    const page = await readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: 0, length: 4096 });
    expect(page.lines).toHaveLength(3);
    for (const line of page.lines) expect(line.text).not.toMatch(CONTROL);
    expect(page.lines[0].text).toContain('\u241b[2J\u241b[31mPWNED');
    expect(page.lines[1].text).toBe('\u2400\ufffd\ufffd\ufffd(\u241b[31m\u2421');
    const firstLength = Buffer.byteLength(`2026-12-02 16:00:00,000 INFO  first ${PAYLOAD}\n`);
    expect(page.lines[1].offset).toBe(firstLength);
    expect(page.lines[2]).toEqual({ number: 3, offset: firstLength + binary.length, text: '2026-12-02 16:00:01,000 INFO  after' });
  });

  it('a task named with escape sequences is found by that name, its lines shown made visible', async () => {
    const task = `tenant${PAYLOAD} (1/2)#0`;
    const served = await taskManagerLog(function* () {
      yield Buffer.from(`2026-12-02 16:00:00,000 INFO  Task [] - ${task} switched from DEPLOYING to RUNNING.\n2026-12-02 16:00:01,000 INFO  Task [] - other (2/2)#0\n`);
    });
    const found = await searchLog(served.client, 'c', TM, { file: { kind: 'log' }, text: null, task });
    expect(found.matches.map((m) => m.number)).toEqual([1]);
    expect(found.matches[0].text).not.toMatch(CONTROL);
  });

  it('an HTML page where a file should be is not taken for a log', async () => {
    const served = await taskManagerLog(function* () {
      yield Buffer.from('<html><body>Sign in</body></html>');
    }, { contentType: 'text/html' });
    await expect(readLogPage(served.client, 'c', TM, { file: { kind: 'log' }, offset: 0, length: 100 })).rejects.toMatchObject({ info: { kind: 'not-flink' } });
  });
});

describe('a hostile thread dump', () => {
  async function dumpServer(body: unknown): Promise<FlinkRestClient> {
    const server = await startHostileServer((req, res) => json(res, 200, body));
    servers.push(server);
    return new FlinkRestClient({ baseUrl: server.url, timeoutMs: 2000 });
  }

  it('shows escape sequences in thread names and stacks as visible characters, a task thread still read as its subtask', async () => {
    const name = `tenant-cost${PAYLOAD} (13/32)#0`;
    const client = await dumpServer({
      threadInfos: [
        { threadName: name, stringifiedThreadInfo: `"${name}" Id=57 BLOCKED on java.lang.Object@1b2c owned by "x${PAYLOAD}" Id=3\n\tat com.acme.Cost${PAYLOAD}.process(Cost.java:42)\n` },
        { threadName: 'no header', stringifiedThreadInfo: '\u001b[2Jgarbage' },
      ],
    });
    const dump = await fetchThreadDump(client, 'c', 'jobmanager', null);
    const threads = dump.groups.flatMap((g) => g.threads);
    for (const t of threads) {
      expect(t.name).not.toMatch(CONTROL);
      for (const line of t.stack.split('\n')) expect(line).not.toMatch(CONTROL);
      expect(t.lockOwner ?? '').not.toMatch(CONTROL);
    }
    const task = threads.find((t) => t.task !== null)!;
    expect(task).toMatchObject({ state: 'BLOCKED', id: 57, lockName: 'java.lang.Object@1b2c', task: { subtaskIndex: 12, parallelism: 32, attempt: 0 } });
    expect(threads.find((t) => t.task === null)!.state).toBe('unknown');
    expect(dump.groups.map((g) => g.state)).toEqual(['BLOCKED', 'unknown']);
  });

  it('a thread dump without its list is refused, naming the field', async () => {
    const client = await dumpServer({ threadInfos: 'none' });
    await expect(fetchThreadDump(client, 'c', TM, null)).rejects.toMatchObject({ info: { kind: 'unexpected-response', message: expect.stringMatching(/GET \/taskmanagers\/:taskmanagerid\/thread-dump .*`threadInfos`/) } });
  });
});
