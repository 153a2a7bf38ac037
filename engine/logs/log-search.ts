import type { LogLine } from '../contracts/logs.ts';
import { lineText } from './log-lines.ts';
import { visibleText } from './visible-text.ts';

/** The longest line a search keeps whole; the rest of a longer line is read past, not held. */
const MAX_LINE_BYTES = 64 * 1024;
/** A log4j line starts with its time (`2026-12-02 16:09:24,123`); other lines continue the entry above (a stack trace). */
const ENTRY_START = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/;

export interface LineFilter {
  /** Lines containing it, case-insensitive. */
  text: string | null;
  /** Lines of entries that name this task, with their continuation lines. */
  task: string | null;
}

/**
 * Splits streamed bytes into lines and keeps those the filter accepts, with their numbers and byte offsets: one pass,
 * one chunk and one line held at a time, whatever the file's size.
 */
export class LineMatcher {
  private kept: LogLine[] = [];
  lines = 0;
  /** Lines the filter accepted, kept or not. */
  matched = 0;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  private lineOffset = 0;
  private position = 0;
  private inTaskEntry = false;
  private readonly needle: string | null;
  /** The task as its lines read once made visible (a vertex named with a control character). */
  private readonly task: string | null;

  /**
   * `keep`: the first `maxMatches` lines (the scan stops there), or the last ones (the scan reads on, keeping the
   * newest: a task's latest lines).
   */
  constructor(
    filter: LineFilter,
    private readonly maxMatches: number,
    private readonly keep: 'first' | 'last' = 'first',
  ) {
    this.needle = filter.text === null || filter.text === '' ? null : visibleText(filter.text).toLowerCase();
    this.task = filter.task === null || filter.task === '' ? null : visibleText(filter.task);
  }

  get full(): boolean {
    return this.keep === 'first' && this.kept.length >= this.maxMatches;
  }

  /** The lines kept, in the file's order. */
  get matches(): LogLine[] {
    if (this.kept.length > this.maxMatches) this.kept = this.kept.slice(-this.maxMatches);
    return this.kept;
  }

  /** Feeds a chunk; false once `maxMatches` lines matched. */
  push(chunk: Buffer): boolean {
    let at = 0;
    while (at < chunk.length && !this.full) {
      const nl = chunk.indexOf(0x0a, at);
      const end = nl < 0 ? chunk.length : nl;
      this.hold(chunk.subarray(at, end));
      this.position += end - at;
      if (nl < 0) break;
      this.position += 1;
      this.endLine();
      at = nl + 1;
    }
    return !this.full;
  }

  /** The file ended: its last line, if it had no line break. */
  end(): void {
    if (this.carryBytes > 0 && !this.full) this.endLine();
  }

  private hold(part: Buffer): void {
    const room = MAX_LINE_BYTES - this.carryBytes;
    if (room <= 0 || part.length === 0) return;
    const kept = part.length > room ? part.subarray(0, room) : part;
    this.carry.push(Buffer.from(kept));
    this.carryBytes += kept.length;
  }

  private endLine(): void {
    const text = lineText(Buffer.concat(this.carry));
    this.carry = [];
    this.carryBytes = 0;
    this.lines++;
    const number = this.lines;
    const offset = this.lineOffset;
    this.lineOffset = this.position;
    if (this.task !== null) {
      if (ENTRY_START.test(text)) this.inTaskEntry = text.includes(this.task);
      if (!this.inTaskEntry) return;
    }
    if (this.needle !== null && !text.toLowerCase().includes(this.needle)) return;
    this.matched++;
    this.kept.push({ number, offset, text });
    // Keeping the last ones: the older half goes at once, not a line at a time.
    if (this.kept.length >= 2 * this.maxMatches) this.kept = this.kept.slice(-this.maxMatches);
  }
}
