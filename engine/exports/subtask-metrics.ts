import { stringify } from 'csv-stringify/sync';
import type { ExportedFile } from '../contracts/exports.ts';
import type { SubtaskRow, VertexSubtasks } from '../contracts/jobs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';

const COLUMNS = [
  'vertex_id',
  'vertex_name',
  'subtask',
  'attempt',
  'status',
  'endpoint',
  'taskmanager_id',
  'records_in',
  'records_out',
  'bytes_in',
  'bytes_out',
  'busy_ms_per_s',
  'backpressured_ms_per_s',
  'idle_ms_per_s',
  'backpressure_level',
  'watermark',
] as const;

/**
 * Every subtask of every vertex of a job, one CSV row each: the numbers behind a skew or backpressure
 * finding, for an incident's notes or a spreadsheet. 1 + 3V requests (the client bounds concurrency).
 */
export async function exportSubtaskMetrics(client: FlinkRestClient, clusterId: string, jobId: string, now = new Date()): Promise<ExportedFile> {
  const job = await client.request(endpoints.jobDetails, { jobid: jobId });
  const vertices = await Promise.all(job.vertices.map((vertex) => fetchVertexSubtasks(client, clusterId, jobId, vertex.id)));
  const content = subtaskMetricsCsv(vertices);
  return {
    suggestedName: `subtasks-${fileSafe(job.name)}-${jobId.slice(0, 8)}-${timestamp(now)}.csv`,
    content,
    mime: 'text/csv',
    rows: vertices.reduce((sum, v) => sum + v.subtasks.length, 0),
  };
}

/** Pure: the CSV text, vertices in plan order and subtasks by index; empty cells where a metric is missing. */
export function subtaskMetricsCsv(vertices: ReadonlyArray<Pick<VertexSubtasks, 'vertexId' | 'name' | 'subtasks'>>): string {
  const rows = vertices.flatMap((vertex) =>
    [...vertex.subtasks].sort((a, b) => a.index - b.index).map((s: SubtaskRow) => [
      vertex.vertexId,
      vertex.name,
      s.index,
      s.attempt,
      s.status,
      s.endpoint,
      s.taskManagerId,
      s.recordsIn,
      s.recordsOut,
      s.bytesIn,
      s.bytesOut,
      s.busyTimeMsPerSecond,
      s.backPressuredTimeMsPerSecond,
      s.idleTimeMsPerSecond,
      s.backpressureLevel,
      s.watermark === null ? null : new Date(s.watermark).toISOString(),
    ]),
  );
  return stringify(rows, { header: true, columns: [...COLUMNS], cast: { number: (n) => String(n) } });
}

function fileSafe(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'job'
  );
}

/** `20261130-031200` in UTC: sorts by time and means the same to everyone on the incident. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}
