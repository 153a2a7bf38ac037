import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openClusterStore } from '../cli/data-dir.ts';
import { openHistoryStore } from '../cli/open-history-store.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import type { EngineApi } from '../contracts/engine-api.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { flinkBasics, json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { startLocalEngine, type LocalEngineHandle } from '../local/start-local-engine.ts';
import { ManualClock } from '../local/time/clock.ts';
import { startReplayPrometheus } from '../prometheus/testing/replay-prometheus.ts';
import { createEngine } from './create-engine.ts';
import { localEngineCluster } from './local-engine-cluster.ts';

let dataDir: string;
let server: HostileServer;
let authorizations: (string | undefined)[];

const newEngine = (secrets = new MemorySecretStore()): EngineApi =>
  createEngine({ clusterStore: openClusterStore(dataDir), secretStore: secrets, history: openHistoryStore(dataDir), mode: 'web', version: 'test' });

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-engine-'));
  authorizations = [];
  // Stands in for a cluster's front door only: the store and secret handling are under test here.
  server = await startHostileServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.url === '/jobs/overview') return json(res, 200, { jobs: [] });
    if (!flinkBasics(req, res)) json(res, 200, { taskmanagers: 2, 'slots-total': 4, 'slots-available': 1, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0, 'flink-version': '2.2.1' });
  });
});

