import type { KafkaSourceInfo } from '../contracts/kafka.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { EngineError } from '../flink-rest/errors.ts';

/** `<scope>.KafkaSourceReader.topic.<topic>.partition.<n>.<metric>`: Flink's KafkaSource per-partition metrics. */
const PARTITION_METRIC = /KafkaSourceReader\.topic\.(.+)\.partition\.\d+\.(currentOffset|committedOffset)$/;
/** Configuration keys that name a Kafka consumer group (job parameters, table options, the local engine's). */
const GROUP_KEY = /(^|[.-])group[.-_]?id$/i;
/** Checkpointing off: Flink reports the interval as Long.MAX_VALUE. */
const DISABLED_INTERVAL = 1e15;

/**
 * What Flink's REST API tells about a job's Kafka source: the topics from the source's `KafkaSourceReader` metrics,
 * the consumer group from the job's configuration (`group.id`, `properties.group.id`, `kafka.group.id`, ...) when
 * the job puts it there, `pendingRecords` summed over the source's subtasks, and the checkpoint interval (offsets
 * are committed on checkpoints). Whatever Flink does not expose comes back null: the user names it.
 */
export async function discoverKafkaSource(client: FlinkRestClient, jobId: string): Promise<KafkaSourceInfo> {
  const [job, config, checkpoints] = await Promise.all([
    client.request(endpoints.jobDetails, { jobid: jobId }),
    client.request(endpoints.jobConfig, { jobid: jobId }).catch(ignoreMissing),
    client.request(endpoints.checkpointConfig, { jobid: jobId }).catch(ignoreMissing),
  ]);
  const userConfig = config?.['execution-config']?.['user-config'] ?? {};
  const groupEntry = Object.entries(userConfig).find(([key, value]) => GROUP_KEY.test(key) && typeof value === 'string' && value !== '');
  const interval = checkpoints?.interval;
  const info: KafkaSourceInfo = {
    topics: [],
    groupId: groupEntry ? String(groupEntry[1]) : null,
    pendingRecords: null,
    sourceVertexId: null,
    checkpointIntervalMs: interval !== undefined && interval > 0 && interval < DISABLED_INTERVAL ? interval : null,
  };
  // Sources come first in the vertex list; only their metric ids are listed (one request each).
  for (const vertex of job.vertices.filter((v) => /^Source/i.test(v.name))) {
    const ids = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertex.id });
    const topics = new Set<string>();
    let pendingId: string | undefined;
    for (const { id } of ids) {
      const match = PARTITION_METRIC.exec(id);
      if (match) topics.add(match[1]);
      if (id.endsWith('.pendingRecords')) pendingId = id;
    }
    if (topics.size === 0) continue;
    info.topics = [...topics].sort();
    info.sourceVertexId = vertex.id;
    if (pendingId) {
      const [sum] = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertex.id }, { get: pendingId, agg: 'sum' });
      info.pendingRecords = sum?.sum ?? null;
    }
    break;
  }
  return info;
}

/** A job's `pendingRecords` right now: summed over the subtasks of its first source that reports it; null if none does. */
export async function readPendingRecords(client: FlinkRestClient, jobId: string): Promise<number | null> {
  const job = await client.request(endpoints.jobDetails, { jobid: jobId });
  for (const vertex of job.vertices.filter((v) => /^Source/i.test(v.name))) {
    const ids = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertex.id });
    const pendingId = ids.find((m) => m.id.endsWith('.pendingRecords'))?.id;
    if (!pendingId) continue;
    const [sum] = await client.request(endpoints.subtaskMetricsAggregated, { jobid: jobId, vertexid: vertex.id }, { get: pendingId, agg: 'sum' });
    return sum?.sum ?? null;
  }
  return null;
}

function ignoreMissing(error: unknown): undefined {
  if (error instanceof EngineError && (error.info.kind === 'not-found' || error.info.kind === 'unexpected-response')) return undefined;
  throw error;
}
