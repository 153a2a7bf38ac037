import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { Writable } from 'node:stream';
import type { LogFileRequest, LogReadRequest, LogSearchRequest, LogsApi } from '../contracts/logs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchThreadDump } from './fetch-thread-dump.ts';
import { saveLogFile, streamLogFile, type LogFileDownloads } from './log-download.ts';
import { listLogs, readLogPage, searchLog } from './log-files.ts';

/** The local engine's threads are its subtasks taking turns on one event loop: said beside its thread dumps. */
export const LOCAL_ENGINE_THREADS_NOTE =
  'The local engine runs its JobManager and TaskManagers on one Node.js event loop: "main" is that loop, and each task thread is one of its subtasks (RUNNABLE while its last step kept it busy, WAITING for input or for an output buffer), not an operating-system thread.';

/**
 * The logs and thread dumps of a cluster's processes, read when a view or a command asks; nothing runs in the
 * background. Whole files are streamed to where they are saved (`LogFileDownloads`), outside the engine calls.
 */
export class LogsService implements LogsApi, LogFileDownloads {
  constructor(private readonly registry: ClusterRegistry) {}

  list(clusterId: string, processId: string) {
    return listLogs(this.client(clusterId), clusterId, processId);
  }

  read(clusterId: string, processId: string, request: LogReadRequest) {
    return readLogPage(this.client(clusterId), clusterId, processId, request);
  }

  search(clusterId: string, processId: string, request: LogSearchRequest) {
    return searchLog(this.client(clusterId), clusterId, processId, request);
  }

  threadDump(clusterId: string, processId: string) {
    const note = this.registry.isBuiltIn(clusterId) ? LOCAL_ENGINE_THREADS_NOTE : null;
    return fetchThreadDump(this.client(clusterId), clusterId, processId, note);
  }

  download(request: LogFileRequest, sink: Writable) {
    return streamLogFile(this.client(request.clusterId), request.processId, request.file, sink);
  }

  save(request: LogFileRequest, target: string) {
    return saveLogFile(this.client(request.clusterId), request.processId, request.file, target);
  }

  private client(clusterId: string): FlinkRestClient {
    return this.registry.connection(clusterId).client;
  }
}
