import { describe, expect, it } from 'vitest';
import { LocalEngine } from './engine.ts';
import { ManualClock } from './time/clock.ts';

const clock = () => new ManualClock(1_767_225_600_000);

describe('LocalEngine options', () => {
  it('defaults: the course cluster (4 TaskManagers × 2 slots), gatewaymeter at parallelism 4, uniform traffic', () => {
    const engine = new LocalEngine({ clock: clock() });
    expect(engine.cluster.taskManagers).toHaveLength(4);
    expect(engine.cluster.slotsTotal).toBe(8);
    const [job] = engine.cluster.jobs.values();
    expect(job.name).toBe('gatewaymeter');
    expect(job.jobGraph.vertices.map((v) => v.parallelism)).toEqual([4, 4, 4]);
    expect(engine.scenario).toBeUndefined();
    expect(engine.generator.rate).toBe(2000);
  });

  it('grows the cluster by whole TaskManagers when the parallelism needs more slots', () => {
    const engine = new LocalEngine({ clock: clock(), parallelism: 12 });
    expect(engine.cluster.taskManagers).toHaveLength(6);
    expect(engine.cluster.slotsAvailable).toBe(0);
  });

  it('runs the scenario: its cluster, parallelism overrides, capacity and rate; --rate overrides it', () => {
    const engine = new LocalEngine({ clock: clock(), scenario: 'hot-tenant', rate: 1300, seed: 9 });
    expect(engine.cluster.slotsTotal).toBe(32);
    const [job] = engine.cluster.jobs.values();
    expect(job.jobGraph.vertices.map((v) => v.parallelism)).toEqual([4, 4, 32]);
    expect(engine.generator.rate).toBe(1300);
    expect(engine.configuration).toContainEqual({ key: 'taskmanager.memory.segment-size', value: '4kb' });
    expect(engine.configuration).toContainEqual({ key: 'local-engine.seed', value: '9' });
  });

  it('a run at a job parallelism keeps the operators\' own parallelism, as Flink does; its plan is the graph it runs', () => {
    const engine = new LocalEngine({ clock: clock(), scenario: 'hot-tenant' });
    const [first] = engine.cluster.jobs.values();
    first.cancel();
    const plan = engine.planBuiltInJob({ job: 'gatewaymeter', parallelism: 2 });
    expect(plan.vertices.map((v) => v.parallelism)).toEqual([2, 2, 32]);
    expect(engine.cluster.jobs.size).toBe(1);
    const run = engine.runBuiltInJob({ job: 'gatewaymeter', parallelism: 2 });
    expect(run.jobGraph.vertices.map((v) => [v.name, v.parallelism])).toEqual(plan.vertices.map((v) => [v.name, v.parallelism]));
    expect(run.jobGraph.vertices.map((v) => v.id)).toEqual(first.jobGraph.vertices.map((v) => v.id));
    expect(plan.vertices.map((v) => v.id)).toEqual(first.jobGraph.vertices.map((v) => v.id));
  });

  it('rejects bad options with messages that name them', () => {
    expect(() => new LocalEngine({ clock: clock(), parallelism: 129 })).toThrow(/--parallelism.*\(129\) is higher than its maximum parallelism \(128\)/);
    expect(() => new LocalEngine({ clock: clock(), parallelism: 1.5 })).toThrow(/--parallelism must be a positive whole number/);
    expect(() => new LocalEngine({ clock: clock(), rate: 0 })).toThrow(/--rate must be a positive number/);
    expect(() => new LocalEngine({ clock: clock(), seed: 0.5 })).toThrow(/--seed must be a whole number/);
    expect(() => new LocalEngine({ clock: clock(), events: -3 })).toThrow(/--events must be a positive whole number/);
    expect(() => new LocalEngine({ clock: clock(), scenario: 'hot-tenantt' })).toThrow(/Unknown scenario "hot-tenantt"/);
  });

  it('with --events the job finishes once all windows have fired', () => {
    const engine = new LocalEngine({ clock: clock(), events: 20_000, rate: 5000 });
    const [job] = engine.cluster.jobs.values();
    expect(engine.cluster.advanceUntil(() => job.status === 'FINISHED', 120_000)).toBe(true);
    const rows = engine.results.get(job.jobId)!.rows();
    expect(rows.length).toBeGreaterThan(0);
    expect(job.tasks.every((t) => t.state === 'FINISHED')).toBe(true);
  });
});
