import type { JobStatus } from '../runtime/job.ts';
import type { ExecutionState, Task } from '../runtime/task.ts';
import { taskNameWithAttempt } from '../restart/exception-history.ts';
import { ProcessLog } from './process-log.ts';

/** A process's log directory: its log and its stdout (the engine's processes print nothing to stdout: it is empty). */
export interface ProcessLogFiles {
  log: ProcessLog;
  stdout: ProcessLog;
}

const TASK_LOGGER = 'org.apache.flink.runtime.taskmanager.Task';
const EXECUTION_GRAPH_LOGGER = 'org.apache.flink.runtime.executiongraph.ExecutionGraph';
const RESOURCE_MANAGER_LOGGER = 'org.apache.flink.runtime.resourcemanager.StandaloneResourceManager';
const TASK_EXECUTOR_LOGGER = 'org.apache.flink.runtime.taskexecutor.TaskExecutor';

/** Flink 1.16+'s `ExecutionAttemptID` as its log lines show it, the local engine's ids standing in for the graph's. */
export function executionAttemptId(task: Task): string {
  return `${task.identity.vertex.id}_${task.identity.subtaskIndex}_${task.identity.attempt}`;
}

/** `Execution.getVertexWithAttempt()`, the name Flink gives a subtask in its logs and to its thread. */
export function taskThreadName(task: Task): string {
  return taskNameWithAttempt({ vertexName: task.identity.vertex.name, subtaskIndex: task.identity.subtaskIndex, parallelism: task.identity.vertex.parallelism, attempt: task.identity.attempt });
}

/**
 * The log files of the local engine's JobManager and TaskManagers, named as a standalone Flink names them
 * (`flink-<user>-standalonesession-0-<host>.log`, `flink-<user>-taskexecutor-<n>-<host>.log`), written by its runtime
 * as Flink's classes write theirs: each subtask's state changes on its TaskManager (`Task`) and on the JobManager
 * (`ExecutionGraph`), each job status change, each TaskManager's registration and loss.
 */
export class ClusterLogs {
  readonly jobManager: ProcessLogFiles;
  private readonly taskManagers = new Map<string, ProcessLogFiles>();

  constructor(startedAt: number) {
    this.jobManager = files('flink-local-standalonesession-0-localhost', startedAt);
  }

  /** A TaskManager's files; undefined for an id that never registered. */
  taskManager(id: string): ProcessLogFiles | undefined {
    return this.taskManagers.get(id);
  }

  taskManagerRegistered(id: string, index: number, rpcPort: number, now: number): void {
    const tm = files(`flink-local-taskexecutor-${index}-localhost`, now);
    this.taskManagers.set(id, tm);
    tm.log.write(now, 'INFO', TASK_EXECUTOR_LOGGER, `Successful registration at resource manager as TaskExecutor ${id}.`);
    this.jobManager.log.write(now, 'INFO', RESOURCE_MANAGER_LOGGER, `Registering TaskManager with ResourceID ${id} (127.0.0.1:${rpcPort}) at ResourceManager`);
  }

  taskManagerLost(id: string, now: number): void {
    this.jobManager.log.write(now, 'INFO', RESOURCE_MANAGER_LOGGER, `Closing TaskExecutor connection ${id} because: TaskManager with id ${id} is no longer reachable.`);
  }

  taskState(task: Task, from: ExecutionState, to: ExecutionState, now: number): void {
    const name = taskThreadName(task);
    const attempt = executionAttemptId(task);
    // The TaskManager logs from DEPLOYING on (it knows a task once it is deployed to it); the JobManager logs every change.
    if (from !== 'CREATED' && from !== 'SCHEDULED') {
      const level = to === 'FAILED' ? 'WARN' : 'INFO';
      const cause = to === 'FAILED' && task.failure ? `\n${task.failure.name}: ${task.failure.message}` : '';
      this.taskManager(task.identity.taskManagerId)?.log.write(now, level, TASK_LOGGER, `${name} (${attempt}) switched from ${from} to ${to}.${cause}`);
    }
    const where = to === 'DEPLOYING' ? ` Deploying ${name} (attempt #${task.identity.attempt}) with attempt id ${attempt} to ${task.identity.endpoint} (${task.identity.taskManagerId}).` : '';
    this.jobManager.log.write(now, to === 'FAILED' ? 'WARN' : 'INFO', EXECUTION_GRAPH_LOGGER, `${name} (${attempt}) switched from ${from} to ${to} on ${task.identity.endpoint}.${where}`);
  }

  jobStatus(jobName: string, jobId: string, from: JobStatus, to: JobStatus, now: number): void {
    this.jobManager.log.write(now, 'INFO', EXECUTION_GRAPH_LOGGER, `Job ${jobName} (${jobId}) switched from state ${from} to ${to}.`);
  }
}

function files(base: string, now: number): ProcessLogFiles {
  return { log: new ProcessLog(`${base}.log`, now), stdout: new ProcessLog(`${base}.out`, now) };
}
