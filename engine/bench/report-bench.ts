/**
 * `npm run bench`, report part: a skew report of a generated 200-vertex × 1,024-subtask job over 60 s (7 samples, one
 * per 10 s) in each format, from a history store as `flink-ops report` reads it. Each format runs in its own Node
 * process, so its peak memory (the process's maximum resident set) is its own. Figures beside the targets; nothing
 * here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSkewReport } from '../exports/read-skew-report.ts';
import { REPORT_FORMATS, renderReportChunks, type ReportFormat } from '../exports/render-report.ts';
import { BUNDLE_RETENTION } from '../exports/incident-bundle.ts';
import { HistoryStore } from '../history/history-store.ts';
import { syntheticJob, syntheticJobSample } from './synthetic-samples.ts';

const VERTICES = 200;
const PARALLELISM = 1024;
const INTERVAL_MS = 10_000;
const WINDOW_MS = 60_000;
const CLUSTER = { id: 'bench', name: 'bench', url: null, flinkVersion: '2.2.1' };
const TARGET: Record<ReportFormat, { ms: number; mb: number | null }> = {
  csv: { ms: 2000, mb: 300 },
  'vertices-csv': { ms: 2000, mb: 300 },
  json: { ms: 2000, mb: 300 },
  html: { ms: 5000, mb: null },
};

const job = syntheticJob(VERTICES, PARALLELISM, 2048);

async function fill(dir: string): Promise<void> {
  const store = HistoryStore.open(path.join(dir, 'history'), { retention: BUNDLE_RETENTION });
  const t0 = 1_700_000_000_000;
  for (let i = 0; i <= WINDOW_MS / INTERVAL_MS; i++) await store.samples.append({ ...syntheticJobSample(job, CLUSTER.id, i, t0 + i * INTERVAL_MS, INTERVAL_MS), jobState: 'RUNNING' });
  await store.close();
}

/** In the child: one report in one format written to a file as `flink-ops report --out` does, timed from opening the store. */
async function measure(dir: string, format: ReportFormat): Promise<void> {
  const file = path.join(dir, `report.${format}`);
  const startMb = process.memoryUsage().rss / 1024 / 1024;
  const started = performance.now();
  const store = HistoryStore.open(path.join(dir, 'history'), { retention: BUNDLE_RETENTION });
  const fd = openSync(file, 'w');
  for (const chunk of renderReportChunks(readSkewReport(store, CLUSTER, job.jobId, WINDOW_MS), format)) writeFileSync(fd, chunk);
  closeSync(fd);
  const ms = performance.now() - started;
  await store.close();
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ms, peakMb, startMb, bytes: statSync(file).size })}\n`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-report-bench-'));
  try {
    await fill(dir);
    console.log(`  ${'format'.padEnd(14)} ${'time'.padStart(9)} ${'peak RSS'.padStart(10)} ${'(at start)'.padStart(10)} ${'size'.padStart(10)}   target`);
    for (const format of REPORT_FORMATS) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure', dir, format], { encoding: 'utf8' });
      const result = child.status === 0 ? (JSON.parse(child.stdout.trim().split('\n').pop()!) as { ms: number; peakMb: number; startMb: number; bytes: number }) : null;
      if (!result) {
        console.log(`  ${format.padEnd(14)} failed: ${child.stderr.trim().split('\n').pop()}`);
        continue;
      }
      const target = TARGET[format];
      const ok = result.ms <= target.ms && (target.mb === null || result.peakMb <= target.mb);
      console.log(
        `  ${format.padEnd(14)} ${`${result.ms.toFixed(0)} ms`.padStart(9)} ${`${result.peakMb.toFixed(0)} MB`.padStart(10)} ${`${result.startMb.toFixed(0)} MB`.padStart(10)} ${`${(result.bytes / 1024 / 1024).toFixed(1)} MiB`.padStart(10)}   < ${target.ms / 1000} s${target.mb ? `, < ${target.mb} MB` : ''}  ${ok ? 'ok' : 'MISSED'}`,
      );
    }
    console.log(`  (${VERTICES} vertices × ${PARALLELISM} subtasks, ${WINDOW_MS / INTERVAL_MS + 1} samples; time from opening the store to the file written; peak RSS of the whole Node process, which holds the start figure (Node, tsx, the modules) before the report begins)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--measure');
if (at >= 0) await measure(process.argv[at + 1], process.argv[at + 2] as ReportFormat);
else await main();
