import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.ts';
import { LocalCluster } from '../runtime/cluster.ts';
import { buildJobGraph } from '../runtime/job-graph.ts';
import { parseEvent, type GatewayEvent, type TenantCost } from './events.ts';
import { GatewayEventReader, meanEventsPerRequest, requestsPerSecond, tenantWeightsAt, type GeneratorConfig } from './generator.ts';
import { ABANDON_AFTER_MS, gatewayMeterJob, gatewayMeterSaltedJob, saltedKey, WINDOW_MS } from './pipelines.ts';
import { requestCostNanoUsd } from './prices.ts';
import { NdjsonUpsertLog, readUpsertLog, ResultStore, TenantCostSink, upsertKey } from './sinks.ts';

const T0 = 1_700_000_040_000;

const MIX: Pick<GeneratorConfig, 'tenants' | 'models'> = {
  tenants: { acme: 7, globex: 20, initech: 15, umbrella: 30, hooli: 28 },
  models: { 'model-a': 1, 'model-b': 2 },
};

/** Every event a config produces, read straight from the generator (as the source would). */
function allEvents(config: GeneratorConfig, parallelism: number): Array<{ line: string; ts: number }> {
  const out: Array<{ line: string; ts: number }> = [];
  for (let s = 0; s < parallelism; s++) {
    const reader = new GatewayEventReader(config, { subtaskIndex: s, parallelism, startTime: T0, clock: new ManualClock(T0) });
    while (reader.pollNext(Number.POSITIVE_INFINITY, 10_000, (line, ts) => out.push({ line, ts })) !== 'END_OF_INPUT');
  }
  return out;
}

/** The exact answer, computed without the engine: every request's record, summed per (tenant, minute). */
function expectedCosts(events: GatewayEvent[]): Map<string, { nano: number; requests: number }> {
  const byRequest = new Map<string, { start?: GatewayEvent; end?: GatewayEvent }>();
  for (const e of events) {
    const r = byRequest.get(e.request_id) ?? {};
    if (e.event_type === 'RequestStarted') r.start = e;
    if (e.event_type === 'RequestCompleted') r.end = e;
    byRequest.set(e.request_id, r);
  }
  const out = new Map<string, { nano: number; requests: number }>();
  for (const { start, end } of byRequest.values()) {
    if (!start) continue; // completion without start: dropped
    const ts = end ? end.ts : start.ts + ABANDON_AFTER_MS;
    const windowStart = ts - (ts % WINDOW_MS);
    const nano = requestCostNanoUsd({
      model: start.model,
      prompt_tokens: start.payload.prompt_tokens ?? 0,
      completion_tokens: end ? (end.payload.completion_tokens ?? 0) : 0,
    });
    const key = `${start.tenant_id}|${windowStart}`;
    const acc = out.get(key) ?? { nano: 0, requests: 0 };
    acc.nano += nano;
    acc.requests++;
    out.set(key, acc);
  }
  return out;
}

function toExpectedRows(expected: Map<string, { nano: number; requests: number }>): Record<string, { usd: number; requests: number }> {
  return Object.fromEntries([...expected].map(([k, v]) => [k, { usd: v.nano / 1e9, requests: v.requests }]));
}