afterEach(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('createEngine: saved clusters', () => {
  it('checks, saves and lists a cluster, and never writes its secret to disk', async () => {
    const engine = newEngine();
    const { cluster, check } = await engine.clusters.save({ name: 'prod', url: `${server.url}/`, auth: { kind: 'bearer', token: 'tok-SECRET-1' } });
    expect(check.flinkVersion).toBe('2.2.1');
    expect(cluster).toMatchObject({ name: 'prod', url: server.url, auth: { kind: 'bearer', hasSecret: true }, timeoutMs: 10_000 });
    expect(await engine.clusters.list()).toEqual([cluster]);
    const file = readFileSync(path.join(dataDir, 'config.json'), 'utf8');
    expect(file).toContain('"prod"');
    expect(file).not.toContain('tok-SECRET-1');
  });

  it('saves a metrics store beside the cluster: checked, its secret kept apart and never on disk; an unreachable one is not saved', async () => {
    const prometheus = await startReplayPrometheus();
    try {
      const engine = newEngine();
      const store = { url: `${prometheus.url}/`, auth: { kind: 'bearer' as const, token: 'prom-SECRET-2' } };
      const { cluster, check } = await engine.clusters.save({ name: 'prod', url: server.url, auth: { kind: 'bearer', token: 'tok-1' }, metricsStore: store });
      expect(check.metricsStore).toMatchObject({ reachable: true, usable: true, version: '2.42.0+ds' });
      expect(check.metricsStore!.findings[0]).toMatch(/answers as a Prometheus query API, version 2\.42\.0\+ds/);
      expect(cluster.metricsStore).toEqual({ url: prometheus.url, auth: { kind: 'bearer', hasSecret: true } });
      expect(await engine.clusters.list()).toEqual([cluster]);
      expect(readFileSync(path.join(dataDir, 'config.json'), 'utf8')).not.toContain('prom-SECRET-2');

      const unreachable = { ...store, url: 'http://127.0.0.1:1' };
      const error = await engine.clusters.save({ id: cluster.id, name: 'prod', url: server.url, auth: { kind: 'bearer' }, metricsStore: unreachable }).catch((e: unknown) => e);
      expect((error as EngineError).info.message).toMatch(/^Not saved: .*127\.0\.0\.1:1/);
      expect((await engine.clusters.list())[0].metricsStore?.url).toBe(prometheus.url);
      await expect(engine.clusters.check({ name: 'prod', url: server.url, auth: { kind: 'none' }, metricsStore: { url: 'http://prometheus:9090/?x', auth: { kind: 'none' } } })).rejects.toThrow(
        /^Metrics store: "http:\/\/prometheus:9090\/\?x" has a query or fragment: give the query API's base URL \(before \/api\/v1\) only\.$/,
      );
    } finally {
      await prometheus.close();
    }
  });

  it('does not save a cluster that fails the check', async () => {
    const engine = newEngine();
    const error = await engine.clusters.save({ name: 'x', url: 'http://127.0.0.1:1', auth: { kind: 'none' } }).catch((e: unknown) => e);
    expect((error as EngineError).info.kind).toBe('refused');
    expect(await engine.clusters.list()).toEqual([]);
  });

  it('refuses invalid input with the field named', async () => {
    const engine = newEngine();
    await expect(engine.clusters.save({ name: ' ', url: server.url, auth: { kind: 'none' } })).rejects.toThrow(/Cluster name: a name is required/);
    await expect(engine.clusters.save({ name: 'a', url: server.url, auth: { kind: 'none' }, timeoutMs: 5 })).rejects.toThrow(/at least 500 ms/);
  });

  it('keeps the stored secret when an edit leaves it blank', async () => {
    const engine = newEngine();
    const { cluster } = await engine.clusters.save({ name: 'prod', url: server.url, auth: { kind: 'basic', username: 'ops', password: 'pw1' } });
    await engine.clusters.save({ id: cluster.id, name: 'prod-eu', url: server.url, auth: { kind: 'basic', username: 'ops' } });
    authorizations = [];
    await engine.clusters.overview(cluster.id);
    expect(authorizations.at(-1)).toBe(`Basic ${Buffer.from('ops:pw1').toString('base64')}`);
    expect((await engine.clusters.list()).map((c) => c.name)).toEqual(['prod-eu']);
  });

  it('after a restart in web mode, asks for the secret again instead of calling without it', async () => {
    const { cluster } = await newEngine().clusters.save({ name: 'prod', url: server.url, auth: { kind: 'bearer', token: 't' } });
    const restarted = newEngine();
    expect((await restarted.clusters.list())[0].auth.hasSecret).toBe(false);
    await expect(restarted.clusters.overview(cluster.id)).rejects.toThrow(/No token for "prod" in this session: edit the cluster/);
  });

  it('reads the overview with the cluster\'s metrics fetch interval as the refresh floor', async () => {
    const engine = newEngine();
    const { cluster } = await engine.clusters.save({ name: 'p', url: server.url, auth: { kind: 'none' } });
    expect(await engine.clusters.overview(cluster.id)).toMatchObject({ taskManagers: 2, slotsTotal: 4, slotsAvailable: 1, minRefreshIntervalMs: 5000 });
  });

  it('removes a cluster and its secret', async () => {
    const secrets = new MemorySecretStore();
    const engine = newEngine(secrets);
    const { cluster } = await engine.clusters.save({ name: 'p', url: server.url, auth: { kind: 'bearer', token: 't' } });
    await engine.clusters.remove(cluster.id);
    expect(await engine.clusters.list()).toEqual([]);
    expect(secrets.get(cluster.id)).toBeUndefined();
    await expect(engine.clusters.overview(cluster.id)).rejects.toThrow(/No saved cluster/);
  });

  it('kills TaskManagers only on the bundled local engine, never on a saved cluster', async () => {
    const engine = newEngine();
    const { cluster } = await engine.clusters.save({ name: 'prod', url: server.url, auth: { kind: 'none' } });
    const requestsBefore = authorizations.length;
    await expect(engine.clusters.killTaskManager(cluster.id, 'tm-1')).rejects.toThrow(/Only the bundled local engine can kill a TaskManager/);
    expect(authorizations.length).toBe(requestsBefore);
  });

  it('refuses ids that are not Flink ids before calling the cluster', async () => {
    const engine = newEngine();
    const { cluster } = await engine.clusters.save({ name: 'p', url: server.url, auth: { kind: 'none' } });
    await expect(engine.jobs.graph(cluster.id, '../config')).rejects.toThrow(/not a Flink job id/);
    await expect(engine.jobs.exceptions(cluster.id, '../config')).rejects.toThrow(/not a Flink job id/);
  });
});

describe('createEngine: the bundled local engine', { timeout: 60_000 }, () => {
  let local: LocalEngineHandle | undefined;
  afterEach(async () => {
    await local?.close();
    local = undefined;
  });

  const withLocalEngine = async (options: Parameters<typeof startLocalEngine>[0]): Promise<EngineApi> => {
    const token = 'launch-token-kill-tests';
    local = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), token, ...options });
    local.engine.advance(2_000);
    return createEngine({
      clusterStore: openClusterStore(dataDir),
      secretStore: new MemorySecretStore(),
      history: openHistoryStore(dataDir),
      mode: 'web',
      version: 'test',
      builtInClusters: [localEngineCluster(local.url, token)],
    });
  };

  it('a kill says what the job\'s restart strategy does: without checkpoints (none), the job fails for good', async () => {
    const engine = await withLocalEngine({});
    const [job] = local!.engine.cluster.jobs.values();
    const victim = local!.engine.cluster.taskManagers.find((tm) => tm.slots.includes(job.jobId))!;
    const { message } = await engine.clusters.killTaskManager('local-engine', victim.id);
    expect(message).toMatch(new RegExp(`^TaskManager ${victim.id} killed\\. Job gatewaymeter \\(${job.jobId}\\) fails for good: its restart strategy is none \\(restart deactivated\\)\\. A new TaskManager registers at \\d\\d:\\d\\d:\\d\\d\\.$`));
    expect(message).not.toMatch(/failing over/);
    const history = await engine.jobs.exceptions('local-engine', job.jobId);
    expect(history.entries[0].message).toBe(`TaskManager with id ${victim.id} is no longer reachable.`);
  });

  it('with checkpoints (exponential-delay, as Flink 2.x without a strategy): it restarts, and says after about how long', async () => {
    const checkpointDir = mkdtempSync(path.join(tmpdir(), 'flink-ops-engine-ckpt-'));
    try {
      const engine = await withLocalEngine({ checkpointDir });
      const [job] = local!.engine.cluster.jobs.values();
      const victim = local!.engine.cluster.taskManagers.find((tm) => tm.slots.includes(job.jobId))!;
      const { message } = await engine.clusters.killTaskManager('local-engine', victim.id);
      expect(message).toContain(`Job gatewaymeter (${job.jobId}) restarts in about 1 s (exponential-delay: 1 s at first, ×1.5 per failure, at most 1 min).`);
      expect(job.status).toBe('RESTARTING');
    } finally {
      await local?.close();
      local = undefined;
      rmSync(checkpointDir, { recursive: true, force: true });
    }
  });
});

