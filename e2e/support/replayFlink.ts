import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from './paths';

/** What `flink.sh record` wrote: real responses of a real cluster, by REST path. */
interface Manifest {
  flinkVersion: string;
  jobId: string;
  vertices: Array<{ id: string; name: string }>;
  files: Record<string, { path: string; status: number }>;
}

export interface ReplayFlink {
  url: string;
  version: string;
  jobId: string;
  vertices: Array<{ id: string; name: string }>;
  /** Ship strategies of the recorded plan's edges, in plan order (what the graph's edge labels must say). */
  shipStrategies: string[];
  /** While broken, every request answers 500 like a JobManager in trouble. */
  setBroken(broken: boolean): void;
  /** Answers the requests whose path (with query) matches with this status and Flink error body instead; null clears it. */
  setFault(fault: { path: RegExp; status: number; message: string } | null): void;
  /** Answers these paths (decoded, without query) with this content instead of a recording (a log, a thread dump). */
  setExtra(extra: Record<string, { status: number; contentType: string; body: string | Buffer }>): void;
  /** Paths asked for that have no recording (answered 404), for debugging a failing test. */
  misses: string[];
  close(): Promise<void>;
}

/**
 * `/a?get=x,y&agg=min` and `/a?agg=min&get=x%2Cy` are the same request; so are `/taskmanagers/127.0.0.1:1-ab` and
 * `/taskmanagers/127.0.0.1%3A1-ab` (the client encodes path parameters, the recorder did not).
 */
function requestKey(rawPath: string): string {
  const url = new URL(rawPath, 'http://replay');
  const pathname = decodeURIComponent(url.pathname);
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return params.length === 0 ? pathname : `${pathname}?${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/**
 * An aggregated-metrics request (`…/subtasks/metrics?get=…&agg=…`) the recording holds no exact answer to, answered
 * as Flink does from what it has: the recorded answer for the same vertex and aggregations, with the metrics asked
 * for that it knows (Flink leaves out a metric it has no value of). undefined when nothing recorded fits.
 */
function aggregatedSubset(responses: Map<string, { status: number; body: string }>, rawPath: string): { status: number; body: string } | undefined {
  const url = new URL(rawPath, 'http://replay');
  if (!url.pathname.endsWith('/subtasks/metrics') || !url.searchParams.has('get')) return undefined;
  const wanted = new Set(url.searchParams.get('get')!.split(','));
  const prefix = `${decodeURIComponent(url.pathname)}?agg=${url.searchParams.get('agg') ?? ''}&get=`;
  for (const [key, response] of responses) {
    if (!key.startsWith(prefix) || response.status !== 200) continue;
    const known = JSON.parse(response.body) as Array<{ id: string }>;
    if (!known.some((m) => wanted.has(m.id))) continue;
    return { status: 200, body: JSON.stringify(known.filter((m) => wanted.has(m.id))) };
  }
  return undefined;
}

/**
 * A request for a vertex's figures per subtask (`…/vertices/:vid/metrics?get=0.a,1.a,…`), answered as Flink does from
 * the figures the recording holds (recordings made since `flink.sh record` keeps them): those asked for that it has.
 * undefined when the recording has none (the replay then refuses it, as a proxy with a shorter request line would).
 */
function figuresSubset(responses: Map<string, { status: number; body: string }>, rawPath: string): { status: number; body: string } | undefined {
  const url = new URL(rawPath, 'http://replay');
  if (!/\/vertices\/[^/]+\/metrics$/.test(url.pathname) || !url.searchParams.has('get')) return undefined;
  const recorded = responses.get(decodeURIComponent(url.pathname));
  if (!recorded || recorded.status !== 200) return undefined;
  const wanted = new Set(url.searchParams.get('get')!.split(','));
  return { status: 200, body: JSON.stringify((JSON.parse(recorded.body) as Array<{ id: string }>).filter((m) => wanted.has(m.id))) };
}

/**
 * A loopback HTTP server that answers with the recorded responses of a real Flink (e2e/flink/recorded/<version>/),
 * so the web specs can walk every page without a running cluster.
 */
export async function startReplayFlink(version = '2.2.1'): Promise<ReplayFlink> {
  const dir = path.join(ROOT, 'e2e/flink/recorded', version);
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`No recorded Flink ${version} responses at ${path.relative(ROOT, dir)}: run \`bash e2e/flink/flink.sh record\` with a cluster up.`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const responses = new Map<string, { status: number; body: string }>();
  for (const [file, entry] of Object.entries(manifest.files)) {
    responses.set(requestKey(entry.path), { status: entry.status, body: readFileSync(path.join(dir, file), 'utf8') });
  }

  const planFile = Object.entries(manifest.files).find(([, entry]) => entry.path.endsWith('/plan'))?.[0];
  const plan = planFile
    ? (JSON.parse(readFileSync(path.join(dir, planFile), 'utf8')) as {
        plan: { nodes: Array<{ inputs?: Array<{ ship_strategy: string }> }> };
      })
    : { plan: { nodes: [] } };
  const shipStrategies = plan.plan.nodes.flatMap((node) => (node.inputs ?? []).map((input) => input.ship_strategy));

  let broken = false;
  let fault: { path: RegExp; status: number; message: string } | null = null;
  let extra: Record<string, { status: number; contentType: string; body: string | Buffer }> = {};
  const misses: string[] = [];
  const server: Server = createServer((req, res) => {
    const key = requestKey(req.url ?? '/');
    const send = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(body);
    };
    if (broken) return send(500, JSON.stringify({ errors: ['Internal server error.', 'replay: broken on purpose'] }));
    if (fault?.path.test(req.url ?? '')) return send(fault.status, JSON.stringify({ errors: [fault.message] }));
    const added = extra[key];
    if (added) {
      res.writeHead(added.status, { 'content-type': added.contentType });
      return void res.end(added.body);
    }
    const recorded = responses.get(key) ?? aggregatedSubset(responses, req.url ?? '/') ?? figuresSubset(responses, req.url ?? '/');
    if (recorded) return send(recorded.status, recorded.body);
    misses.push(key);
    return send(404, JSON.stringify({ errors: ['Not found: ' + key] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    version: manifest.flinkVersion,
    jobId: manifest.jobId,
    vertices: manifest.vertices,
    shipStrategies,
    setBroken: (value) => {
      broken = value;
    },
    setFault: (value) => {
      fault = value;
    },
    setExtra: (value) => {
      extra = value;
    },
    misses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
