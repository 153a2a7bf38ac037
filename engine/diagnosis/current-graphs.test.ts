import { describe, expect, it } from 'vitest';
import { diagnoseSamples } from '../analysis/diagnose-job.ts';
import { buildWindow, uniform } from '../analysis/testing/window-builder.ts';
import type { JobGraph } from '../contracts/jobs.ts';
import { CurrentGraphs } from './current-graphs.ts';

/** A window too short for a verdict: the first look is asked for. */
const young = () => diagnoseSamples(buildWindow({ vertices: [{ id: 'v', name: 'v', subtasks: uniform(2, { busy: 40, recordsOut: 5 }) }], samples: 2 }), 60_000);

function graphOf(clusterId: string, jobId: string, fetchedAt: number): JobGraph {
  return { clusterId, jobId, name: 'j', state: 'RUNNING', startTime: 0, durationMs: 0, maxParallelism: 128, endTime: null, fetchedAt, requestCount: 1, vertices: [], edges: [] };
}

describe('CurrentGraphs: Flink\'s current figures without asking the JobManager twice', () => {
  it('reuses the graph a page fetched within the max age, fetches once past it, and remembers a failure as long', async () => {
    let now = 0;
    let fetches = 0;
    let failing = false;
    const graphs = new CurrentGraphs(
      async (clusterId, jobId) => {
        fetches++;
        if (failing) throw new Error('gone');
        return graphOf(clusterId, jobId, now);
      },
      () => now,
      10_000,
    );
    const d = young();
    graphs.remember(graphOf(d.clusterId, d.jobId, 0));
    now = 9_000;
    expect((await graphs.diagnose(d)).basis).toMatchObject({ source: 'flink-now', fetchedAt: 0 });
    expect(fetches).toBe(0);
    now = 20_000;
    expect((await graphs.diagnose(d)).basis).toMatchObject({ source: 'flink-now', fetchedAt: 20_000 });
    expect(fetches).toBe(1);
    failing = true;
    now = 31_000;
    expect((await graphs.diagnose(d)).basis).toEqual({ source: 'window' });
    now = 35_000;
    await graphs.diagnose(d);
    expect(fetches).toBe(2);
  });

  it('fetches a job once for a page and a diagnosis asking at the same time, and keeps the page\'s period', async () => {
    let now = 0;
    let fetches = 0;
    let release!: () => void;
    const graphs = new CurrentGraphs(
      async (clusterId, jobId) => {
        fetches++;
        await new Promise<void>((resolve) => (release = resolve));
        return graphOf(clusterId, jobId, now);
      },
      () => now,
      10_000,
    );
    const d = young();
    const page = graphs.fetch(d.clusterId, d.jobId);
    const diagnosis = graphs.diagnose(d);
    release();
    await Promise.all([page, diagnosis]);
    expect(fetches).toBe(1);
    expect(graphs.recent(d.clusterId, d.jobId)?.periodMs).toBeUndefined();
    // The page refreshes every 15 s: its period is known from its second refresh on, and a diagnosis asked 14 s after
    // a refresh takes that refresh's figures (the page's next one comes within its period) rather than a fetch.
    now = 15_000;
    const second = graphs.fetch(d.clusterId, d.jobId);
    release();
    await second;
    expect(graphs.recent(d.clusterId, d.jobId)?.periodMs).toBe(15_000);
    now = 29_000;
    expect((await graphs.diagnose(d)).basis).toMatchObject({ source: 'flink-now', fetchedAt: 15_000 });
    expect(fetches).toBe(2);
    // The page opened again an hour later: that hour is not its period, and a diagnosis 20 s after takes a fresh graph.
    now = 3_629_000;
    const reopened = graphs.fetch(d.clusterId, d.jobId);
    release();
    await reopened;
    expect(graphs.recent(d.clusterId, d.jobId)?.periodMs).toBeUndefined();
    now += 20_000;
    const late = graphs.diagnose(d);
    release();
    expect((await late).basis).toMatchObject({ source: 'flink-now', fetchedAt: now });
    expect(fetches).toBe(4);
  });

  it('asks nothing for a window finding that already calls for attention', async () => {
    let fetches = 0;
    const graphs = new CurrentGraphs(async () => {
      fetches++;
      throw new Error('not to be asked');
    });
    const d = young();
    const critical = { ...d, finding: { ...d.finding, severity: 'critical' as const } };
    expect((await graphs.diagnose(critical)).basis).toEqual({ source: 'window' });
    expect(fetches).toBe(0);
  });
});
