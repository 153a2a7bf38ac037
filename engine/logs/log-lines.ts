import type { LogLine } from '../contracts/logs.ts';
import type { TextPage } from '../flink-rest/read-text.ts';
import { visibleText } from './visible-text.ts';

/** A page of bytes cut to whole lines: a line begun before the page and one running past it are left to their pages. */
export interface PageLines {
  lines: LogLine[];
  /** Where the first whole line starts. */
  offset: number;
  /** Where the line after the last whole one starts. */
  nextOffset: number;
  /** One line fills the whole page and runs on past it: it is shown cut. */
  cutLine: boolean;
}

export function pageLines(page: TextPage): PageLines {
  const bytes = page.bytes;
  let start = 0;
  let number = page.linesBefore + 1;
  if (!page.startsLine) {
    const firstBreak = bytes.indexOf(0x0a);
    // Inside one line longer than the page: show the piece rather than nothing.
    if (firstBreak >= 0) {
      start = firstBreak + 1;
      number++;
    }
  }
  let stop = bytes.length;
  let cutLine = false;
  if (!page.endOfFile) {
    const lastBreak = bytes.lastIndexOf(0x0a);
    if (lastBreak >= start) stop = lastBreak + 1;
    else cutLine = bytes.length > 0;
  }
  const lines: LogLine[] = [];
  let at = start;
  while (at < stop) {
    const nl = bytes.indexOf(0x0a, at);
    const lineEnd = nl < 0 || nl >= stop ? stop : nl;
    lines.push({ number, offset: page.offset + at, text: lineText(bytes.subarray(at, lineEnd)) });
    number++;
    at = lineEnd + 1;
  }
  return { lines, offset: page.offset + start, nextOffset: page.offset + stop, cutLine };
}

/** One line's bytes as visible text: invalid UTF-8 as `�`, a Windows line end dropped. */
export function lineText(bytes: Buffer): string {
  const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  return visibleText(new TextDecoder('utf-8', { fatal: false }).decode(body));
}
