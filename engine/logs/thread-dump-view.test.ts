import { describe, expect, it } from 'vitest';
import { groupThreadDump } from './thread-dump-view.ts';

/** Thread names and headers as Flink 2.3.0's TaskManager sends them (`JvmUtils.stringifyThreadInfo`). */
const dump = [
  { threadName: 'throttle (1/2)#0', stringifiedThreadInfo: '"throttle (1/2)#0" Id=91 RUNNABLE\n\tat dev.flinkops.testjob.Throttle.processElement(Throttle.java:40)\n' },
  { threadName: 'throttle (2/2)#0', stringifiedThreadInfo: '"throttle (2/2)#0" Id=93 WAITING on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@775b9ddd\n' },
  { threadName: 'OutputFlusher for throttle (1/2)#0', stringifiedThreadInfo: '"OutputFlusher for throttle (1/2)#0" Id=95 TIMED_WAITING\n\tat java.base@17.0.15/java.lang.Thread.sleep(Native Method)\n' },
  { threadName: 'System Time Trigger for throttle (2/2)#0', stringifiedThreadInfo: '"System Time Trigger for throttle (2/2)#0" Id=97 WAITING on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@1c372f07\n' },
  { threadName: 'flink-pekko.actor.default-dispatcher-18', stringifiedThreadInfo: '"flink-pekko.actor.default-dispatcher-18" Id=40 RUNNABLE\n' },
  { threadName: 'Source: events -> parse (1/2)#0', stringifiedThreadInfo: '"Source: events -> parse (1/2)#0" Id=80 BLOCKED on java.lang.Object@1b2c owned by "Legacy Source Thread" Id=81\n' },
];

describe('a thread dump grouped by state', () => {
  const view = groupThreadDump('c', 'tm', dump, null, 0);
  const byName = new Map(view.groups.flatMap((g) => g.threads).map((t) => [t.name, t]));

  it('marks the tasks\' own threads, and the threads named after a task as its helpers', () => {
    expect(byName.get('throttle (1/2)#0')!.task).toEqual({ role: 'task', vertexName: 'throttle', subtaskIndex: 0, parallelism: 2, attempt: 0 });
    expect(byName.get('OutputFlusher for throttle (1/2)#0')!.task).toEqual({ role: 'helper', vertexName: 'throttle', subtaskIndex: 0, parallelism: 2, attempt: 0 });
    expect(byName.get('System Time Trigger for throttle (2/2)#0')!.task).toMatchObject({ role: 'helper', subtaskIndex: 1 });
    expect(byName.get('Source: events -> parse (1/2)#0')!.task).toMatchObject({ role: 'task', vertexName: 'Source: events -> parse' });
    expect(byName.get('flink-pekko.actor.default-dispatcher-18')!.task).toBeNull();
    expect(view.taskThreadCount).toBe(3);
  });

  it('groups by Java\'s thread state, task threads first, then helpers, with the lock and its owner', () => {
    expect(view.groups.map((g) => [g.state, g.threads.map((t) => t.name)])).toEqual([
      ['RUNNABLE', ['throttle (1/2)#0', 'flink-pekko.actor.default-dispatcher-18']],
      ['BLOCKED', ['Source: events -> parse (1/2)#0']],
      ['WAITING', ['throttle (2/2)#0', 'System Time Trigger for throttle (2/2)#0']],
      ['TIMED_WAITING', ['OutputFlusher for throttle (1/2)#0']],
    ]);
    expect(byName.get('Source: events -> parse (1/2)#0')).toMatchObject({ id: 80, lockName: 'java.lang.Object@1b2c', lockOwner: 'Legacy Source Thread' });
    expect(byName.get('OutputFlusher for throttle (1/2)#0')!.stack).toBe('"OutputFlusher for throttle (1/2)#0" Id=95 TIMED_WAITING\n    at java.base@17.0.15/java.lang.Thread.sleep(Native Method)\n');
  });
});
