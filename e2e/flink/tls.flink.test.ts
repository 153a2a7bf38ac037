import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFlinkCluster } from '../../engine/clusters/cluster-check.ts';
import { createClient } from '../../engine/clusters/cluster-connections.ts';
import { endpoints } from '../../engine/flink-rest/endpoints.ts';
import { EngineError } from '../../engine/flink-rest/errors.ts';
import { flinkVersion } from '../support/flinkCluster.ts';
import { ROOT } from '../support/paths.ts';

/**
 * Attaching over https to a real JobManager with REST SSL on (`security.ssl.rest.enabled`), its certificate signed
 * by a self-signed test CA (engine/flink-rest/testdata). `security.ssl.algorithms` is left at the version's default:
 * ECDHE-only suites from 2.2 on (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, ..._256_GCM_SHA384, read in 2.2.1's and
 * 2.3.0's SecurityOptions), which the console's client must negotiate. A JobManager of its own (no TaskManagers) from the distribution `flink.sh up` installed, on
 * free ports, its files in the OS temp dir; stopped after.
 */
const version = flinkVersion();
const FLINK_HOME = path.join(ROOT, '.cache/flink', version, 'py/pyflink');
const TESTDATA = path.join(ROOT, 'engine/flink-rest/testdata');
const CA_FILE = path.join(TESTDATA, 'ca.pem');
const PASSWORD = 'flink-ops-test';

let work: string;
let jobManager: ChildProcess | undefined;
let restPort: number;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The JVM options the distribution's own config.yaml gives (Java 17 needs its --add-opens). */
function distributionJavaOpts(): string {
  const config = readFileSync(path.join(FLINK_HOME, 'conf/config.yaml'), 'utf8');
  return /^\s*all:\s*(--add-.*)$/m.exec(config)?.[1] ?? '';
}

function jobManagerLog(): string {
  const dir = path.join(work, 'log');
  const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.log')) : undefined;
  return file ? readFileSync(path.join(dir, file), 'utf8').split('\n').slice(-25).join('\n') : '(no log)';
}

beforeAll(async () => {
  if (!existsSync(path.join(FLINK_HOME, 'bin/jobmanager.sh'))) {
    throw new Error(`The TLS test needs the Flink ${version} distribution in ${path.relative(ROOT, FLINK_HOME)}: run \`npm run flink:up -- --version ${version}\` first.`);
  }
  work = mkdtempSync(path.join(os.tmpdir(), 'flink-tls-'));
  // The server's key and certificate (and the CA that signed it) as the PKCS12 keystore Flink reads; the CA alone as
  // its truststore.
  const keystore = path.join(work, 'rest.keystore.p12');
  execFileSync('openssl', ['pkcs12', '-export', '-in', path.join(TESTDATA, 'server.pem'), '-inkey', path.join(TESTDATA, 'server.key'), '-certfile', CA_FILE, '-name', 'rest', '-out', keystore, '-passout', `pass:${PASSWORD}`]);
  const truststore = path.join(work, 'rest.truststore.p12');
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'ca', '-file', CA_FILE, '-keystore', truststore, '-storetype', 'PKCS12', '-storepass', PASSWORD], { stdio: 'ignore' });

  const conf = path.join(work, 'conf');
  mkdirSync(conf);
  for (const file of readdirSync(path.join(FLINK_HOME, 'conf'))) {
    if (file.startsWith('log4j') || file.startsWith('logback')) writeFileSync(path.join(conf, file), readFileSync(path.join(FLINK_HOME, 'conf', file)));
  }
  restPort = await freePort();
  const [rpcPort, blobPort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(conf, 'config.yaml'),
    [
      `env.java.opts.all: "${distributionJavaOpts()}"`,
      `env.log.dir: "${path.join(work, 'log')}"`,
      `env.pid.dir: "${path.join(work, 'pid')}"`,
      'jobmanager.rpc.address: 127.0.0.1',
      `jobmanager.rpc.port: ${rpcPort}`,
      'jobmanager.bind-host: 127.0.0.1',
      'jobmanager.memory.process.size: 800m',
      'rest.address: 127.0.0.1',
      'rest.bind-address: 127.0.0.1',
      `rest.port: ${restPort}`,
      `blob.server.port: "${blobPort}"`,
      `web.tmpdir: "${path.join(work, 'web')}"`,
      `io.tmp.dirs: "${path.join(work, 'io')}"`,
      `blob.storage.directory: "${path.join(work, 'blob')}"`,
      'metrics.internal.query-service.port: "0"',
      // REST over TLS; security.ssl.algorithms and security.ssl.protocol stay at the version's defaults.
      'security.ssl.rest.enabled: true',
      `security.ssl.rest.keystore: "${keystore}"`,
      `security.ssl.rest.keystore-password: "${PASSWORD}"`,
      `security.ssl.rest.key-password: "${PASSWORD}"`,
      `security.ssl.rest.truststore: "${truststore}"`,
      `security.ssl.rest.truststore-password: "${PASSWORD}"`,
      '',
    ].join('\n'),
  );
  // start-foreground execs the JVM: this child is the JobManager process itself.
  jobManager = spawn('bash', [path.join(FLINK_HOME, 'bin/jobmanager.sh'), 'start-foreground'], {
    env: { ...process.env, FLINK_CONF_DIR: conf, FLINK_HOME },
    stdio: 'ignore',
  });
  let exited: number | null | undefined;
  jobManager.once('exit', (code) => (exited = code));
  const client = trustingClient();
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`The TLS JobManager exited (${exited}) during startup:\n${jobManagerLog()}`);
    try {
      await client.request(endpoints.config);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`The TLS JobManager did not answer on https://127.0.0.1:${restPort} within 120 s:\n${jobManagerLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}, 150_000);

afterAll(async () => {
  const child = jobManager;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const killAfter = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killAfter);
  }
  if (work) rmSync(work, { recursive: true, force: true });
}, 30_000);

/** The console's client for the cluster, as a cluster saved with its CA file (or without one) makes it. */
function consoleClient(caFile: string | undefined) {
  return createClient({ name: 'tls', url: `https://127.0.0.1:${restPort}`, auth: { kind: 'none' }, caFile, timeoutMs: 5_000 }, undefined);
}
const trustingClient = () => consoleClient(CA_FILE);

