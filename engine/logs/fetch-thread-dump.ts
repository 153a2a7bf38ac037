import type { ThreadDumpView } from '../contracts/logs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { logEndpoints } from '../flink-rest/log-endpoints.ts';
import { checkedProcess } from './log-files.ts';
import { groupThreadDump } from './thread-dump-view.ts';

/** A fresh thread dump of the JobManager or a TaskManager, grouped by state: 1 request. */
export async function fetchThreadDump(client: FlinkRestClient, clusterId: string, processId: string, note: string | null): Promise<ThreadDumpView> {
  const process = checkedProcess(processId);
  const answer = process === 'jobmanager'
    ? await client.request(logEndpoints.jobManagerThreadDump)
    : await client.request(logEndpoints.taskManagerThreadDump, { taskmanagerid: process });
  return groupThreadDump(clusterId, process, answer.threadInfos, note, Date.now());
}
