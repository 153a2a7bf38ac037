/**
 * `prometheus.sh up|down|status`: the Prometheus of the manual runs, in `.cache/prometheus/` (see README.md here).
 * Prints the URL on stdout (`up`), progress and errors on stderr as one line.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/paths';
import {
  answersReady,
  DEFAULT_PROMETHEUS_DIR,
  isOurPrometheus,
  type PrometheusFacts,
  startPrometheus,
  stopPrometheusPid,
} from './prometheus-process';

const FACTS = path.join(DEFAULT_PROMETHEUS_DIR, 'prometheus.json');
const CONFIG = path.join(DEFAULT_PROMETHEUS_DIR, 'prometheus.yml');

function log(message: string): void {
  process.stderr.write(`[prometheus.sh] ${message}\n`);
}

function parseArgs(argv: string[]): { command: string; targets?: string[]; scrapeIntervalS: number; flinkVersion: string } {
  const [command = '', ...rest] = argv;
  let targets: string[] | undefined;
  let scrapeIntervalS = 5;
  let flinkVersion = process.env.FLINK_VERSION ?? '2.3.0';
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2);
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--targets') targets = value().split(',').map((t) => t.trim()).filter(Boolean);
    else if (flag === '--scrape-interval') {
      const text = value();
      const match = /^(\d+)s?$/.exec(text);
      if (!match) throw new Error(`bad --scrape-interval '${text}' (expected seconds, e.g. 5s)`);
      scrapeIntervalS = Number(match[1]);
    } else if (flag === '--flink-version') flinkVersion = value();
    else throw new Error(`unknown argument '${rest[i]}'`);
  }
  return { command, targets, scrapeIntervalS, flinkVersion };
}

/** The reporter endpoints `flink.sh up --prometheus` recorded. */
function targetsOfFlink(version: string): string[] {
  const file = path.join(ROOT, '.cache/flink', version, 'cluster.json');
  if (!existsSync(file)) throw new Error(`no --targets and no ${path.relative(ROOT, file)}: run flink.sh up --prometheus first`);
  const cluster = JSON.parse(readFileSync(file, 'utf8')) as { prometheus?: { targets?: string[] } };
  const targets = cluster.prometheus?.targets;
  if (!targets?.length) throw new Error(`${path.relative(ROOT, file)} has no reporter endpoints: run flink.sh up --version ${version} --prometheus`);
  return targets;
}

function readFacts(): PrometheusFacts | undefined {
  if (!existsSync(FACTS)) return undefined;
  try {
    return JSON.parse(readFileSync(FACTS, 'utf8')) as PrometheusFacts;
  } catch {
    return undefined;
  }
}

async function up(targets: string[], scrapeIntervalS: number): Promise<void> {
  const facts = readFacts();
  if (facts && isOurPrometheus(facts.pid, CONFIG)) {
    const same = facts.scrapeIntervalS === scrapeIntervalS && [...facts.targets].sort().join(',') === [...targets].sort().join(',');
    if (same && (await answersReady(facts.url))) {
      log(`re-using Prometheus at ${facts.url} (pid ${facts.pid})`);
      process.stdout.write(`${facts.url}\n`);
      return;
    }
    log(`restarting Prometheus (pid ${facts.pid}) for targets ${targets.join(',')} every ${scrapeIntervalS}s`);
    await stopPrometheusPid(facts.pid, CONFIG);
  }
  const running = await startPrometheus(targets, scrapeIntervalS, { dir: DEFAULT_PROMETHEUS_DIR });
  const written: PrometheusFacts = {
    url: running.url,
    pid: running.pid,
    targets,
    scrapeIntervalS,
    dir: running.dir,
    configFile: CONFIG,
  };
  writeFileSync(FACTS, `${JSON.stringify(written, null, 2)}\n`);
  log(`Prometheus ready at ${running.url} (pid ${running.pid}), scraping ${targets.join(',')} every ${scrapeIntervalS}s`);
  process.stdout.write(`${running.url}\n`);
}

async function down(): Promise<void> {
  const facts = readFacts();
  rmSync(FACTS, { force: true });
  if (!facts) {
    log('nothing to stop');
    return;
  }
  log((await stopPrometheusPid(facts.pid, CONFIG)) ? `stopped Prometheus (pid ${facts.pid})` : `Prometheus (pid ${facts.pid}) was not running`);
}

async function status(): Promise<void> {
  const facts = readFacts();
  if (!facts) throw new Error(`Prometheus is not up (no ${path.relative(ROOT, FACTS)})`);
  if (!isOurPrometheus(facts.pid, CONFIG) || !(await answersReady(facts.url))) throw new Error(`Prometheus not ready at ${facts.url}`);
  process.stdout.write(`${JSON.stringify(facts, null, 2)}\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.command === 'up') await up(args.targets ?? targetsOfFlink(args.flinkVersion), args.scrapeIntervalS);
  else if (args.command === 'down') await down();
  else if (args.command === 'status') await status();
  else throw new Error('usage: prometheus.sh up|down|status [--targets host:port,...] [--scrape-interval 5s] [--flink-version V]');
}

main().catch((error: unknown) => {
  process.stderr.write(`prometheus.sh: ERROR: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
