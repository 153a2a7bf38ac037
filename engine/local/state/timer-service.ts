import type { KeyGroupRange } from '../../analysis/key-groups/key-group-range-assignment.ts';
import type { HeapKeyedStateBackend } from './keyed-state-backend.ts';
import type { Namespace, StateKey } from './state-table.ts';

/** A registered timer (Flink's `TimerHeapInternalTimer`). */
export interface InternalTimer {
  timestamp: number;
  key: StateKey;
  namespace: Namespace;
  keyGroup: number;
  /** Position in the heap; −1 once removed. */
  heapIndex: number;
}

/**
 * A priority queue of timers, deduplicated per (key, namespace, timestamp) and indexed by key group so timers can
 * be snapshotted and redistributed with the keyed state (Flink's `HeapPriorityQueueSet` under a
 * `KeyGroupPartitionedPriorityQueue`). Deleting a timer is O(log n).
 */
export class TimerQueue {
  private readonly heap: InternalTimer[] = [];
  /** byKeyGroup[kg - start]: key → the key's timers (one, or an array when several). */
  private readonly byKeyGroup: Array<Map<StateKey, InternalTimer | InternalTimer[]>>;

  constructor(readonly keyGroupRange: KeyGroupRange) {
    const n = keyGroupRange.endKeyGroup - keyGroupRange.startKeyGroup + 1;
    this.byKeyGroup = new Array(n);
    for (let i = 0; i < n; i++) this.byKeyGroup[i] = new Map();
  }

  get size(): number {
    return this.heap.length;
  }

  peek(): InternalTimer | undefined {
    return this.heap[0];
  }

  /** Adds a timer unless an equal one exists; returns whether it was added. */
  add(timestamp: number, key: StateKey, namespace: Namespace, keyGroup: number): boolean {
    const group = this.byKeyGroup[keyGroup - this.keyGroupRange.startKeyGroup];
    const existing = group.get(key);
    if (existing !== undefined) {
      if (Array.isArray(existing)) {
        for (const t of existing) if (t.timestamp === timestamp && t.namespace === namespace) return false;
      } else if (existing.timestamp === timestamp && existing.namespace === namespace) {
        return false;
      }
    }
    const timer: InternalTimer = { timestamp, key, namespace, keyGroup, heapIndex: this.heap.length };
    if (existing === undefined) group.set(key, timer);
    else if (Array.isArray(existing)) existing.push(timer);
    else group.set(key, [existing, timer]);
    this.heap.push(timer);
    this.siftUp(timer.heapIndex);
    return true;
  }

  /** Removes the timer equal to (timestamp, key, namespace) if present. */
  remove(timestamp: number, key: StateKey, namespace: Namespace, keyGroup: number): boolean {
    const group = this.byKeyGroup[keyGroup - this.keyGroupRange.startKeyGroup];
    const existing = group.get(key);
    if (existing === undefined) return false;
    let timer: InternalTimer | undefined;
    if (Array.isArray(existing)) {
      const i = existing.findIndex((t) => t.timestamp === timestamp && t.namespace === namespace);
      if (i < 0) return false;
      timer = existing[i];
      existing.splice(i, 1);
      if (existing.length === 1) group.set(key, existing[0]);
    } else {
      if (existing.timestamp !== timestamp || existing.namespace !== namespace) return false;
      timer = existing;
      group.delete(key);
    }
    this.removeAt(timer.heapIndex);
    return true;
  }

  /** Removes and returns the earliest timer. */
  poll(): InternalTimer | undefined {
    const head = this.heap[0];
    if (head === undefined) return undefined;
    this.unindex(head);
    this.removeAt(0);
    return head;
  }

  /** The timers of one key group (absolute id), for snapshots. */
  timersOf(keyGroup: number): InternalTimer[] {
    const out: InternalTimer[] = [];
    for (const v of this.byKeyGroup[keyGroup - this.keyGroupRange.startKeyGroup].values()) {
      if (Array.isArray(v)) out.push(...v);
      else out.push(v);
    }
    return out;
  }

