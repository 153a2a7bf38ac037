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
