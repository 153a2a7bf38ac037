import type { Clock } from './clock.ts';

/** A cancellable scheduled action. */
export interface ScheduledTask {
  cancel(): void;
}

interface Entry {
  at: number;
  seq: number;
  period: number;
  action: (now: number) => void;
  cancelled: boolean;
}

/**
 * A processing-time scheduler on a virtual clock (the engine's `ProcessingTimeService`): actions run when the engine
 * advances time past their due time, in due-time order (ties in scheduling order). Used for periodic work only
 * (watermark emission, output flushing, metric views, scenario phases), never per record.
 */
export class VirtualScheduler {
  private readonly heap: Entry[] = [];
  private seq = 0;

  constructor(readonly clock: Clock) {}

  /** Runs `action` once at `atMs` (or at the next `runDue` if that is already past). */
  scheduleAt(atMs: number, action: (now: number) => void): ScheduledTask {
    return this.push({ at: atMs, seq: this.seq++, period: 0, action, cancelled: false });
  }

  /** Runs `action` at `firstMs`, then every `periodMs`. */
  scheduleAtFixedRate(firstMs: number, periodMs: number, action: (now: number) => void): ScheduledTask {
    if (!(periodMs > 0)) throw new RangeError(`A period must be positive, got ${periodMs}.`);
    return this.push({ at: firstMs, seq: this.seq++, period: periodMs, action, cancelled: false });
  }

  /** The due time of the earliest pending action, or Infinity. */
  nextDue(): number {
    while (this.heap.length > 0 && this.heap[0].cancelled) this.pop();
    return this.heap.length > 0 ? this.heap[0].at : Number.POSITIVE_INFINITY;
  }

  /** Runs every action due at or before `now`, each with its own due time as argument. */
  runDue(now: number): void {
    for (;;) {
      const head = this.heap[0];
      if (!head || head.at > now) return;
      this.pop();
      if (head.cancelled) continue;
      if (head.period > 0) {
        head.at += head.period;
        head.seq = this.seq++;
        this.pushEntry(head);
      }
      head.action(head.at - head.period);
    }
  }

  get size(): number {
    return this.heap.length;
  }

  private push(entry: Entry): ScheduledTask {
    this.pushEntry(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  private pushEntry(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}

function less(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
