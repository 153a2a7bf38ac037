import { describe, expect, it } from 'vitest';
import type { VertexShape } from '../contracts/job-shape.ts';
import { compareShapes, describeChanges, nameFromDescription, shapeOfJob, shapeOfPlan } from './job-shape.ts';

const id = (n: number) => String(n).repeat(32).slice(0, 32);
const vertex = (n: number, name: string, parallelism: number, maxParallelism: number | null = 128): VertexShape => ({ id: id(n), name, parallelism, maxParallelism });

/** The stopped hot-tenant run: every vertex at 4, tenant-cost at its own 32. */
const stopped = [vertex(1, 'Source: gateway-events -> parse', 4), vertex(2, 'assemble', 4), vertex(3, 'tenant-cost -> sink', 32)];

describe('compareShapes', () => {
  it('names nothing when the plan keeps every vertex at its parallelism', () => {
    const planned = stopped.map((v) => ({ ...v, maxParallelism: null }));
    expect(compareShapes(stopped, planned)).toEqual([]);
    expect(describeChanges([])).toBe('Same shape as the stopped run: every vertex at its parallelism and max parallelism.');
  });

  it('names the vertex a job parallelism overrode, by name, from and to', () => {
    const planned = [vertex(1, 'x', 4, null), vertex(2, 'y', 4, null), vertex(3, 'z', 4, null)];
    const changes = compareShapes(stopped, planned);
    // Matched by id: the stopped run's names are the ones shown.
    expect(changes).toEqual([{ vertexName: 'tenant-cost -> sink', kind: 'parallelism', from: 32, to: 4, words: 'tenant-cost -> sink: 32 → 4' }]);
    expect(describeChanges(changes)).toBe('Differs from the stopped run: tenant-cost -> sink: 32 → 4.');
  });

  it('compares max parallelism where both sides know it', () => {
    const after = [vertex(1, 'a', 4, 256), vertex(2, 'b', 4, null), vertex(3, 'c', 32, 128)];
    expect(compareShapes(stopped, after).map((c) => c.words)).toEqual(['Source: gateway-events -> parse: max parallelism 128 → 256']);
  });

  it('falls back to the name when the ids changed, and names vertices gone or new', () => {
    const after = [
      { ...vertex(7, 'Source: gateway-events -> parse', 4), id: 'f'.repeat(32) },
      vertex(2, 'assemble', 8),
      vertex(9, 'tenant-cost-partial', 8),
    ];
    expect(compareShapes(stopped, after).map((c) => [c.kind, c.words])).toEqual([
      ['parallelism', 'assemble: 4 → 8'],
      ['missing', 'tenant-cost -> sink: not in the new job (it ran at parallelism 32)'],
      ['added', 'tenant-cost-partial: new in this job, at parallelism 8'],
    ]);
  });

  it('does not match by a name two vertices share', () => {
    const before = [vertex(1, 'map', 2), vertex(2, 'map', 2)];
    const after = [vertex(3, 'map', 2), vertex(4, 'map', 2)];
    expect(compareShapes(before, after).map((c) => c.kind)).toEqual(['missing', 'missing', 'added', 'added']);
  });
});

describe('shapes from Flink', () => {
  it('a plan node is named from its description tree, as Flink names a chain', () => {
    expect(nameFromDescription('Source: events<br/>+- parse<br/>')).toBe('Source: events -> parse');
    expect(nameFromDescription('a &amp; b<br/>:- c<br/>   +- d<br/>')).toBe('a & b -> c -> d');
    const plan = shapeOfPlan({ nodes: [{ id: id(1), parallelism: 3, description: 'throttle<br/>' }] });
    expect(plan).toEqual([{ id: id(1), name: 'throttle', parallelism: 3, maxParallelism: null }]);
  });

  it('a run takes the job\'s max parallelism where a vertex does not give its own', () => {
    const shape = shapeOfJob({ maxParallelism: 256, vertices: [{ id: id(1), name: 'a', parallelism: 2, status: 'RUNNING' }, { id: id(2), name: 'b', parallelism: 2, maxParallelism: 64, status: 'RUNNING' }] });
    expect(shape.map((v) => v.maxParallelism)).toEqual([256, 64]);
  });
});