/** A TLS handshake with the JobManager's REST port: the protocol and suite agreed, or the handshake's error. */
async function handshake(options: tls.ConnectionOptions): Promise<{ protocol: string | null; cipher: string } | Error> {
  const socket = tls.connect({ host: '127.0.0.1', port: restPort, ca: readFileSync(CA_FILE), servername: 'localhost', ...options });
  try {
    return await new Promise((resolve) => {
      socket.once('secureConnect', () => resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().name }));
      socket.once('error', resolve);
    });
  } finally {
    socket.destroy();
  }
}

describe(`https to a real Flink ${version} JobManager with REST SSL on`, () => {
  it('attaches with the cluster\'s CA: the same check as adding a cluster, the version read over TLS', async () => {
    const check = await checkFlinkCluster(trustingClient());
    expect(check).toMatchObject({ flinkVersion: version, versionSupported: true });
  });

  it('without the CA, refuses the cluster, saying its certificate is not trusted', async () => {
    const failure = await consoleClient(undefined).request(endpoints.config).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).info).toMatchObject({ kind: 'tls', message: expect.stringMatching(/not trusted/) });
  });

  it('the handshake a JobManager held to 2.3\'s default suites makes: TLS 1.2 with ECDHE only, offered by the console', async () => {
    // Flink 2.2+ defaults `security.ssl.algorithms` to these two (1.20: TLS_RSA_WITH_AES_128_CBC_SHA). Its REST server
    // applies `security.ssl.protocol` and the algorithms only with mutual TLS (SSLUtils.createRestNettySSLContext sets
    // them where it sets the truststore), so without it the JDK's defaults answer, TLS 1.3 first. A client held to
    // TLS 1.2 and to exactly these suites is what a JobManager enforcing them sees: it must still attach, and the
    // console's client offers both among Node's defaults.
    const ecdheOnly = ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384'];
    for (const suite of ecdheOnly) expect(tls.DEFAULT_CIPHERS.split(':')).toContain(suite);
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: ecdheOnly.join(':') })).toEqual({ protocol: 'TLSv1.2', cipher: expect.stringMatching(/^ECDHE-RSA-AES(128|256)-GCM-SHA(256|384)$/) });
    expect(await handshake({})).toMatchObject({ protocol: expect.stringMatching(/^TLSv1\.[23]$/) });
  });
});