function toActualRows(rows: Iterable<TenantCost>): Record<string, { usd: number; requests: number }> {
  return Object.fromEntries([...rows].map((r) => [upsertKey(r), { usd: r.usd, requests: r.requests }]));
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the GatewayMeter generator', () => {
  it('is deterministic from its seed', () => {
    const config: GeneratorConfig = { seed: 7, rate: 2000, events: 3000, ...MIX };
    expect(allEvents(config, 2)).toEqual(allEvents(config, 2));
    expect(allEvents({ ...config, seed: 8 }, 2)).not.toEqual(allEvents(config, 2));
  });

  it('produces exactly --events events, valid and in order within each request', () => {
    const events = allEvents({ seed: 1, rate: 5000, events: 10_001, ...MIX }, 3);
    expect(events).toHaveLength(10_001);
    const parsed = events.map((e) => parseEvent(e.line)!);
    expect(parsed.every((e) => e !== undefined)).toBe(true);
    expect(parsed.every((e, i) => e.ts === events[i].ts)).toBe(true);
    const lastTs = new Map<string, number>();
    for (const e of parsed) {
      expect(e.ts).toBeGreaterThanOrEqual(lastTs.get(e.request_id) ?? 0);
      lastTs.set(e.request_id, e.ts);
    }
  });

  it('starts requests at rate / mean events per request, with the configured tenant mix', () => {
    const config: GeneratorConfig = { seed: 3, rate: 6500, ...MIX, abandonFraction: 0, orphanFraction: 0 };
    expect(meanEventsPerRequest(config)).toBeCloseTo(6.5, 10);
    expect(requestsPerSecond(config)).toBeCloseTo(1000, 10);
    const reader = new GatewayEventReader(config, { subtaskIndex: 0, parallelism: 1, startTime: T0, clock: new ManualClock(T0) });
    const starts = new Map<string, number>();
    let total = 0;
    reader.pollNext(T0 + 60_000, 1_000_000, (line) => {
      total++;
      const e = parseEvent(line)!;
      if (e.event_type === 'RequestStarted') starts.set(e.tenant_id, (starts.get(e.tenant_id) ?? 0) + 1);
    });
    const startCount = [...starts.values()].reduce((a, b) => a + b, 0);
    // Starts of the last second may still be in flight (emitted up to 1 s after their event time).
    expect(startCount).toBeGreaterThan(59_000);
    expect(startCount).toBeLessThanOrEqual(60_001);
    expect(starts.get('acme')! / startCount).toBeCloseTo(0.07, 2);
    expect(total / 60).toBeGreaterThan(6300);
  });

  it('applies a scenario phase: a tenant moves to a share of all traffic, the rest keep their proportions', () => {
    const config: GeneratorConfig = { seed: 1, rate: 100, ...MIX, phases: [{ atMs: 30_000, share: { acme: 0.4 } }] };
    expect(tenantWeightsAt(config, 29_999)).toEqual(MIX.tenants);
    const after = tenantWeightsAt(config, 30_000);
    expect(after.acme).toBeCloseTo(0.4, 10);
    expect(after.globex / after.hooli).toBeCloseTo(20 / 28, 10);
    expect(Object.values(after).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });
});

