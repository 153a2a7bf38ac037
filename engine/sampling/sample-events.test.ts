import { describe, expect, it } from 'vitest';
import { syntheticSample } from '../history/testing/sample-fixtures.ts';
import type { JobSample } from '../history/job-sample.ts';
import { comparisonBase, eventsBetween } from './sample-events.ts';

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

  describe('with comparisonBase, over a sequence of samples as the watcher takes them', () => {
    /** The events the watcher would record for these samples, in order. */
    function told(samples: JobSample[]): string[] {
      let base: JobSample | undefined;
      const kinds: string[] = [];
      for (const sample of samples) {
        const events = eventsBetween(base, sample);
        kinds.push(...events.map((e) => e.kind));
        base = comparisonBase(base, sample, events);
      }
      return kinds;
    }
    /** A sample in which no vertex could be sampled (Flink answered them FAILED, CANCELED or INITIALIZING). */
    function unsampled(t: number, jobState: string): JobSample {
      const sample = syntheticSample({ t });
      sample.jobState = jobState;
      sample.vertices = sample.vertices.map((v) => ({ ...v, subtasks: null, unavailable: 'the vertex is INITIALIZING' }));
      return sample;
    }
    function restarted(t: number): JobSample {
      const sample = syntheticSample({ t });
      for (const v of sample.vertices) v.subtasks!.attempt.fill(1);
      return sample;
    }

    it('tells a failover whose only sample in between caught the subtasks initializing (the job RUNNING throughout)', () => {
      // Flink 2.2 with the adaptive scheduler, sampled every 10 s: RESTARTING for ~6 s, then RUNNING with its vertices
      // INITIALIZING for ~3 s. A sample in the second window only used to hide the restart.
      expect(told([syntheticSample({ t: 1 }), unsampled(2, 'RUNNING'), unsampled(3, 'RUNNING'), restarted(4)])).toEqual(['job-restarted']);
    });

    it('tells a restart once, whichever samples caught it', () => {
      expect(told([syntheticSample({ t: 1 }), unsampled(2, 'RESTARTING'), restarted(3), restarted(4)])).toEqual(['job-state', 'job-state', 'job-restarted']);
      expect(told([syntheticSample({ t: 1 }), unsampled(2, 'RESTARTING'), unsampled(3, 'RUNNING'), restarted(4)])).toEqual(['job-state', 'job-state', 'job-restarted']);
      expect(told([syntheticSample({ t: 1 }), restarted(2), restarted(3)])).toEqual(['job-restarted']);
    });

    it('does not carry subtasks across a change of parallelism', () => {
      const rescaled = syntheticSample({ t: 3, parallelism: 8 });
      for (const v of rescaled.vertices) v.subtasks!.attempt.fill(1);
      expect(told([syntheticSample({ t: 1 }), unsampled(2, 'RUNNING'), rescaled])).toEqual([]);
    });
  });
});
