import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../event-log.ts';
import { markersOf } from './markers.ts';

const at = (t: number, kind: HistoryEvent['kind'], message: string = kind): HistoryEvent => ({ clusterId: 'c', jobId: 'j', t, kind, message });

describe('chart markers from a job\'s events', () => {
  it('makes one gap of a start and an end, and marks restarts and failovers as instants', () => {
    const markers = markersOf([at(10, 'gap-started', 'No sample: Connection refused'), at(40, 'gap-ended'), at(50, 'job-restarted'), at(60, 'jobmanager-failover')]);
    expect(markers).toEqual([
      { t: 10, kind: 'gap', message: 'No sample: Connection refused', until: 40 },
      { t: 50, kind: 'restart', message: 'job-restarted' },
      { t: 60, kind: 'failover', message: 'jobmanager-failover' },
    ]);
  });

  it('ends a gap where sampling ended (the job gone), and keeps a gap that still lasts open', () => {
    expect(markersOf([at(10, 'gap-started'), at(90, 'job-gone'), at(90, 'watch-stopped')]).map((m) => [m.kind, m.t, m.until])).toEqual([
      ['gap', 10, 90],
      ['gone', 90, undefined],
      ['watch', 90, undefined],
    ]);
    expect(markersOf([at(10, 'gap-started')])).toEqual([{ t: 10, kind: 'gap', message: 'gap-started', until: null }]);
  });

  it('keeps what overlaps the window: a gap that began before it, not instants outside it', () => {
    const events = [at(10, 'gap-started'), at(40, 'gap-ended'), at(20, 'job-restarted'), at(100, 'job-restarted')];
    expect(markersOf(events, 30, 90).map((m) => m.kind)).toEqual(['gap']);
  });
});
