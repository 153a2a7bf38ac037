import { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchJobGraph } from '../sampling/job-graph.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';

export interface JobPageCost {
  vertices: number;
  /** Parallelism of the vertex whose subtasks table is open during the cycle. */
  openVertexParallelism: number;
  requests: number;
  budget: number;
  bytes: number;
  millis: number;
}

/**
 * One refresh cycle of the job page with a vertex's subtasks open: what the console costs a cluster.
 * The budget from the design: at most V + 4 requests, whatever the parallelism.
 */
export async function measureJobPageCycle(baseUrl: string, jobId: string): Promise<JobPageCost> {
  const client = new FlinkRestClient({ baseUrl, timeoutMs: 30_000 });
  const warm = await fetchJobGraph(client, 'bench', jobId);
  const widest = [...warm.vertices].sort((a, b) => b.parallelism - a.parallelism)[0];
  const before = { ...client.stats };
  const started = performance.now();
  const graph = await fetchJobGraph(client, 'bench', jobId);
  await fetchVertexSubtasks(client, 'bench', jobId, widest.id);
  return {
    vertices: graph.vertices.length,
    openVertexParallelism: widest.parallelism,
    requests: client.stats.requests - before.requests,
    budget: graph.vertices.length + 4,
    bytes: client.stats.bytes - before.bytes,
    millis: performance.now() - started,
  };
}
