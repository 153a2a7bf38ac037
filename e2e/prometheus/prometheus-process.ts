import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT } from '../support/paths';

/** Debian's package (`apt-get install prometheus`, 2.42); PROMETHEUS_BIN overrides it. */
export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';

/** Where `prometheus.sh` keeps its Prometheus (an ignored folder); a test passes a folder of its own. */
export const DEFAULT_PROMETHEUS_DIR = path.join(ROOT, '.cache/prometheus');

export interface PrometheusOptions {
  /** Config, storage (`data/`) and log of this Prometheus. Kept across restarts: the samples before a stop stay. */
  dir?: string;
  /** 127.0.0.1 port of the web API; a free one when not given. A restart keeps the port, so the URL stays. */
  port?: number;
  /** How long to wait for `/-/ready`. */
  readyTimeoutMs?: number;
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  pid: number;
  dir: string;
  targets: string[];
  scrapeIntervalS: number;
  /** Stops this process (SIGTERM, then SIGKILL after 10 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and storage (a "Prometheus down mid-window" test stops, then restarts). */
  restart(): Promise<RunningPrometheus>;
}

/** What `prometheus.sh` writes to `<dir>/prometheus.json`. */
export interface PrometheusFacts {
  url: string;
  pid: number;
  targets: string[];
  scrapeIntervalS: number;
  dir: string;
  configFile: string;
}

const TARGET = /^(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/** The scrape config: one job, the Flink reporters, scraped every `scrapeIntervalS`. */
export function scrapeConfig(targets: string[], scrapeIntervalS: number): string {
  for (const target of targets) {
    if (!TARGET.test(target)) throw new Error(`Prometheus target "${target}" is not a loopback host:port`);
  }
  if (!Number.isInteger(scrapeIntervalS) || scrapeIntervalS < 1) {
    throw new Error(`scrape interval must be a whole number of seconds >= 1, not ${scrapeIntervalS}`);
  }
  return [
    '# written by e2e/prometheus/prometheus-process.ts -- do not edit',
    'global:',
    `  scrape_interval: ${scrapeIntervalS}s`,
    // a scrape may take at most the interval (Prometheus refuses a timeout above it)
    `  scrape_timeout: ${scrapeIntervalS}s`,
    'scrape_configs:',
    '  - job_name: flink',
    '    static_configs:',
    `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`,
    '',
  ].join('\n');
}

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Prometheus on 127.0.0.1 scraping `targets` (host:port of Flink's PrometheusReporter endpoints, as
 * `cluster.json` lists them) and resolves once it answers `/-/ready`. The process is detached (it outlives a CLI
 * that started it); `stop()` ends exactly this pid.
 */
export async function startPrometheus(
  targets: string[],
  scrapeIntervalS: number,
  options: PrometheusOptions = {},
): Promise<RunningPrometheus> {
  if (!existsSync(PROMETHEUS_BIN)) {
    throw new Error(`${PROMETHEUS_BIN} is missing: install Debian's prometheus (apt-get install -y prometheus)`);
  }
  const dir = path.resolve(options.dir ?? DEFAULT_PROMETHEUS_DIR);
  const port = options.port ?? (await freeLoopbackPort());
  const configFile = path.join(dir, 'prometheus.yml');
  const logFile = path.join(dir, 'prometheus.log');
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  writeFileSync(configFile, scrapeConfig(targets, scrapeIntervalS));
  const url = `http://127.0.0.1:${port}`;

  const log = openSync(logFile, 'a');
  const child = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // the tests' windows are minutes; keep a day so that restarts keep the earlier samples
      '--storage.tsdb.retention.time=1d',
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${PROMETHEUS_BIN}`);
  let exited: string | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
  });
  child.unref();

  const running: RunningPrometheus = {
    url,
    port,
    pid,
    dir,
    targets: [...targets],
    scrapeIntervalS,
    async stop() {
      if (exited) return;
      signal(pid, 'SIGTERM');
      const killer = setTimeout(() => {
        if (!exited) signal(pid, 'SIGKILL');
      }, 10_000);
      await exitedPromise;
      clearTimeout(killer);
    },
    async restart() {
      await running.stop();
      return startPrometheus(targets, scrapeIntervalS, { ...options, dir, port });
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      throw new Error(`Prometheus exited during startup (${exited}): ${lastLines(logFile)}`);
    }
    if (await answersReady(url)) return running;
    if (Date.now() > deadline) {
      await running.stop();
      throw new Error(`Prometheus not ready at ${url}/-/ready after ${options.readyTimeoutMs ?? 60_000} ms: ${lastLines(logFile)}`);
    }
    await Promise.race([exitedPromise, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
}

/** Signals `pid`, which may have exited on its own already (ESRCH). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export async function answersReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

function lastLines(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ').slice(0, 600);
  } catch {
    return '(no log)';
  }
}

/** True while `pid` is the Prometheus started with `configFile` (guards against a reused pid). */
export function isOurPrometheus(pid: number, configFile: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes(`--config.file=${configFile}`);
  } catch {
    return false;
  }
}

/** Stops the Prometheus an earlier process started (`prometheus.sh down`): only that pid, and only if it still is ours. */
export async function stopPrometheusPid(pid: number, configFile: string): Promise<boolean> {
  if (!isOurPrometheus(pid, configFile)) return false;
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isOurPrometheus(pid, configFile)) {
    if (Date.now() > deadline) {
      signal(pid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
