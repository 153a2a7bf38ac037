import { describe, expect, it } from 'vitest';
import { syntheticSample } from '../history/testing/sample-fixtures.ts';
import { eventsBetween } from './sample-events.ts';

describe('eventsBetween', () => {
  it('says nothing for the first sample or when nothing changed', () => {
    expect(eventsBetween(undefined, syntheticSample({ t: 1 }))).toEqual([]);
    expect(eventsBetween(syntheticSample({ t: 1 }), syntheticSample({ t: 2 }))).toEqual([]);
  });

  it('names a state change, a JobManager recovery and the vertices whose subtasks restarted', () => {
    const before = syntheticSample({ t: 1 });
    const after = syntheticSample({ t: 2 });
    after.jobState = 'RESTARTING';
    after.jobStartTime = 5_000;
    after.vertices[1].subtasks!.attempt[2] = 1;
    after.vertices[1].subtasks!.attempt[3] = 1;
    const events = eventsBetween(before, after);
    expect(events.map((e) => e.kind)).toEqual(['job-state', 'jobmanager-failover', 'job-restarted']);
    expect(events[0].message).toBe('The job went from RUNNING to RESTARTING.');
    expect(events[2]).toMatchObject({ message: '2 subtasks of vertex 1 restarted with a new attempt (failover).', vertexIds: [after.vertices[1].id] });
  });
});
