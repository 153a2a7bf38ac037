import type { JobExceptionEntry, JobExceptionInfo, JobExceptions } from '../contracts/jobs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints, type ResponseOf } from '../flink-rest/endpoints.ts';

type ExceptionsBody = ResponseOf<typeof endpoints.jobExceptions>;
type WireEntry = ExceptionsBody['exceptionHistory']['entries'][number];
type WireInfo = Omit<WireEntry, 'concurrentExceptions'>;

/** A job's exception history in one request; `maxExceptions` as Flink's (default 20 root exceptions). */
export async function fetchJobExceptions(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  maxExceptions?: number,
): Promise<JobExceptions> {
  const query = maxExceptions === undefined ? undefined : { maxExceptions: String(maxExceptions) };
  const body = await client.request(endpoints.jobExceptions, { jobid: jobId }, query);
  return toJobExceptions(clusterId, jobId, body, Date.now());
}

/** Pure: Flink's exception history → the console's, newest first as Flink sends it. */
export function toJobExceptions(clusterId: string, jobId: string, body: ExceptionsBody, fetchedAt: number): JobExceptions {
  const entries = body.exceptionHistory.entries.map(
    (entry): JobExceptionEntry => ({ ...toInfo(entry), concurrent: (entry.concurrentExceptions ?? []).map(toInfo) }),
  );
  return { clusterId, jobId, entries, truncated: body.exceptionHistory.truncated ?? false, fetchedAt };
}

function toInfo(wire: WireInfo): JobExceptionInfo {
  const task = parseTaskName(wire.taskName ?? null);
  return {
    exceptionName: wire.exceptionName,
    message: messageOf(wire.exceptionName, wire.stacktrace),
    stackTrace: wire.stacktrace,
    timestamp: wire.timestamp,
    taskName: wire.taskName ?? null,
    vertexName: task?.vertexName ?? null,
    subtaskIndex: task?.subtaskIndex ?? null,
    attempt: task?.attempt ?? null,
    endpoint: wire.endpoint ?? wire.location ?? null,
    taskManagerId: wire.taskManagerId ?? null,
    failureLabels: wire.failureLabels ?? {},
  };
}

/**
 * Flink's task name with attempt (`Execution.getVertexWithAttempt`): `"<vertex> (<i+1>/<parallelism>)#<attempt>"`.
 * Null when the name has another shape: the raw name is still shown.
 */
export function parseTaskName(taskName: string | null): { vertexName: string; subtaskIndex: number; attempt: number } | null {
  if (taskName === null) return null;
  const match = /^(.*) \((\d+)\/\d+\)(?:#(\d+))?$/s.exec(taskName);
  if (!match) return null;
  return { vertexName: match[1], subtaskIndex: Number(match[2]) - 1, attempt: Number(match[3] ?? 0) };
}

/** The first line of `ExceptionUtils.stringifyException` (`"<class>: <message>"`) without the class. */
function messageOf(exceptionName: string, stackTrace: string): string {
  const first = stackTrace.split('\n', 1)[0].trim();
  const prefix = `${exceptionName}: `;
  if (first.startsWith(prefix)) return first.slice(prefix.length);
  return first === exceptionName ? '' : first;
}
