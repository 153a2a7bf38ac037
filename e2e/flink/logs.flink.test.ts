import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../engine/cli/testing/run-cli.ts';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { fetchThreadDump } from '../../engine/logs/fetch-thread-dump.ts';
import { listLogs, readLogPage, searchLog } from '../../engine/logs/log-files.ts';
import { visibleText } from '../../engine/logs/visible-text.ts';
import { getFromFlink, readFlinkCluster } from '../support/flinkCluster.ts';

/**
 * Logs and thread dumps against Flink's own answers at the same moment, on the running test job: the TaskManager of
 * the hot `throttle` subtask lists the files Flink lists, a page of its log is Flink's bytes cut to whole lines, its
 * task's lines are found by the name Flink gives the task, the whole log downloads as Flink's bytes, and its thread
 * dump has the job's task threads.
 */
const cluster = readFlinkCluster();
const client = new FlinkRestClient({ baseUrl: cluster.restUrl, timeoutMs: 20_000 });
const get = <T>(url: string): Promise<T> => getFromFlink<T>(cluster, url);

async function flinkText(path: string): Promise<string> {
  const response = await fetch(`${cluster.restUrl}${path}`, { signal: AbortSignal.timeout(20_000) });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.text();
}

type JobDetails = { vertices: Array<{ id: string; name: string; parallelism: number }> };
type VertexDetails = { subtasks: Array<{ subtask: number; attempt: number; 'taskmanager-id': string }> };
type LogList = { logs: Array<{ name: string; size: number; mtime?: number }> };

/** The hot throttle subtask (0: where the hot tenant `acme` goes), its TaskManager and its task's name. */
async function hotSubtask(): Promise<{ taskManagerId: string; task: string; job: JobDetails }> {
  const job = await get<JobDetails>(`/jobs/${cluster.jobId}`);
  const throttle = job.vertices.find((v) => v.name === 'throttle')!;
  const { subtasks } = await get<VertexDetails>(`/jobs/${cluster.jobId}/vertices/${throttle.id}`);
  const hot = subtasks.find((s) => s.subtask === 0)!;
  return { taskManagerId: hot['taskmanager-id'], task: `throttle (1/${throttle.parallelism})#${hot.attempt}`, job };
}

