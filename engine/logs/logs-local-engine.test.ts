import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { taskThreadName } from '../local/logs/cluster-logs.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { fetchThreadDump } from './fetch-thread-dump.ts';
import { listLogs, readLogPage, searchLog } from './log-files.ts';

/** Logs and thread dumps on the local engine: it serves them in Flink's shape, written and named by its own runtime. */
const T0 = 1_767_225_600_000;
let handle: LocalEngineHandle;
let client: FlinkRestClient;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(T0), scenario: 'hot-tenant' });
  handle.engine.advance(45_000);
  client = new FlinkRestClient({ baseUrl: handle.url });
}, 90_000);
afterAll(() => handle.close());

const theJob = () => [...handle.engine.cluster.jobs.values()][0];
/** The hot subtask of the scenario: tenant-cost 12, where acme's key group is. */
const hotTask = () => theJob().vertices.find((v) => v.jobVertex.name.includes('tenant-cost'))!.tasks[12];

describe('the local engine\'s logs', () => {
  it('lists each TaskManager\'s log and stdout with their sizes, as Flink names a standalone cluster\'s files', async () => {
    const tm = handle.engine.cluster.taskManagers[0];
    const list = await listLogs(client, 'local', tm.id);
    expect(list.files.map((f) => f.name)).toEqual([`flink-local-taskexecutor-${tm.index}-localhost.log`, `flink-local-taskexecutor-${tm.index}-localhost.out`]);
    const files = handle.engine.cluster.logs.taskManager(tm.id)!;
    expect(list.files[0].size).toBe(files.log.size);
    expect(list.files[0].size).toBeGreaterThan(0);
    expect(list.files[0].modifiedAt).toBe(files.log.modifiedAt);
  });

  it('pages a TaskManager\'s log in whole lines, numbered, each page starting where the last ended', async () => {
    const task = hotTask();
    const tmId = task.identity.taskManagerId;
    const whole = handle.engine.cluster.logs.taskManager(tmId)!.log.text();
    const first = await readLogPage(client, 'local', tmId, { file: { kind: 'log' }, offset: 0, length: 300 });
    expect(first.offset).toBe(0);
    expect(first.lines[0].number).toBe(1);
    expect(first.lines.length).toBeGreaterThan(0);
    expect(first.endOfFile).toBe(false);
    const second = await readLogPage(client, 'local', tmId, { file: { kind: 'log' }, offset: first.nextOffset, length: 300 });
    expect(second.offset).toBe(first.nextOffset);
    expect(second.lines[0].number).toBe(first.lines.length + 1);
    const expected = whole.split('\n');
    for (const line of [...first.lines, ...second.lines]) expect(line.text).toBe(expected[line.number - 1]);
    const tail = await readLogPage(client, 'local', tmId, { file: { kind: 'log' }, offset: null, length: 300 });
    expect(tail.endOfFile).toBe(true);
    expect(tail.lines.at(-1)!.text).toBe(expected.at(-2));
    expect(tail.lines.at(-1)!.number).toBe(expected.length - 1);
  });

  it('finds its task\'s lines by the name Flink gives the subtask, on its own TaskManager', async () => {
    const task = hotTask();
    const name = taskThreadName(task);
    expect(name).toMatch(/tenant-cost.* \(13\/32\)#0$/);
    const found = await searchLog(client, 'local', task.identity.taskManagerId, { file: { kind: 'log' }, text: null, task: name });
    expect(found.complete).toBe(true);
    expect(found.matches.map((m) => m.text.replace(/^.* - /, ''))).toEqual([
      expect.stringMatching(/switched from DEPLOYING to INITIALIZING\.$/),
      expect.stringMatching(/switched from INITIALIZING to RUNNING\.$/),
    ]);
    for (const m of found.matches) expect(m.text).toContain(name);
    const elsewhere = handle.engine.cluster.taskManagers.find((tm) => tm.id !== task.identity.taskManagerId)!;
    const none = await searchLog(client, 'local', elsewhere.id, { file: { kind: 'log' }, text: null, task: name });
    expect(none.matches).toEqual([]);
  });

  it('logs the job\'s status changes on the JobManager', async () => {
    const found = await searchLog(client, 'local', 'jobmanager', { file: { kind: 'log' }, text: `(${theJob().jobId}) switched from state CREATED to RUNNING`, task: null });
    expect(found.matches).toHaveLength(1);
  });

  it('refuses a file outside the log directory the way Flink does: not found', async () => {
    const tm = handle.engine.cluster.taskManagers[0];
    await expect(readLogPage(client, 'local', tm.id, { file: { kind: 'file', name: 'secrets.txt' }, offset: 0, length: 100 })).rejects.toMatchObject({ info: { kind: 'not-found' } });
    await expect(readLogPage(client, 'local', tm.id, { file: { kind: 'file', name: '../x' }, offset: 0, length: 100 })).rejects.toMatchObject({ info: { kind: 'invalid-input' } });
  });
});

describe('the local engine\'s thread dumps', () => {
  it('has a thread per subtask on the TaskManager, named as Flink names task threads, in the state its last step ended in', async () => {
    const task = hotTask();
    const tmId = task.identity.taskManagerId;
    const dump = await fetchThreadDump(client, 'local', tmId, null);
    const onTm = theJob().tasks.filter((t) => t.identity.taskManagerId === tmId);
    expect(dump.taskThreadCount).toBe(onTm.length);
    const threads = dump.groups.flatMap((g) => g.threads);
    const hot = threads.find((t) => t.name === taskThreadName(task))!;
    expect(hot.task).toEqual({ role: 'task', vertexName: task.identity.vertex.name, subtaskIndex: 12, parallelism: 32, attempt: 0 });
    expect(hot.state).toBe(task.lastStepActivity === 'busy' ? 'RUNNABLE' : 'WAITING');
    // The hot subtask is saturated: it works its steps through.
    expect(hot.state).toBe('RUNNABLE');
    // What a waiting subtask waits for is its lock, read whole from the thread's first line.
    expect(threads.some((x) => x.state === 'WAITING'), 'the subtasks below capacity wait for input').toBe(true);
    for (const t of threads.filter((x) => x.state === 'WAITING')) expect(t.lockName).toMatch(/^local-engine\.(InputGate\$WaitingForInput|SourceReader\$WaitingForRecords|BufferPool\$WaitingForBuffer)$/);
    expect(dump.groups.map((g) => g.state)).toEqual(['RUNNABLE', 'WAITING'].filter((s) => dump.groups.some((g) => g.state === s)));
  });
});
