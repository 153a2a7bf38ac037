/**
 * One process's log file as the local engine keeps it: the lines its runtime writes (task state changes, job status,
 * TaskManager registration), in Flink's default log4j layout (`%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n`).
 * Kept in memory up to a byte cap, the oldest lines dropped first, as a rolling file appender keeps the newest.
 */
export class ProcessLog {
  private lines: string[] = [];
  private head = 0;
  private bytes = 0;
  /** When the last line was written (epoch ms of the engine's clock); the process's start before any line. */
  modifiedAt: number;

  constructor(
    readonly name: string,
    startedAt: number,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {
    this.modifiedAt = startedAt;
  }

  /** Appends one line; `logger` is the Java class Flink logs it under. */
  write(now: number, level: 'INFO' | 'WARN' | 'ERROR', logger: string, message: string): void {
    const line = `${formatLogTime(now)} ${level.padEnd(5)} ${logger.padEnd(60)} [] - ${message}\n`;
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    this.modifiedAt = now;
    while (this.bytes > this.maxBytes && this.head < this.lines.length - 1) {
      this.bytes -= Buffer.byteLength(this.lines[this.head]);
      this.head++;
    }
    // Compact now and then, so dropped lines do not stay referenced.
    if (this.head > 4096 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.bytes;
  }

  /** The file's content, as Flink's file handler sends it. */
  text(): string {
    return this.lines.slice(this.head).join('');
  }
}

/** `yyyy-MM-dd HH:mm:ss,SSS` in UTC (the engine's clock has no time zone of its own). */
export function formatLogTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)},${iso.slice(20, 23)}`;
}