describe(`logs and thread dumps on Flink ${cluster.version}`, () => {
  it('lists a TaskManager\'s log files as Flink lists them, sizes between Flink\'s answers before and after', async () => {
    const { taskManagerId } = await hotSubtask();
    const before = await get<LogList>(`/taskmanagers/${taskManagerId}/logs`);
    const list = await listLogs(client, 'flink', taskManagerId);
    const after = await get<LogList>(`/taskmanagers/${taskManagerId}/logs`);
    expect(list.files.map((f) => f.name)).toEqual(after.logs.map((f) => f.name).sort());
    expect(list.files.some((f) => f.name.endsWith('.log'))).toBe(true);
    for (const file of list.files) {
      const b = before.logs.find((f) => f.name === file.name)!;
      const a = after.logs.find((f) => f.name === file.name)!;
      expect(file.size).toBeGreaterThanOrEqual(b.size);
      expect(file.size).toBeLessThanOrEqual(a.size);
      if (a.mtime === undefined) expect(file.modifiedAt).toBeNull();
      else {
        expect(file.modifiedAt).toBeGreaterThanOrEqual(b.mtime!);
        expect(file.modifiedAt).toBeLessThanOrEqual(a.mtime);
      }
    }
  });

  it('sends a file whole, a Range header ignored: why the console streams past the bytes before a page', async () => {
    const { taskManagerId } = await hotSubtask();
    const response = await fetch(`${cluster.restUrl}/taskmanagers/${taskManagerId}/log`, { headers: { Range: 'bytes=0-99' }, signal: AbortSignal.timeout(20_000) });
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.byteLength(body)).toBeGreaterThan(100);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(body));
  });

  it('downloads the whole log with `flink-ops logs --download`: Flink\'s bytes, between its answers before and after (a log only grows)', async () => {
    const { taskManagerId } = await hotSubtask();
    const dir = mkdtempSync(path.join(tmpdir(), 'flink-ops-log-download-'));
    try {
      const target = path.join(dir, 'tm.log');
      const before = Buffer.from(await (await fetch(`${cluster.restUrl}/taskmanagers/${taskManagerId}/log`, { signal: AbortSignal.timeout(20_000) })).arrayBuffer());
      const run = await runCli(['logs', '--url', cluster.restUrl, '--taskmanager', taskManagerId, '--download', target], { timeout: 60_000 });
      const after = Buffer.from(await (await fetch(`${cluster.restUrl}/taskmanagers/${taskManagerId}/log`, { signal: AbortSignal.timeout(20_000) })).arrayBuffer());
      expect(run.code, run.stderr).toBe(0);
      const saved = readFileSync(target);
      expect(saved.length).toBeGreaterThan(0);
      expect(saved.length).toBeGreaterThanOrEqual(before.length);
      expect(saved.subarray(0, before.length).equals(before)).toBe(true);
      expect(after.subarray(0, saved.length).equals(saved)).toBe(true);
      expect(run.stderr).toBe(`Saved TaskManager ${taskManagerId}'s log (${saved.length} bytes) to ${target}.\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pages the TaskManager\'s log: Flink\'s own lines, numbered, each page where the last ended, the tail at its end', async () => {
    const { taskManagerId } = await hotSubtask();
    const first = await readLogPage(client, 'flink', taskManagerId, { file: { kind: 'log' }, offset: 0, length: 4096 });
    const second = await readLogPage(client, 'flink', taskManagerId, { file: { kind: 'log' }, offset: first.nextOffset, length: 4096 });
    const served = (await flinkText(`/taskmanagers/${taskManagerId}/log`)).split('\n');
    expect(first.lines.length).toBeGreaterThan(5);
    expect(first.lines[0].number).toBe(1);
    expect(second.lines[0].number).toBe(first.lines.at(-1)!.number + 1);
    // Flink's log is plain text: the console's lines are Flink's, where no control character needed showing.
    for (const line of [...first.lines, ...second.lines]) expect(line.text).toBe(visibleText(served[line.number - 1].replace(/\r$/, '')));
    const tail = await readLogPage(client, 'flink', taskManagerId, { file: { kind: 'log' }, offset: null, length: 8192 });
    expect(tail.endOfFile).toBe(true);
    expect(tail.fileBytes).toBeGreaterThanOrEqual(Buffer.byteLength(served.join('\n')));
  });

  it('finds the hot subtask\'s lines by the name Flink gives its task', async () => {
    const { taskManagerId, task } = await hotSubtask();
    const found = await searchLog(client, 'flink', taskManagerId, { file: { kind: 'log' }, text: null, task });
    const served = (await flinkText(`/taskmanagers/${taskManagerId}/log`)).split('\n');
    expect(found.complete).toBe(true);
    expect(found.matches.some((m) => m.text.includes(`${task} (`) && m.text.includes('switched from INITIALIZING to RUNNING'))).toBe(true);
    for (const m of found.matches.filter((l) => /^\d{4}-/.test(l.text))) expect(m.text).toContain(task);
    expect(found.matches.filter((m) => m.text.includes(task)).map((m) => m.number)).toEqual(
      served.flatMap((line, i) => (line.includes(task) && i + 1 <= found.scannedLines ? [i + 1] : [])),
    );
  });

  it('takes a thread dump with the job\'s task threads on that TaskManager, as Flink names them, the hot one among them', async () => {
    const { taskManagerId, task, job } = await hotSubtask();
    const dump = await fetchThreadDump(client, 'flink', taskManagerId, null);
    const flink = await get<{ threadInfos: Array<{ threadName: string }> }>(`/taskmanagers/${taskManagerId}/thread-dump`);
    const threads = dump.groups.flatMap((g) => g.threads);
    const taskThreads = threads.filter((t) => t.task?.role === 'task');
    // The threads Flink names after a task (its output flusher, its timers) are its helpers, not tasks of their own.
    for (const helper of threads.filter((t) => t.task?.role === 'helper')) {
      const { vertexName, subtaskIndex, parallelism, attempt } = helper.task!;
      expect(helper.name.endsWith(` ${vertexName} (${subtaskIndex + 1}/${parallelism})#${attempt}`), helper.name).toBe(true);
    }
    const hot = taskThreads.find((t) => t.name === task);
    expect(hot, `the thread "${task}"`).toBeDefined();
    expect(hot!.task).toMatchObject({ role: 'task', vertexName: 'throttle', subtaskIndex: 0 });
    expect(['RUNNABLE', 'WAITING', 'TIMED_WAITING', 'BLOCKED']).toContain(hot!.state);
    // Each subtask of the job deployed on this TaskManager has its thread, in the console's dump and in Flink's.
    const expected: string[] = [];
    for (const v of job.vertices) {
      const { subtasks } = await get<VertexDetails>(`/jobs/${cluster.jobId}/vertices/${v.id}`);
      for (const s of subtasks) if (s['taskmanager-id'] === taskManagerId) expected.push(`${v.name} (${s.subtask + 1}/${v.parallelism})#${s.attempt}`);
    }
    const names = new Set(taskThreads.map((t) => t.name));
    const flinkNames = new Set(flink.threadInfos.map((t) => t.threadName));
    for (const name of expected) {
      expect(names.has(name), name).toBe(true);
      expect(flinkNames.has(name), name).toBe(true);
    }
    expect(dump.taskThreadCount).toBe(expected.length);
    expect(dump.threadCount).toBeGreaterThan(expected.length);
  });
});
