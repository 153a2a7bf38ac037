/**
 * What starting `flink-ops` costs, against this machine's floor in the same run: a bare Node that imports axios (the
 * least a REST command can load). Medians of 5, the cases interleaved so a busy moment weighs on all of them.
 * Run: `npx tsx engine/bench/startup-cost.ts` (after `npm run build`: the bin runs the compiled CLI).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEngine } from '../local/start-local-engine.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');
const RSS_HOOK = path.join(ROOT, 'engine/bench/report-max-rss.mjs');
const RUNS = 5;
const TOKEN = 'startup-cost-bench-token-0123456789';

interface Run {
  ms: number;
  maxRssMiB: number;
}

/** Runs Node with `args` to its exit. Asynchronously: the local engine it may ask lives in this process. */
function timed(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(process.execPath, ['--import', RSS_HOOK, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 }, (error, _stdout, stderr) => {
      const ms = performance.now() - started;
      if (error) return reject(new Error(`${args.join(' ')} failed: ${stderr.trim().split('\n')[0] ?? error.message}`));
      const rss = /max-rss (\d+)\s*$/.exec(stderr);
      resolve({ ms, maxRssMiB: rss ? Number(rss[1]) / 1024 : Number.NaN });
    });
  });
}

/** `npm start`'s app (web mode, its local engine started first) from its spawn to the printed URL line. */
function untilUrl(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'app', '--web', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let printedAt: number | undefined;
    const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (printedAt === undefined && /Flink Ops Console \(web mode\): http:\/\/127\.0\.0\.1:\d+/.test(out)) {
        printedAt = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      if (printedAt !== undefined) resolve(printedAt);
      else reject(new Error(`the app exited (${code}) before printing its URL: ${out.trim().split('\n')[0] ?? ''}`));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const check = (ok: boolean) => (ok ? '✓' : '✗');

function compiledIsFresh(): boolean {
  const file = path.join(ROOT, 'dist/cli/inputs.json');
  if (!existsSync(file)) return false;
  const { builtAt, sources } = JSON.parse(readFileSync(file, 'utf8')) as { builtAt: number; sources: string[] };
  return sources.every((s) => existsSync(path.join(ROOT, s)) && statSync(path.join(ROOT, s)).mtimeMs <= builtAt);
}

if (!compiledIsFresh()) {
  console.log('  not measured: the compiled CLI is missing or older than its sources (run `npm run build`)');
} else {
  const engine = await startLocalEngine({ port: 0, token: TOKEN });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-startup-'));
  const env = { ...process.env, FLINK_OPS_TOKEN: TOKEN };
  const request = `const axios = (await import('axios')).default; await axios.get(${JSON.stringify(`${engine.url}/jobs/overview`)}, { headers: { Authorization: 'Bearer ${TOKEN}' } });`;
  const cases = {
    floor: () => timed(['--input-type=module', '-e', "await import('axios');"]),
    floorWithRequest: () => timed(['--input-type=module', '-e', request]),
    help: () => timed([BIN, '--help']),
    jobs: () => timed([BIN, 'jobs', '--url', engine.url], env),
  };
  const runs: Record<keyof typeof cases, Run[]> = { floor: [], floorWithRequest: [], help: [], jobs: [] };
  const appMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const name of Object.keys(cases) as Array<keyof typeof cases>) runs[name].push(await cases[name]());
      appMs.push(await untilUrl(dataDir));
    }
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const ms = (name: keyof typeof cases) => median(runs[name].map((r) => r.ms));
  const rss = (name: keyof typeof cases) => median(runs[name].map((r) => r.maxRssMiB));
  const floor = ms('floor');
  const requestMs = Math.max(0, ms('floorWithRequest') - floor);
  const helpRatio = ms('help') / floor;
  const jobsTarget = 3 * floor + requestMs;
  const app = median(appMs);
  console.log(`  floor (node importing axios)        ${floor.toFixed(0).padStart(5)} ms  ${rss('floor').toFixed(0).padStart(4)} MiB   (its request to the local engine: +${requestMs.toFixed(0)} ms)`);
  console.log(`  flink-ops --help                    ${ms('help').toFixed(0).padStart(5)} ms  ${rss('help').toFixed(0).padStart(4)} MiB   ${helpRatio.toFixed(2)}× the floor (target ≤ 2×, ≤ 80 MiB) ${check(helpRatio <= 2 && rss('help') <= 80)}`);
  console.log(`  flink-ops jobs --url <local engine>  ${ms('jobs').toFixed(0).padStart(5)} ms  ${rss('jobs').toFixed(0).padStart(4)} MiB   ${(ms('jobs') / floor).toFixed(2)}× the floor (target ≤ 3× + its request = ${jobsTarget.toFixed(0)} ms) ${check(ms('jobs') <= jobsTarget)}`);
  console.log(`  app (web mode, built) to its URL    ${app.toFixed(0).padStart(5)} ms              (target ≤ 2,000 ms) ${check(app <= 2_000)}`);
}
