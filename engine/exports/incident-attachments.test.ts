import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { attachmentsHtml } from './attachments-html.ts';
import { ATTACHED_FLAME_GRAPH, describeAttachment, fetchAttachments, lastLines, MAX_EXCERPT_BYTES, MAX_EXCERPT_LINES } from './incident-attachments.ts';

/**
 * The attachments of a bundle or an HTML report against clusters that send too much or fail: a flame graph of tens of
 * thousands of frames and a log with thousands of the task's lines are cut to their caps, names a page would run are
 * text, and a cluster that cannot give one is said, never a failed export. The happy path runs against the local
 * engine (report-command.test.ts) and a real Flink (e2e/flink/report.flink.test.ts).
 */
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const JOB = 'a'.repeat(32);
const VERTEX = 'b'.repeat(32);
const TM = 'tm-1';
/** What a page would run, and what a terminal would act on. */
const MARKUP = '<script>alert(1)</script>';
const ESCAPES = '\u001b[2J\u202e';
// eslint-disable-next-line no-control-regex -- what must not reach a page or a terminal
const RAW_ESCAPES = /[\u001b\u202e]/;
const TASK = `cost${MARKUP} (2/2)#1`;
const finding = { vertexId: VERTEX, vertexName: `cost${MARKUP}`, subtasks: [{ subtask: 1 }] } as never;

/** 1,000 stacks 10 frames deep, each 0.1% of the samples: 10,000 frames, twice the cap. */
function deepGraph(): unknown {
  const chain = (i: number, depth: number): unknown => ({ name: `com.acme.Frame${i}_${depth}${MARKUP}${ESCAPES}.run:1`, value: 1000, children: depth === 9 ? [] : [chain(i, depth + 1)] });
  return { endTimestamp: 1_767_225_600_000, data: { name: 'root', value: 1_000_000, children: Array.from({ length: 1000 }, (_, i) => chain(i, 0)) } };
}

async function cluster(answer: { flameGraph?: (res: ServerResponse) => void; logLines?: number }): Promise<FlinkRestClient> {
  const server = await startHostileServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === `/jobs/${JOB}/vertices/${VERTEX}`) {
      return json(res, 200, { id: VERTEX, name: `cost${MARKUP}`, parallelism: 2, subtasks: [0, 1].map((i) => ({ subtask: i, status: 'RUNNING', attempt: 1, 'taskmanager-id': TM })) });
    }
    if (url.pathname === `/jobs/${JOB}/vertices/${VERTEX}/flamegraph`) return answer.flameGraph ? answer.flameGraph(res) : json(res, 200, { endTimestamp: -2 });
    if (url.pathname === `/taskmanagers/${TM}/log`) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const lines: string[] = [];
      for (let n = 1; n <= (answer.logLines ?? 0); n++) lines.push(`2026-12-02 16:00:00,000 INFO  Task [] - ${n % 2 === 0 ? TASK : 'other (1/2)#1'} line ${n}${ESCAPES} ${'x'.repeat(400)}\n`);
      return void res.end(lines.join(''));
    }
    json(res, 404, { errors: ['Not found'] });
  });
  servers.push(server);
  return new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5_000 });
}

