import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { checkMetricsStore, parseGoDuration } from './prometheus-check.ts';
import { RECORDED_DIR, startReplayPrometheus } from './testing/replay-prometheus.ts';

const manifest = JSON.parse(readFileSync(path.join(RECORDED_DIR, 'manifest.json'), 'utf8')) as { jobId: string; window: { end: number } };
const JOB = manifest.jobId;
const OTHER = 'e'.repeat(32);
const now = () => manifest.window.end * 1000;

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function replay(options: Parameters<typeof startReplayPrometheus>[0] = {}) {
  const server = await startReplayPrometheus(options);
  servers.push(server);
  return { server, client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: 5_000 }) };
}

describe('checkMetricsStore', () => {
  it('a real Prometheus scraping the cluster: reachable with its version, the job\'s series, the targets\' interval', async () => {
    const { server, client } = await replay();
    const check = await checkMetricsStore(client, [JOB], now);
    expect(check).toEqual({
      reachable: true,
      version: '2.42.0+ds',
      jobsWithSeries: [JOB],
      jobsWithoutSeries: [],
      scrapeIntervalMs: 5_000,
      scrapeIntervalFrom: 'targets',
      findings: [`${server.url} answers as a Prometheus query API, version 2.42.0+ds.`, "It holds task series of the cluster's current job.", "It scrapes this cluster's TaskManagers every 5 s."],
    });
  });

  it('says which current jobs it holds no series of', async () => {
    const { client } = await replay();
    const check = await checkMetricsStore(client, [JOB, OTHER], now);
    expect(check.jobsWithoutSeries).toEqual([OTHER]);
    expect(check.findings[1]).toBe(`It holds task series of 1 of the cluster's 2 current jobs, none of ${OTHER}: their TaskManagers may not be scraped.`);
    const none = await checkMetricsStore(client, [OTHER], now);
    expect(none.findings.slice(1)).toEqual([
      "It holds no task series of the cluster's current job: is Flink's PrometheusReporter configured on the TaskManagers (metrics.reporter.prom.factory.class), and does this store scrape them?",
      'Its scrape interval is not known: there is no series of this cluster to measure it by.',
    ]);
  });

  it('a store without targets or build information (Thanos, Mimir): reachable by a query, the interval from the samples\' spacing', async () => {
    const { client } = await replay();
    const bare = await startHostileServer((req, res) => {
      if (req.url?.startsWith('/api/v1/status/buildinfo') || req.url?.startsWith('/api/v1/targets')) return json(res, 404, { status: 'error', errorType: 'not_found', error: 'not found' });
      // Everything else as the real one answered.
      fetch(`${client.baseUrl}${req.url}`).then(async (answer) => json(res, answer.status, await answer.json()), () => json(res, 502, {}));
    });
    servers.push(bare);
    const check = await checkMetricsStore(new FlinkRestClient({ baseUrl: bare.url, timeoutMs: 5_000 }), [JOB], now);
    expect(check).toMatchObject({ reachable: true, version: null, scrapeIntervalMs: 5_000, scrapeIntervalFrom: 'samples' });
    expect(check.findings).toEqual([
      `${bare.url} answers as a Prometheus query API (it does not say which version).`,
      "It holds task series of the cluster's current job.",
      "It scrapes this cluster's TaskManagers about every 5 s (the spacing of its samples: it lists no targets of this cluster).",
    ]);
  });

  it('no current job: the series are not looked for', async () => {
    const { server, client } = await replay();
    const check = await checkMetricsStore(client, [], now);
    expect(check.findings.slice(1)).toEqual(['No job runs on the cluster now: whether the store holds its series is checked once one does.', 'Its scrape interval is not known: there is no series of this cluster to measure it by.']);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/status/buildinfo']);
  });

  it('unreachable: one sentence in the store\'s words, and nothing else checked', async () => {
    const { server } = await replay();
    const url = server.url;
    await server.close();
    servers.splice(0);
    const check = await checkMetricsStore(new FlinkRestClient({ baseUrl: url, timeoutMs: 2_000 }), [JOB], now);
    expect(check.reachable).toBe(false);
    expect(check.findings).toEqual([`Connection refused by ${url}: nothing listens there. Is the metrics store running, and is this its query API's URL (Prometheus: http://host:9090)?`]);
  });

  it('a web page or another JSON API is not a query API, said as such', async () => {
    const html = await startHostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Grafana</html>');
    });
    servers.push(html);
    const check = await checkMetricsStore(new FlinkRestClient({ baseUrl: html.url }), [JOB], now);
    expect(check.findings).toEqual([`${html.url} answered GET /api/v1/status/buildinfo with an HTML page, not the Prometheus HTTP API: is this the query API's URL (Mimir: …/prometheus)?`]);
  });

  it('a step that fails is its finding, and the next step still runs', async () => {
    const { client } = await replay({ alter: (req, _body, res) => (req.query.get('query')?.startsWith('count by') ? (json(res, 422, { status: 'error', errorType: 'execution', error: 'query processing would load too many samples' }), true) : false) });
    const check = await checkMetricsStore(client, [JOB], now);
    expect(check.findings.slice(1)).toEqual([
      `${client.baseUrl} answered 422 to GET /api/v1/query: query processing would load too many samples`,
      'Its scrape interval is not known: there is no series of this cluster to measure it by.',
    ]);
  });

  it('reads Go durations as Prometheus writes scrape intervals', () => {
    expect(['15s', '1m30s', '500ms', '1h', '2.5s'].map(parseGoDuration)).toEqual([15_000, 90_000, 500, 3_600_000, 2_500]);
    expect(['', '15', 's', '-5s', '5 s'].map(parseGoDuration)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
