/**
 * Records a window of the running test job on the real Flink of `npm run flink:up`, as the console's sampler sees
 * it: the raw responses of `sampleJob` (job details, each vertex's details and watermarks, the checkpoint summary)
 * every 10 s, into engine/analysis/testdata/real-<version>-window.json. The analyses' unit tests replay them.
 *
 *   npx tsx e2e/flink/record-window.ts [--samples 8]      (FLINK_VERSION picks the cluster, 2.3.0 by default)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { endpoints } from '../../engine/flink-rest/endpoints.ts';
import { readFlinkCluster } from '../support/flinkCluster.ts';
import { ROOT } from '../support/paths.ts';

const cluster = readFlinkCluster();
const count = Number(process.argv[process.argv.indexOf('--samples') + 1]) || 8;
const intervalMs = 10_000;
const client = new FlinkRestClient({ baseUrl: cluster.restUrl });
const samples: unknown[] = [];
const started = Date.now();
for (let i = 0; i < count; i++) {
  const wait = started + i * intervalMs - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const t = Date.now();
  // Raw JSON, not the client's parsed objects: the replay parses them with the same schemas the client uses.
  const raw = async (url: string) => (await fetch(`${cluster.restUrl}${url}`)).json();
  const jobDetails = (await raw(`/jobs/${cluster.jobId}`)) as { vertices: Array<{ id: string }> };
  const vertices = await Promise.all(
    jobDetails.vertices.map(async (v) => ({
      details: await raw(`/jobs/${cluster.jobId}/vertices/${v.id}`),
      watermarks: await raw(`/jobs/${cluster.jobId}/vertices/${v.id}/watermarks`),
    })),
  );
  const checkpoints = await client.request(endpoints.jobCheckpoints, { jobid: cluster.jobId });
  // Only what the sampler reads of the checkpoint summary.
  samples.push({ t, jobDetails, vertices, checkpoints: { latest: { completed: checkpoints.latest?.completed ? { id: checkpoints.latest.completed.id } : null } } });
  process.stderr.write(`sample ${i + 1}/${count}\n`);
}
const file = path.join(ROOT, `engine/analysis/testdata/real-${cluster.version}-window.json`);
writeFileSync(
  file,
  `${JSON.stringify({ flinkVersion: cluster.version, recordedAt: new Date(started).toISOString(), jobId: cluster.jobId, note: 'GatewayMeter test job (e2e/flink/flink.sh up: hot tenant acme, --hot-share 0.4, parallelism 2), sampled every 10 s as sampleJob does.', intervalMs, samples })}\n`,
);
process.stderr.write(`wrote ${path.relative(ROOT, file)}\n`);