describe('a flame graph to attach', () => {
  it('keeps the heaviest frames up to the cap, and says so', async () => {
    const client = await cluster({ flameGraph: (res) => json(res, 200, deepGraph()) });
    const { flameGraph } = await fetchAttachments(client, 'c', JOB, finding, { flameGraph: true });
    expect(flameGraph?.included).toBe(true);
    if (!flameGraph?.included) return;
    const g = flameGraph.value;
    const count = (n: typeof g.root): number => 1 + n.children.reduce((sum, c) => sum + count(c), 0);
    expect(count(g.root)).toBe(ATTACHED_FLAME_GRAPH.maxNodes);
    expect(g.truncated).toBe(true);
    expect(g.samples).toBe(1_000_000);
    expect(describeAttachment('flameGraph', flameGraph)).toMatch(/ subtask 1: 1000000 samples, sampled until 2026-01-01T00:00:00\.000Z; frames under 0\.1% of the samples left out\.$/);
    const html = attachmentsHtml({ flameGraph });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    // Flink's frame names reach the page with their control characters and direction overrides replaced.
    expect(RAW_ESCAPES.test(html)).toBe(false);
    expect(html).toContain('\ufffd[2J\ufffd.run:1');
  });

  it('where flame graphs are off, or Flink fails, is not attached, with the reason', async () => {
    const off = await fetchAttachments(await cluster({}), 'c', JOB, finding, { flameGraph: true });
    expect(off.flameGraph).toEqual({ included: false, reason: expect.stringMatching(/^Flame graphs are off on this cluster: set rest\.flamegraph\.enabled: true/) });
    const failing = await fetchAttachments(await cluster({ flameGraph: (res) => json(res, 500, { errors: ['Internal server error.'] }) }), 'c', JOB, finding, { flameGraph: true, logExcerpt: true });
    expect(failing.flameGraph).toEqual({ included: false, reason: expect.stringMatching(/^Flink's flame graph of subtask 1 could not be read: /) });
    expect(failing.logExcerpt?.included).toBe(true);
  });
});

describe('a log excerpt to attach', () => {
  it('is the task\'s last lines, within the caps, as visible text', async () => {
    const client = await cluster({ logLines: 4_000 });
    const { logExcerpt, flameGraph } = await fetchAttachments(client, 'c', JOB, finding, { logExcerpt: true });
    expect(flameGraph).toBeUndefined();
    expect(logExcerpt?.included).toBe(true);
    if (!logExcerpt?.included) return;
    const e = logExcerpt.value;
    expect(e).toMatchObject({ processId: TM, task: TASK, linesFound: 2_000, complete: true });
    expect(e.lines.length).toBeLessThanOrEqual(MAX_EXCERPT_LINES);
    expect(e.lines.reduce((sum, l) => sum + Buffer.byteLength(l.text) + 1, 0)).toBeLessThanOrEqual(MAX_EXCERPT_BYTES);
    // The newest of them: the file's last line of the task.
    expect(e.lines.at(-1)!.number).toBe(4_000);
    expect(e.lines.every((l) => l.number % 2 === 0 && !RAW_ESCAPES.test(l.text))).toBe(true);
    expect(describeAttachment('logExcerpt', logExcerpt)).toBe(`The lines of ${e.task} in TaskManager ${TM}'s log: ${e.lines.length} lines (the last ${e.lines.length} of 2000).`);
    expect(attachmentsHtml({ logExcerpt })).not.toContain('<script>');
  });

  it('is not attached where the finding names no subtask, or it runs nowhere', async () => {
    const client = await cluster({});
    const none = await fetchAttachments(client, 'c', JOB, { vertexId: null, vertexName: null, subtasks: [] }, { flameGraph: true, logExcerpt: true });
    expect(none).toEqual({
      flameGraph: { included: false, reason: 'The finding names no subtask, so there is none to attach.' },
      logExcerpt: { included: false, reason: 'The finding names no subtask, so there is none to attach.' },
    });
    const gone = await fetchAttachments(client, 'c', JOB, { vertexId: VERTEX, vertexName: 'cost', subtasks: [{ subtask: 7 }] } as never, { logExcerpt: true });
    expect(gone.logExcerpt).toEqual({ included: false, reason: expect.stringMatching(/^Subtask 7 of cost.* runs on no TaskManager now \(not listed\): no log to open\.$/) });
    expect(await fetchAttachments(client, 'c', JOB, finding, {})).toEqual({});
  });

  it('keeps the newest lines that fit the byte cap', () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({ number: i + 1, offset: i * 10_000, text: 'y'.repeat(9_999) }));
    const kept = lastLines(lines);
    expect(kept.length).toBe(Math.floor(MAX_EXCERPT_BYTES / 10_000));
    expect(kept.at(-1)!.number).toBe(100);
  });
});
