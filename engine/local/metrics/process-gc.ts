import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/**
 * The engine process's garbage collections as V8 reports them (`perf_hooks` "gc" entries), counted and timed per kind
 * the way a JVM's `GarbageCollectorMXBean` counts its collectors: what the local engine serves as Flink's
 * `Status.JVM.GarbageCollector.<name>.Count/Time` (the process's own, since its JobManager and TaskManagers share it).
 */
export interface GcCollector {
  /** Named as Flink names a JVM's collectors (words joined by `_`). */
  name: string;
  count: number;
  timeMs: number;
}

const KIND_NAMES: ReadonlyMap<number, string> = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'V8_Scavenge'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'V8_Mark_Compact'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'V8_Incremental_Marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'V8_Weak_Callbacks'],
]);

/**
 * As Flink's `TimeMsPerSecond` (a `MeterView`): the rate over the last 60 s, brought up to date every 5 s (reads closer
 * than that keep the last rate).
 */
const RATE_SPAN_MS = 60_000;
const RATE_UPDATE_MS = 5_000;

class ProcessGc {
  private readonly collectors = new Map<string, GcCollector>();
  /** The total at each update within the last span, oldest first. */
  private readings = [{ timeMs: 0, at: performance.now() }];
  private rate = 0;

  constructor() {
    // One observer for the process, whatever the number of engines in it: it only counts.
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.count(entry);
    }).observe({ entryTypes: ['gc'] });
  }

  /** Each collector seen so far, in a fixed order. */
  read(): GcCollector[] {
    return [...this.collectors.values()].sort((a, b) => a.name.localeCompare(b.name)).map((c) => ({ ...c }));
  }

  /** All collectors together (Flink's `All`). */
  total(): GcCollector {
    const all = { name: 'All', count: 0, timeMs: 0 };
    for (const c of this.collectors.values()) {
      all.count += c.count;
      all.timeMs += c.timeMs;
    }
    return all;
  }

  /** Time spent collecting per second of wall time, over the last minute. */
  timeMsPerSecond(): number {
    const now = performance.now();
    if (now - this.readings.at(-1)!.at >= RATE_UPDATE_MS) {
      const { timeMs } = this.total();
      while (this.readings.length > 1 && now - this.readings[1].at >= RATE_SPAN_MS) this.readings.shift();
      const oldest = this.readings[0];
      this.rate = ((timeMs - oldest.timeMs) / (now - oldest.at)) * 1000;
      this.readings.push({ timeMs, at: now });
    }
    return this.rate;
  }

  private count(entry: PerformanceEntry): void {
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    const name = (kind !== undefined ? KIND_NAMES.get(kind) : undefined) ?? 'V8_Other';
    const collector = this.collectors.get(name) ?? { name, count: 0, timeMs: 0 };
    collector.count += 1;
    collector.timeMs += entry.duration;
    this.collectors.set(name, collector);
  }
}

let instance: ProcessGc | undefined;

/** The process's collector counts, observed from the first call on. */
export function processGc(): ProcessGc {
  instance ??= new ProcessGc();
  return instance;
}