  private unindex(timer: InternalTimer): void {
    const group = this.byKeyGroup[timer.keyGroup - this.keyGroupRange.startKeyGroup];
    const existing = group.get(timer.key);
    if (existing === timer) group.delete(timer.key);
    else if (Array.isArray(existing)) {
      const i = existing.indexOf(timer);
      if (i >= 0) existing.splice(i, 1);
      if (existing.length === 1) group.set(timer.key, existing[0]);
    }
  }

  private removeAt(index: number): void {
    const heap = this.heap;
    const removed = heap[index];
    removed.heapIndex = -1;
    const last = heap.pop()!;
    if (index === heap.length) return;
    heap[index] = last;
    last.heapIndex = index;
    this.siftDown(index);
    this.siftUp(last.heapIndex);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const timer = heap[index];
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex];
      if (parent.timestamp <= timer.timestamp) break;
      heap[index] = parent;
      parent.heapIndex = index;
      index = parentIndex;
    }
    heap[index] = timer;
    timer.heapIndex = index;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const n = heap.length;
    const timer = heap[index];
    for (;;) {
      const l = 2 * index + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && heap[r].timestamp < heap[l].timestamp ? r : l;
      if (heap[child].timestamp >= timer.timestamp) break;
      heap[index] = heap[child];
      heap[index].heapIndex = index;
      index = child;
    }
    heap[index] = timer;
    timer.heapIndex = index;
  }
}

/** What a keyed operator does when one of its timers fires. */
export interface Triggerable {
  onEventTime(timer: InternalTimer): void;
  onProcessingTime(timer: InternalTimer): void;
}

/**
 * Event-time and processing-time timers of one keyed operator subtask (Flink's `InternalTimerServiceImpl`).
 * Timers are registered for the backend's current key; when one fires, the backend's current key is set to the
 * timer's key before the operator's callback runs.
 */
export class InternalTimerService {
  readonly eventTimeTimers: TimerQueue;
  readonly processingTimeTimers: TimerQueue;
  /** Long.MIN_VALUE until the first watermark. */
  currentWatermark = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly backend: HeapKeyedStateBackend,
    private readonly target: Triggerable,
  ) {
    this.eventTimeTimers = new TimerQueue(backend.keyGroupRange);
    this.processingTimeTimers = new TimerQueue(backend.keyGroupRange);
  }

  registerEventTimeTimer(namespace: Namespace, time: number): void {
    this.eventTimeTimers.add(time, this.backend.currentKey, namespace, this.backend.currentKeyGroup);
  }

  deleteEventTimeTimer(namespace: Namespace, time: number): void {
    this.eventTimeTimers.remove(time, this.backend.currentKey, namespace, this.backend.currentKeyGroup);
  }

  registerProcessingTimeTimer(namespace: Namespace, time: number): void {
    this.processingTimeTimers.add(time, this.backend.currentKey, namespace, this.backend.currentKeyGroup);
  }

  deleteProcessingTimeTimer(namespace: Namespace, time: number): void {
    this.processingTimeTimers.remove(time, this.backend.currentKey, namespace, this.backend.currentKeyGroup);
  }

  /** Fires every event-time timer with timestamp <= watermark, in timestamp order; returns how many fired. */
  advanceWatermark(watermark: number): number {
    this.currentWatermark = watermark;
    let fired = 0;
    for (;;) {
      const head = this.eventTimeTimers.peek();
      if (head === undefined || head.timestamp > watermark) return fired;
      this.eventTimeTimers.poll();
      this.backend.setCurrentKey(head.key, head.keyGroup);
      this.target.onEventTime(head);
      fired++;
    }
  }

  /** Fires every processing-time timer due at or before `now`. */
  advanceProcessingTime(now: number): number {
    let fired = 0;
    for (;;) {
      const head = this.processingTimeTimers.peek();
      if (head === undefined || head.timestamp > now) return fired;
      this.processingTimeTimers.poll();
      this.backend.setCurrentKey(head.key, head.keyGroup);
      this.target.onProcessingTime(head);
      fired++;
    }
  }

  numEventTimeTimers(): number {
    return this.eventTimeTimers.size;
  }

  numProcessingTimeTimers(): number {
    return this.processingTimeTimers.size;
  }
}
