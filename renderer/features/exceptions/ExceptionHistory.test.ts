import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { JobExceptionEntry, JobExceptionInfo } from '../../../engine/contracts/jobs';
import { formatTimestamp } from '../../components/format';
import { ExceptionHistory } from './ExceptionsPanel';

function info(patch: Partial<JobExceptionInfo>): JobExceptionInfo {
  return {
    exceptionName: 'java.lang.IllegalStateException',
    message: 'price table missing for model gpt-9',
    stackTrace: 'java.lang.IllegalStateException: price table missing for model gpt-9\n\tat dev.Cost.price(Cost.java:42)\n',
    timestamp: 1_767_225_600_000,
    taskName: 'tenant-cost -> Sink: usd-sink (3/4)#1',
    vertexName: 'tenant-cost -> Sink: usd-sink',
    subtaskIndex: 2,
    attempt: 1,
    endpoint: 'localhost:42002',
    taskManagerId: '127.0.0.1:41002-a1b2c3',
    failureLabels: {},
    ...patch,
  };
}

const render = (entries: JobExceptionEntry[], truncated = false): string => renderToStaticMarkup(createElement(ExceptionHistory, { entries, truncated }));

describe('ExceptionHistory', () => {
  const taskFailure: JobExceptionEntry = {
    ...info({}),
    concurrent: [
      info({ exceptionName: 'org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException', message: 'Connection unexpectedly closed', subtaskIndex: 3, attempt: 1, endpoint: 'localhost:42003', taskManagerId: '127.0.0.1:41003-d4e5f6', timestamp: 1_767_225_600_050 }),
      info({ message: 'second', subtaskIndex: 0, attempt: 0 }),
    ],
  };
  const lostTaskManager: JobExceptionEntry = {
    ...info({ exceptionName: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException', message: 'TaskManager with id tm-1 is no longer reachable.', taskName: null, vertexName: null, subtaskIndex: null, attempt: null, endpoint: null, taskManagerId: null, timestamp: 1_767_225_000_000 }),
    concurrent: [],
  };
  const html = render([taskFailure, lostTaskManager], true);

  it('the root exception first: time, class, message, task and subtask, TaskManager and endpoint', () => {
    const root = html.slice(html.indexOf('exception-entry-0'), html.indexOf('exception-entry-1'));
    expect(root).toContain('Root exception');
    expect(root).toContain(formatTimestamp(1_767_225_600_000));
    expect(root).toContain('IllegalStateException');
    expect(root).toContain('price table missing for model gpt-9');
    expect(root).toMatch(/<dt>Task<\/dt><dd>tenant-cost -&gt; Sink: usd-sink<\/dd>/);
    expect(root).toContain('<dt>Subtask</dt><dd>2<span class="muted"> (attempt 1)</span></dd>');
    expect(root).toContain('127.0.0.1:41002-a1b2c3');
    expect(root).toContain('localhost:42002');
  });

  it('folds the stack traces, and groups the concurrent exceptions under their root with a count', () => {
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).toContain('<summary>Stack trace (2 lines)</summary><pre>java.lang.IllegalStateException');
    const concurrent = html.slice(html.indexOf('data-testid="exception-concurrent"'), html.indexOf('exception-entry-1'));
    expect(concurrent).toContain('<summary>2 concurrent exceptions, handled with this one</summary>');
    expect(concurrent).toContain('Connection unexpectedly closed');
    expect(concurrent).toContain('localhost:42003');
  });

  it('a global failure says it has no task; the older entry is numbered; a truncated history says so', () => {
    const older = html.slice(html.indexOf('exception-entry-1'));
    expect(older).toContain('<span class="tag">#2</span>');
    expect(older).toContain('global failure (no task)');
    expect(older).not.toContain('<dt>Subtask</dt>');
    expect(older).not.toContain('concurrent exception');
    expect(html).toContain('older ones are left out');
  });

  it('no history: says the job has not failed', () => {
    expect(render([])).toContain('No exceptions: this job has not failed or restarted since it was submitted.');
  });
});