describe('createEngine: the bundled local engine as a built-in cluster', () => {
  it('reaches the engine with its per-launch token, which never goes to the secret store', async () => {
    const token = 'launch-token-0123456789abcdef';
    const handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), token });
    try {
      const stored: string[] = [];
      const secrets = new MemorySecretStore();
      const recording = { kind: secrets.kind, get: (id: string) => secrets.get(id), set: (id: string, s: string) => (stored.push(id), secrets.set(id, s)), delete: (id: string) => secrets.delete(id) };
      const engine = createEngine({ clusterStore: openClusterStore(dataDir), secretStore: recording, history: openHistoryStore(dataDir), mode: 'web', version: 'test', builtInClusters: [localEngineCluster(handle.url, token)] });
      expect(await engine.clusters.list()).toEqual([
        { id: 'local-engine', name: 'Local engine', url: handle.url, auth: { kind: 'bearer', hasSecret: true }, timeoutMs: 10_000, builtIn: true },
      ]);
      expect(await engine.clusters.overview('local-engine')).toMatchObject({ taskManagers: 4, flinkVersion: '2.2.1' });
      const [tm] = handle.engine.cluster.taskManagers;
      expect((await engine.clusters.killTaskManager('local-engine', tm.id)).message).toMatch(new RegExp(`^TaskManager ${tm.id} killed`));
      expect(handle.engine.cluster.taskManagers).toHaveLength(3);
      expect(stored).toEqual([]);
      expect(readFileSync(path.join(dataDir, 'config.json'), { encoding: 'utf8', flag: 'a+' })).not.toContain(token);
      // Without the token the engine answers nobody.
      expect((await fetch(`${handle.url}/overview`)).status).toBe(401);
    } finally {
      await handle.close();
    }
  });
});

describe('createEngine: Kafka settings', () => {
  it('refuses settings whose brokers cannot be reached (nothing saved), and answers null before any are saved', async () => {
    const engine = newEngine();
    const { cluster } = await engine.clusters.save({ name: 'prod', url: server.url, auth: { kind: 'none' } });
    expect(await engine.kafka.settings(cluster.id)).toBeNull();
    const refused = await engine.kafka.saveSettings(cluster.id, { bootstrapServers: '127.0.0.1:1', tls: false, sasl: { mechanism: 'plain', username: 'ops', password: 'pw-SECRET' }, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((refused as EngineError).info).toMatchObject({ kind: 'refused', message: expect.stringContaining('127.0.0.1:1') });
    expect(await engine.kafka.settings(cluster.id)).toBeNull();
    expect(readFileSync(path.join(dataDir, 'config.json'), 'utf8')).not.toContain('pw-SECRET');
    await expect(engine.kafka.consumerLag(cluster.id, { groupId: 'g' })).rejects.toThrow(/has no Kafka settings yet/);
    await expect(engine.kafka.saveSettings(cluster.id, { bootstrapServers: 'nope', tls: false, sasl: { mechanism: 'none' } })).rejects.toThrow(/"nope" is not host:port/);
    await expect(engine.kafka.settings('no-such-cluster')).rejects.toThrow(/No saved cluster/);
  }, 30_000);
});

describe('createEngine: the history', () => {
  it('answers from the store for a job it never recorded, and refuses bad arguments before reading', async () => {
    const engine = newEngine();
    const job = 'c'.repeat(32);
    expect(await engine.history.checkpoints('any', job)).toMatchObject({ checkpoints: [], flink: null, emptyReason: 'The console has no recording of this job.' });
    expect(await engine.history.recordedJob('any', job)).toBeNull();
    expect(await engine.history.recordedJobs('any')).toEqual([]);
    expect((await engine.history.metrics('any', job, 300_000)).vertices).toEqual([]);
    await expect(engine.history.checkpointDetail('any', job, 3, 1_000)).rejects.toMatchObject({ info: { kind: 'not-found' } });
    await expect(engine.history.checkpointDetail('any', job, -1, 1_000)).rejects.toThrow(/checkpoint id must be a whole number/);
    await expect(engine.history.metrics('any', job, 10)).rejects.toThrow(/window must be a whole number from 1000/);
    await expect(engine.history.checkpoints('any', 'nope')).rejects.toThrow(/not a Flink job id/);
  });
});
