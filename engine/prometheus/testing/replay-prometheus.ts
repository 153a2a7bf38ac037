import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { json, startHostileServer, type HostileServer } from '../../flink-rest/testdata/hostile-server.ts';

/** A recorded window: `2.3.0` (steady), `2.3.0-failover` (a TaskManager killed: attempts 0 and 1), `1.20.5`. */
export function recordedDir(recording = '2.3.0'): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../e2e/prometheus/recorded', recording);
}
export const RECORDED_DIR = recordedDir();

/** A recording's window (its manifest, times in ms) and the job's details as the JobManager answered them then. */
export interface RecordedWindow {
  jobId: string;
  from: number;
  to: number;
  stepMs: number;
  jobDetails: unknown;
}

export function recordedWindow(recording = '2.3.0'): RecordedWindow {
  const dir = recordedDir(recording);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { jobId: string; window: { start: number; end: number; stepS: number } };
  const jobDetails: unknown = JSON.parse(readFileSync(path.join(dir, 'flink-job.json'), 'utf8'));
  return { jobId: manifest.jobId, from: manifest.window.start * 1000, to: manifest.window.end * 1000, stepMs: manifest.window.stepS * 1000, jobDetails };
}
export const RECORDED_WINDOW = recordedWindow();

type RawSeries = { metric: Record<string, string>; values: Array<[number, string]> };

/** Every recorded range-query series, by metric name. */
export function recordedSeries(recording = '2.3.0'): RawSeries[] {
  const dir = path.join(recordedDir(recording), 'query_range');
  return readdirSync(dir).flatMap((file) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { data: { result: RawSeries[] } }).data.result);
}

export interface ReplayedRequest {
  path: string;
  query: URLSearchParams;
}

export interface ReplayPrometheus extends HostileServer {
  requests: ReplayedRequest[];
}

/**
 * The recorded answers of a real Prometheus (e2e/prometheus/recorded/2.3.0), served again for the console's own
 * selectors (`{__name__=~"prefix(a|b)", job_id="…"[, task_id="…"]}`), each range query cut to its `start`, `end` and
 * `step` on the recorded 5 s grid. `alter` lets a test break an answer (fault injection) after it is built.
 */
export async function startReplayPrometheus(
  options: { series?: RawSeries[]; alter?: (request: ReplayedRequest, body: { status: string; data: { resultType: string; result: RawSeries[] } }, res: ServerResponse) => boolean } = {},
): Promise<ReplayPrometheus> {
  const all = options.series ?? recordedSeries();
  const requests: ReplayedRequest[] = [];
  const server = await startHostileServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const request = { path: url.pathname, query: url.searchParams };
    requests.push(request);
    if (url.pathname === '/api/v1/status/buildinfo') return json(res, 200, JSON.parse(readFileSync(path.join(RECORDED_DIR, 'buildinfo.json'), 'utf8')));
    if (url.pathname === '/api/v1/targets') return json(res, 200, JSON.parse(readFileSync(path.join(RECORDED_DIR, 'targets.json'), 'utf8')));
    if (url.pathname === '/api/v1/query') return answerInstant(request, all, res, options.alter);
    if (url.pathname !== '/api/v1/query_range') return json(res, 404, { status: 'error', errorType: 'not_found', error: 'not replayed' });
    const selector = url.searchParams.get('query') ?? '';
    const names = /__name__=~"([a-z_]+)\(([A-Za-z|]+)\)"/.exec(selector);
    const matchers = [...selector.matchAll(/(job_id|task_id)="([0-9a-f]+)"/g)].map((m) => [m[1], m[2]] as const);
    const start = Number(url.searchParams.get('start'));
    const end = Number(url.searchParams.get('end'));
    const step = Number(url.searchParams.get('step'));
    if (!names || !(end >= start) || !(step > 0)) return json(res, 400, { status: 'error', errorType: 'bad_data', error: `cannot replay ${selector}` });
    const wanted = new Set(names[2].split('|').map((m) => `${names[1]}${m}`));
    const result = all
      .filter((s) => wanted.has(s.metric.__name__) && matchers.every(([label, value]) => s.metric[label] === value))
      .map((s) => ({ metric: s.metric, values: s.values.filter(([t]) => t >= start && t <= end && Math.abs(((t - start) / step) % 1) < 1e-9) }))
      .filter((s) => s.values.length > 0);
    const body = { status: 'success', data: { resultType: 'matrix', result } };
    if (options.alter?.(request, body, res)) return;
    json(res, 200, body);
  });
  return { ...server, requests };
}

type Alter = NonNullable<Parameters<typeof startReplayPrometheus>[0]>['alter'];

/**
 * The check's instant queries, from the same recordings: `count by (job_id, job, instance) (<name>{job_id=~"a|b"})` at
 * the window's end, and `<name>{job_id="…",subtask_index="0"}[Ns]` from the recorded raw samples.
 */
function answerInstant(request: ReplayedRequest, all: RawSeries[], res: ServerResponse, alter: Alter): void {
  const query = request.query.get('query') ?? '';
  const count = /^count by \(job_id, job, instance\) \(([a-zA-Z_]+)\{job_id=~"([0-9a-f|]+)"\}\)$/.exec(query);
  const raw = /^([a-zA-Z_]+)\{job_id="([0-9a-f]+)",subtask_index="0"\}\[\d+s\]$/.exec(query);
  let body;
  if (query === 'vector(1)') body = { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [Number(request.query.get('time')), '1'] }] } };
  else if (count) {
    const ids = new Set(count[2].split('|'));
    const groups = new Map<string, { metric: Record<string, string>; n: number }>();
    for (const s of all.filter((s) => s.metric.__name__ === count[1] && ids.has(s.metric.job_id))) {
      const metric = { job_id: s.metric.job_id, job: s.metric.job, instance: s.metric.instance };
      const key = JSON.stringify(metric);
      groups.set(key, { metric, n: (groups.get(key)?.n ?? 0) + 1 });
    }
    body = { status: 'success', data: { resultType: 'vector', result: [...groups.values()].map((g) => ({ metric: g.metric, value: [Number(request.query.get('time')), String(g.n)] })) } };
  } else if (raw) {
    const recorded = JSON.parse(readFileSync(path.join(RECORDED_DIR, 'raw', `${raw[1]}.json`), 'utf8')) as { data: { result: RawSeries[] } };
    body = { status: 'success', data: { resultType: 'matrix', result: recorded.data.result.filter((s) => s.metric.job_id === raw[2] && s.metric.subtask_index === '0') } };
  } else return json(res, 400, { status: 'error', errorType: 'bad_data', error: `cannot replay ${query}` });
  if (alter?.(request, body as never, res)) return;
  json(res, 200, body);
}
