/**
 * The exactly-once proofs of the local engine at full size: a bounded GatewayMeter run of 1,000,000 events (seed 42,
 * no late data) whose `--sink-dir` upsert log must equal the independent oracle's per-tenant, per-minute totals
 * (a) in a plain run, (b) with a TaskManager killed at 5 random moments, (c) after stop-with-savepoint and restores at
 * parallelism 1, 3, 8 and 32, (d) after adaptive rescales mid-run. The unit test runs the same code on 400,000 events.
 *
 * Run: `npx tsx engine/bench/local-checkpoint-proof.ts [--events N] [--rate R] [--only abcd]`. Exits 1 if any differs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_PROOF_CONFIG,
  expectedTotalsFor,
  proofAdaptiveRescale,
  proofPlain,
  proofSavepointRescales,
  proofTaskManagerKills,
  type ProofConfig,
  type ProofOutcome,
} from '../local/testing/exactly-once-harness.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const config: ProofConfig = {
    ...DEFAULT_PROOF_CONFIG,
    events: Number(option('--events') ?? 1_000_000),
    rate: Number(option('--rate') ?? 2000),
  };
  const only = option('--only') ?? 'abcd';
  console.log(`Exactly-once proofs: ${config.events.toLocaleString('en-US')} events at ${config.rate}/s, seed ${config.seed}, checkpoints every ${config.checkpointIntervalMs / 1000} s`);
  let t = performance.now();
  const expected = expectedTotalsFor(config);
  console.log(
    `oracle: ${expected.stats.records} requests (${expected.stats.completed} completed, ${expected.stats.abandoned} abandoned) in ${expected.cells.size} (tenant, minute) cells, ` +
      `${expected.stats.uncertain} late; ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const proofs: Array<[string, () => Promise<ProofOutcome>]> = [
    ['a', () => proofPlain(config, expected)],
    ['b', () => proofTaskManagerKills(config, expected, 5)],
    ['c', () => proofSavepointRescales(config, expected, [1, 3, 8, 32])],
    ['d', () => proofAdaptiveRescale(config, expected)],
  ];
  let failed = false;
  for (const [key, run] of proofs) {
    if (!only.includes(key)) continue;
    t = performance.now();
    const outcome = await run();
    const ok = outcome.comparison.ok && outcome.specProblems.length === 0;
    failed ||= !ok;
    console.log(`\n(${key}) ${outcome.name}: ${ok ? 'EQUAL to the oracle' : 'DIFFERS'} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    console.log(`    ${outcome.comparison.report(5).split('\n').join('\n    ')}`);
    console.log(`    upsert log: ${outcome.sinkLines} lines, ${outcome.sinkRows} answers`);
    for (const j of outcome.jobs) {
      console.log(`    job ${j.jobId.slice(0, 8)}: ${j.status}, parallelism ${j.parallelism.join('/')}, ${j.checkpoints} checkpoints, ${j.numRestarts} restarts, ${j.numRescales} rescales`);
    }
    for (const e of outcome.events) console.log(`    ${e}`);
    for (const p of outcome.specProblems.slice(0, 5)) console.log(`    spec: ${p}`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
