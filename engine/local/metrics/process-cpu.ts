import os from 'node:os';

/**
 * The engine process's recent CPU load, 0..1 of all cores, as the JVM's `OperatingSystemMXBean.getProcessCpuLoad()`
 * reports it for `Status.JVM.CPU.Load`: CPU time used since the previous sample over the wall time × cores.
 * Samples closer than `minIntervalMs` return the previous figure, so frequent readers do not shorten the window.
 */
export class ProcessCpuLoad {
  private last = { cpuMicros: cpuMicros(), at: performance.now() };
  private load = 0;

  constructor(
    private readonly minIntervalMs = 1000,
    private readonly cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
  ) {}

  read(): number {
    const now = performance.now();
    const elapsedMs = now - this.last.at;
    if (elapsedMs >= this.minIntervalMs) {
      const used = cpuMicros();
      this.load = Math.min(1, Math.max(0, (used - this.last.cpuMicros) / 1000 / (elapsedMs * this.cores)));
      this.last = { cpuMicros: used, at: now };
    }
    return this.load;
  }
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}