describe('gatewaymeter pipelines', () => {
  it('builds the documented job graph: uids, chains and keyBy edges', () => {
    const graph = gatewayMeterJob({ parallelism: 2, generator: { seed: 1, rate: 10, ...MIX }, sink: new TenantCostSink(new ResultStore()) });
    const jg = buildJobGraph(graph);
    expect(jg.vertices.map((v) => v.name)).toEqual(['Source: gateway-events -> parse', 'assemble', 'tenant-cost -> Sink: usd-sink']);
    expect(jg.edges.map((e) => e.shipStrategy)).toEqual(['HASH', 'HASH']);
    expect(graph.nodes.map((n) => n.uid)).toEqual(['gateway-events', 'parse', 'assemble', 'tenant-cost', 'usd-sink']);
    const salted = buildJobGraph(gatewayMeterSaltedJob({ parallelism: 2, generator: { seed: 1, rate: 10, ...MIX }, sink: new TenantCostSink(new ResultStore()) }));
    expect(salted.vertices.map((v) => v.name)).toEqual([
      'Source: gateway-events -> parse',
      'assemble',
      'tenant-cost-partial -> late-parts',
      'tenant-cost -> Sink: usd-sink',
    ]);
  });

  it('computes USD per tenant and minute exactly, incl. abandoned requests, and finishes when the bounded source ends', () => {
    const config: GeneratorConfig = { seed: 11, rate: 3000, events: 60_000, ...MIX, lateFraction: 0, abandonFraction: 0.01, orphanFraction: 0.01 };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gm-'));
    dirs.push(dir);
    const store = new ResultStore();
    const log = new NdjsonUpsertLog(dir, 'gatewaymeter');
    const cluster = new LocalCluster({ clock: new ManualClock(T0) });
    const job = cluster.submitJob(gatewayMeterJob({ parallelism: 3, generator: config, sink: new TenantCostSink(store, log) }));
    expect(cluster.advanceUntil(() => job.status === 'FINISHED', 120_000)).toBe(true);

    const expected = expectedCosts(allEvents(config, 3).map((e) => parseEvent(e.line)!));
    expect(toActualRows(store.latest.values())).toEqual(toExpectedRows(expected));
    // Every window fired exactly once (no late data): the log has one line per key, equal to the store.
    expect(readFileSync(log.file, 'utf8').trim().split('\n')).toHaveLength(store.latest.size);
    expect(toActualRows(readUpsertLog(log.file).values())).toEqual(toActualRows(store.latest.values()));

    const assemble = job.vertices[1];
    const counter = (name: string) => assemble.tasks.reduce((s, t) => s + (t.handles[0].metrics.counters.get(name)?.count ?? 0), 0);
    expect(counter('completionsWithoutStart')).toBeGreaterThan(0);
    expect(counter('abandonedRequests')).toBeGreaterThan(0);
  });

  it('salted and plain pipelines agree; with late data the salted one still gets the exact answer', () => {
    const config: GeneratorConfig = {
      seed: 5,
      rate: 500,
      events: 100_000,
      ...MIX,
      lateFraction: 0.02,
      lateDelayMs: [20_000, 90_000],
    };
    const truth = toExpectedRows(expectedCosts(allEvents(config, 2).map((e) => parseEvent(e.line)!)));

    const plainStore = new ResultStore();
    const c1 = new LocalCluster({ clock: new ManualClock(T0) });
    const plain = c1.submitJob(gatewayMeterJob({ parallelism: 2, generator: config, sink: new TenantCostSink(plainStore) }));
    expect(c1.advanceUntil(() => plain.status === 'FINISHED', 300_000)).toBe(true);
    const dropped = plain.vertices[2].tasks.reduce((s, t) => s + (t.handles[0].metrics.counters.get('numLateRecordsDropped')?.count ?? 0), 0);
    const plainRequests = plainStore.rows().reduce((s, r) => s + r.requests, 0);
    const truthRequests = Object.values(truth).reduce((s, r) => s + r.requests, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(plainRequests + dropped).toBe(truthRequests);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'gms-'));
    dirs.push(dir);
    const saltedStore = new ResultStore();
    const log = new NdjsonUpsertLog(dir, 'gatewaymeter-salted');
    const c2 = new LocalCluster({ clock: new ManualClock(T0) });
    const salted = c2.submitJob(gatewayMeterSaltedJob({ parallelism: 2, generator: config, sink: new TenantCostSink(saltedStore, log) }));
    expect(c2.advanceUntil(() => salted.status === 'FINISHED', 300_000)).toBe(true);
    const fromLog = toActualRows(readUpsertLog(log.file).values());
    for (const key of Object.keys(truth)) {
      expect(fromLog[key]?.requests, key).toBe(truth[key].requests);
      expect(fromLog[key]?.usd, key).toBeCloseTo(truth[key].usd, 9);
    }
    // Late parts re-fired windows: the log holds more lines than keys.
    expect(readFileSync(log.file, 'utf8').trim().split('\n').length).toBeGreaterThan(Object.keys(truth).length);
  });

  it('salts request ids into 8 buckets per tenant (or the job\'s saltBuckets), by CRC32', () => {
    expect(saltedKey({ tenant_id: 'acme', request_id: '123456789' })).toBe(`acme#${0xcbf43926 % 8}`);
    expect(saltedKey({ tenant_id: 'acme', request_id: '123456789' }, 3)).toBe(`acme#${0xcbf43926 % 3}`);
  });
});
