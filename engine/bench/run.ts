import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCluster, benchFlinkVersion } from './bench-cluster.ts';
import { measureJobPageCycle, type JobPageCost } from './job-page-cost.ts';
import { startSyntheticJobServer } from './synthetic-job-server.ts';
import { startSyntheticTaskManagersServer } from './synthetic-taskmanagers-server.ts';
import { measureTaskManagersRefresh, type TaskManagersCost } from './taskmanagers-cost.ts';

/** `npm run bench`: figures and ratios, printed; nothing here asserts a time. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_UI_POLL_MS = 3_000;
const DEFAULT_FETCH_INTERVAL_MS = 10_000;

function row(label: string, cost: JobPageCost): string {
  const perMinuteConsole = cost.requests * (60_000 / DEFAULT_FETCH_INTERVAL_MS);
  const perMinuteWebUiPace = cost.requests * (60_000 / WEB_UI_POLL_MS);
  return [
    label.padEnd(34),
    String(cost.vertices).padStart(4),
    String(cost.openVertexParallelism).padStart(6),
    `${cost.requests}/${cost.budget}`.padStart(9),
    `${(cost.bytes / 1024).toFixed(1)} KiB`.padStart(11),
    `${cost.millis.toFixed(0)} ms`.padStart(8),
    `${perMinuteConsole}/min`.padStart(10),
    `${perMinuteWebUiPace}/min`.padStart(10),
  ].join('  ');
}

async function main(): Promise<void> {
  console.log('Job page: one refresh cycle (graph + one open subtasks table)');
  console.log(['job'.padEnd(34), '   V', '  maxP', 'req/budget', '      bytes', '    time', '  req@10s', '   req@3s'].join('  '));

  const version = benchFlinkVersion();
  const cluster = benchCluster(version);
  if (cluster) {
    try {
      console.log(row(`${cluster.jobName} on Flink ${version}`, await measureJobPageCycle(cluster.restUrl, cluster.jobId)));
    } catch (error) {
      console.log(`${'real Flink test job'.padEnd(34)}  skipped: ${(error as Error).message}`);
    }
  } else {
    console.log(`${'real Flink test job'.padEnd(34)}  not measured: run \`npm run flink:up\` first`);
  }

  for (const size of [10, 200]) {
    const synthetic = await startSyntheticJobServer(size);
    try {
      console.log(row(`generated ${size}-vertex plan`, await measureJobPageCycle(synthetic.url, synthetic.jobId)));
    } finally {
      await synthetic.close();
    }
  }
  console.log(`\nreq@10s: requests per minute at Flink's default metrics.fetcher.update-interval (10 s), the console's floor.`);
  console.log(`req@3s: the same cycle at the Flink Web UI's ${WEB_UI_POLL_MS / 1000} s refresh, which gets the same numbers back.`);

  await taskManagersPanel(cluster?.restUrl ?? null, version);
}

/** The cluster page's TaskManagers panel: /taskmanagers plus one metrics request per TaskManager, capped. */
async function taskManagersPanel(realUrl: string | null, version: string): Promise<void> {
  const line = (label: string, cost: TaskManagersCost) =>
    [label.padEnd(34), String(cost.taskManagers).padStart(4), `${cost.requests}/${cost.budget}`.padStart(9), `${(cost.bytes / 1024).toFixed(1)} KiB`.padStart(11), `${cost.millis.toFixed(0)} ms`.padStart(8)].join('  ');
  console.log('\nTaskManagers panel: one refresh (/taskmanagers + metrics of at most 50)');
  console.log(['cluster'.padEnd(34), '   T', 'req/budget', '      bytes', '    time'].join('  '));
  if (realUrl) {
    try {
      console.log(line(`test cluster on Flink ${version}`, await measureTaskManagersRefresh(realUrl)));
    } catch (error) {
      console.log(`${'test cluster'.padEnd(34)}  skipped: ${(error as Error).message}`);
    }
  }
  for (const count of [4, 200]) {
    const synthetic = await startSyntheticTaskManagersServer(count);
    try {
      console.log(line(`generated ${count} TaskManagers`, await measureTaskManagersRefresh(synthetic.url)));
    } finally {
      await synthetic.close();
    }
  }
}

/** Each further benchmark runs in its own Node process, so one's heap and JIT state never skews another's. */
function runScript(title: string, file: string, args: string[] = [], nodeFlags: string[] = []): void {
  console.log(`\n${title}`);
  const result = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(ROOT, file), ...args], { stdio: 'inherit', cwd: ROOT });
  if (result.status !== 0) console.log(`  (${file} exited with ${result.status ?? result.signal})`);
}

await main();
runScript('Starting flink-ops: --help, jobs and the app (web mode) to its URL, against a bare Node importing axios (medians of 5)', 'engine/bench/startup-cost.ts');
runScript('The engine beside a big job: RSS and CPU of `flink-ops app --web` sampling the pinned 200-vertex mixed job (4 × 4,096 + 196 × 128 subtasks), no page open (about 2.5 minutes)', 'engine/bench/engine-big-job.ts');
runScript('Client under a hostile-cluster fuzz: deadlines, caps, redirects, impossible values (1,500 page calls); a big job whose metrics never come', 'engine/bench/client-fuzz.ts', [], ['--expose-gc']);
runScript('Local engine vs real Flink: gatewaymeter, 1,000,000 events, parallelism 1, no capacity limit', 'engine/bench/real-flink-throughput.ts');
runScript('Local engine: throughput at parallelism 1 and 4, memory per open request in assemble', 'engine/bench/local-throughput.ts', [], ['--expose-gc']);
runScript('Local engine: checkpoint and restore vs open requests in assemble', 'engine/bench/local-checkpoint.ts', [], ['--expose-gc']);
runScript('Local engine: exactly-once at 1,000,000 events (plain, 5 kills, restores at 1/3/8/32, rescale) vs the oracle', 'engine/bench/local-checkpoint-proof.ts');
runScript('Kafka: hot-key sampling throughput and the consumer-lag query for 1,000 partitions', 'engine/bench/kafka.ts');
runScript('The history: what a sample and a checkpoint\'s details cost the cluster; the store\'s write and read cost (200 × 1,024 job)', 'engine/bench/history-cost.ts');
runScript('The REST cost side by side: Flink\'s Web UI and the console\'s job page with its history on, on the real test job through a counting proxy (about 4 minutes)', 'engine/bench/web-ui-side-by-side.ts');
runScript('Diagnosis: every analysis on a generated 200-vertex × 1,024-subtask job, and its heatmap in Chromium', 'engine/bench/diagnosis-bench.ts', [], ['--expose-gc']);
runScript('Skew report: a 200-vertex × 1,024-subtask job in each format (CSV, vertices CSV, JSON, HTML), time and peak memory', 'engine/bench/report-bench.ts');
runScript('Operations: click to savepoint path on the local engine and the real Flink, and the requests it takes', 'engine/bench/operations-latency.ts');
runScript('Big jobs in Chromium: 200 vertices × parallelism 4,096, the mixed job (4 × 4,096 + 196 × 128) and 20 × 1,024, the graph and the subtasks table, then a minute idle with refreshes on (npm run bench:big-job)', 'engine/bench/big-job-ui.ts');
