import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../flink-rest/endpoints.ts';
import { exceptionHistoryEntry, renderExceptionHistory } from '../local/restart/exception-history.ts';
import { parseTaskName, toJobExceptions } from './job-exceptions.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const parse = (body: unknown) => endpoints.jobExceptions.response.parse(body);

describe('toJobExceptions', () => {
  it('a lost TaskManager on a real Flink 2.2.1: a global root exception, no task', () => {
    const body = parse(read('engine/local/checkpoint/testdata/real-2.2.1/exceptions-taskmanager-lost.json'));
    const history = toJobExceptions('c', 'j', body, 5);
    expect(history).toMatchObject({ clusterId: 'c', jobId: 'j', truncated: false, fetchedAt: 5 });
    expect(history.entries).toEqual([
      {
        exceptionName: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException',
        message: 'TaskManager with id 127.0.0.1:40113-e05a15 is no longer reachable.',
        stackTrace: expect.stringMatching(/^org\.apache\.flink\.runtime\.resourcemanager\.exceptions\.ResourceManagerException: TaskManager with id/),
        timestamp: 1795970307724,
        taskName: null,
        vertexName: null,
        subtaskIndex: null,
        attempt: null,
        endpoint: null,
        taskManagerId: null,
        failureLabels: {},
        concurrent: [],
      },
    ]);
  });

  it('a lost TaskManager on a real Flink 1.20.3: the same global entry, beside the deprecated top-level fields (null)', () => {
    const history = toJobExceptions('c', 'j', parse(read('engine/sampling/testdata/exceptions-taskmanager-lost-1.20.3.json')), 0);
    expect(history.entries).toHaveLength(1);
    expect(history.entries[0]).toMatchObject({
      message: 'TaskManager with id 127.0.0.1:44795-e39689 is no longer reachable.',
      timestamp: 1796058091080,
      taskName: null,
      endpoint: null,
      concurrent: [],
    });
  });

  it('the recorded bodies of a healthy job, 2.3.0, 2.2.1 and 1.20.3 (with its deprecated top-level fields): no entries', () => {
    for (const version of ['2.3.0', '2.2.1', '1.20.3']) {
      const history = toJobExceptions('c', 'j', parse(read(`e2e/flink/recorded/${version}/exceptions.json`)), 0);
      expect(history.entries, version).toEqual([]);
    }
  });

  it('a task failure: task, subtask and attempt from the task name, where it ran, and the concurrent failures grouped', () => {
    const task = (subtaskIndex: number) => ({ vertexName: 'tenant-cost -> Sink: usd-sink', subtaskIndex, parallelism: 4, attempt: 1, endpoint: `localhost:4200${subtaskIndex}`, taskManagerId: `127.0.0.1:4100${subtaskIndex}-a1b2c3` });
    const wire = renderExceptionHistory([
      exceptionHistoryEntry({
        cause: { className: 'java.lang.IllegalStateException', message: 'price table missing for model gpt-9' },
        timestamp: 1_000,
        task: task(2),
        failureLabels: { type: 'user' },
        concurrent: [{ cause: { className: 'org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException', message: 'Connection unexpectedly closed' }, timestamp: 1_001, task: task(3) }],
      }),
    ]);
    const [entry] = toJobExceptions('c', 'j', parse(wire), 0).entries;
    expect(entry).toMatchObject({
      exceptionName: 'java.lang.IllegalStateException',
      message: 'price table missing for model gpt-9',
      taskName: 'tenant-cost -> Sink: usd-sink (3/4)#1',
      vertexName: 'tenant-cost -> Sink: usd-sink',
      subtaskIndex: 2,
      attempt: 1,
      endpoint: 'localhost:42002',
      taskManagerId: '127.0.0.1:41002-a1b2c3',
      failureLabels: { type: 'user' },
    });
    expect(entry.concurrent).toHaveLength(1);
    expect(entry.concurrent[0]).toMatchObject({ message: 'Connection unexpectedly closed', subtaskIndex: 3, endpoint: 'localhost:42003' });
  });

  it('1.x names the endpoint `location`', () => {
    const body = parse({ exceptionHistory: { entries: [{ exceptionName: 'E', stacktrace: 'E\n', timestamp: 1, taskName: 'map (1/2)#0', location: 'host-a:6121', taskManagerId: 'tm', failureLabels: {}, concurrentExceptions: [] }], truncated: true } });
    const history = toJobExceptions('c', 'j', body, 0);
    expect(history.truncated).toBe(true);
    expect(history.entries[0]).toMatchObject({ endpoint: 'host-a:6121', message: '', vertexName: 'map', subtaskIndex: 0, attempt: 0 });
  });
});

describe('parseTaskName', () => {
  it.each([
    ['tenant-cost -> Sink: usd-sink (3/4)#1', { vertexName: 'tenant-cost -> Sink: usd-sink', subtaskIndex: 2, attempt: 1 }],
    ['Source: events (1/2)', { vertexName: 'Source: events', subtaskIndex: 0, attempt: 0 }],
    ['Window(TumblingEventTimeWindows(60000)) (12/32)#0', { vertexName: 'Window(TumblingEventTimeWindows(60000))', subtaskIndex: 11, attempt: 0 }],
  ])('%s', (name, parsed) => expect(parseTaskName(name)).toEqual(parsed));

  it('leaves other shapes unparsed', () => {
    expect(parseTaskName('JobManager')).toBeNull();
    expect(parseTaskName(null)).toBeNull();
  });
});
