import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../flink/eventually';
import { type RunningPrometheus, scrapeConfig, startPrometheus } from './prometheus-process';

// The real Prometheus of the Prometheus tests, scraping a target that serves one gauge as Flink's reporter would.
describe('startPrometheus (real /usr/bin/prometheus)', () => {
  let target: Server;
  let targetAddress: string;
  let dir: string;
  let prometheus: RunningPrometheus | undefined;

  beforeAll(async () => {
    target = createServer((_request, response) => {
      response.setHeader('Content-Type', 'text/plain; version=0.0.4');
      response.end('# TYPE flink_test_gauge gauge\nflink_test_gauge{job_id="abc",subtask_index="0",} 42.0\n');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const address = target.address();
    targetAddress = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    dir = mkdtempSync(path.join(tmpdir(), 'prometheus-process-'));
  });

  afterAll(async () => {
    await prometheus?.stop();
    target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function query(url: string, promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return body.data.result;
  }

  it('scrapes the targets it is given, on loopback, and keeps its samples across a restart on the same URL', async () => {
    prometheus = await startPrometheus([targetAddress], 1, { dir });
    expect(prometheus.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await eventually(async () => {
      const result = await query(prometheus!.url, 'flink_test_gauge');
      return result.length > 0 ? result[0] : undefined;
    }, 'the first scrape', 30_000);
    expect(first.metric).toMatchObject({ job_id: 'abc', subtask_index: '0', instance: targetAddress, job: 'flink' });
    expect(first.value[1]).toBe('42');

    const { pid, url } = prometheus;
    await prometheus.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${url}/-/ready`)).rejects.toThrow();

    prometheus = await prometheus.restart();
    expect(prometheus.url).toBe(url);
    expect(prometheus.pid).not.toBe(pid);
    // the samples scraped before the stop are still there
    const before = await query(prometheus.url, `count_over_time(flink_test_gauge[1h] @ ${Math.ceil(first.value[0])})`);
    expect(Number(before[0]?.value[1])).toBeGreaterThanOrEqual(1);
  });

  it('refuses targets that are not on loopback and intervals that are not whole seconds', () => {
    expect(() => scrapeConfig(['10.0.0.7:9249'], 5)).toThrow(/not a loopback host:port/);
    expect(() => scrapeConfig(['127.0.0.1:9249'], 0)).toThrow(/whole number of seconds/);
    expect(scrapeConfig(['127.0.0.1:9249'], 5)).toContain('scrape_interval: 5s');
  });
});
