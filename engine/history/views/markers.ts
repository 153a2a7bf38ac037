import type { HistoryMarker } from '../../contracts/history.ts';
import type { HistoryEvent } from '../event-log.ts';

const KIND: Partial<Record<HistoryEvent['kind'], HistoryMarker['kind']>> = {
  'job-restarted': 'restart',
  'jobmanager-failover': 'failover',
  'checkpoint-restored': 'restored',
  'job-state': 'state',
  'job-gone': 'gone',
  'watch-started': 'watch',
  'watch-stopped': 'watch',
  'store-silent': 'store',
  'store-answers': 'store',
};

/**
 * Pure: a job's events → what its charts mark. A gap is one marker from `gap-started` to `gap-ended` (or to the end
 * of sampling: the job gone, the watch stopped; open while it lasts); the other events are instants. Markers overlapping `[from, to]` are kept.
 */
export function markersOf(events: HistoryEvent[], from = -Infinity, to = Infinity): HistoryMarker[] {
  const markers: HistoryMarker[] = [];
  let gap: HistoryMarker | undefined;
  for (const event of [...events].sort((a, b) => a.t - b.t)) {
    if (event.kind === 'gap-started') {
      gap ??= { t: event.t, kind: 'gap', message: event.message, until: null };
      continue;
    }
    if (event.kind === 'gap-ended') {
      if (gap) markers.push({ ...gap, until: event.t });
      gap = undefined;
      continue;
    }
    // Sampling ended (the job is gone, or nobody watches it any more): an open gap ends there.
    if (gap && (event.kind === 'job-gone' || event.kind === 'watch-stopped')) {
      markers.push({ ...gap, until: event.t });
      gap = undefined;
    }
    const kind = KIND[event.kind];
    if (kind) markers.push({ t: event.t, kind, message: event.message });
  }
  if (gap) markers.push(gap);
  return markers
    .filter((m) => m.t <= to && (m.until === undefined || m.until === null || m.until >= from) && (m.kind === 'gap' || m.t >= from))
    .sort((a, b) => a.t - b.t);
}
