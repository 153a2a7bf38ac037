import type { LocalCluster } from '../runtime/cluster.ts';
import type { Task } from '../runtime/task.ts';
import { taskThreadName } from './cluster-logs.ts';

/** `ThreadDumpInfo` on the wire. */
export interface ThreadDumpWire {
  threadInfos: Array<{ threadName: string; stringifiedThreadInfo: string }>;
}

/** The thread the local engine's one Node.js event loop is: it runs the JobManager and every TaskManager. */
const EVENT_LOOP_THREAD = `"main" Id=1 RUNNABLE\n\tat local-engine.LocalCluster.advance(one Node.js event loop runs the JobManager and every TaskManager)\n`;

/**
 * A TaskManager's thread dump: a thread per subtask deployed on it, named as Flink names a task's thread
 * (`tenant-cost (13/32)#0`), in the state its last step ended in (RUNNABLE while it worked the step through, WAITING
 * for input in its mailbox or for an output buffer), as `JvmUtils.stringifyThreadInfo` writes a thread. The engine's
 * subtasks take turns on one event loop: these threads are its subtasks, not operating-system threads.
 */
export function taskManagerThreadDump(cluster: LocalCluster, taskManagerId: string): ThreadDumpWire {
  const tasks: Task[] = [];
  for (const job of cluster.jobs.values()) for (const task of job.tasks) if (task.identity.taskManagerId === taskManagerId && isAlive(task)) tasks.push(task);
  const threads = tasks.map((task, i) => ({ threadName: taskThreadName(task), stringifiedThreadInfo: taskThread(task, 100 + i) }));
  return { threadInfos: [{ threadName: 'main', stringifiedThreadInfo: EVENT_LOOP_THREAD }, ...threads] };
}

/** The JobManager's thread dump: the event loop, which is where its scheduler and checkpoint coordinator run. */
export function jobManagerThreadDump(): ThreadDumpWire {
  return { threadInfos: [{ threadName: 'main', stringifiedThreadInfo: EVENT_LOOP_THREAD }] };
}

/** A task has a thread from its deployment until it ends (Flink's `Task.run` on the task's own thread). */
function isAlive(task: Task): boolean {
  return task.state === 'DEPLOYING' || task.state === 'INITIALIZING' || task.state === 'RUNNING' || task.state === 'CANCELING';
}

function taskThread(task: Task, id: number): string {
  const name = taskThreadName(task);
  const operators = task.handles.map((h) => h.name);
  const head = task.identity.vertex.isSource ? 'SourceTask' : 'StreamInputTask';
  const activity = task.state === 'RUNNING' ? task.lastStepActivity : 'busy';
  const state = activity === 'busy' ? 'RUNNABLE' : 'WAITING';
  // Java's lock names have no spaces (`Class@hash`): what it waits for is in the class name.
  const waitsFor = task.identity.vertex.isSource ? 'local-engine.SourceReader$WaitingForRecords' : 'local-engine.InputGate$WaitingForInput';
  const lock = activity === 'idle' ? ` on ${waitsFor}` : activity === 'back-pressured' ? ' on local-engine.BufferPool$WaitingForBuffer' : '';
  const frames = [
    ...(activity === 'busy' ? [...operators].reverse().map((op) => `local-engine.operator.processElement(${op})`) : []),
    `local-engine.${head}.run(${task.identity.vertex.name})`,
    `local-engine.Task.run(${name})`,
  ];
  return `"${name}" Id=${id} ${state}${lock}\n${frames.map((f) => `\tat ${f}\n`).join('')}`;
}
