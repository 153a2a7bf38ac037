import type { Readable, Writable } from 'node:stream';
import { BodyDeadline, BodyStalled, BodyTooLarge } from './errors.ts';

/**
 * Reading a plain-text file Flink sends whole (a log, stdout) a page at a time: the bytes before the page stream by
 * and are counted, not kept; the request ends once the page is read. Or all of it, into a file, a chunk at a time.
 * `FlinkRestClient.readText` / `scanText` / `pipeText` use these.
 */

/** Where a page of a text file starts (null: the file's last `length` bytes) and how long it may be (bytes). */
export interface TextRange {
  offset: number | null;
  length: number;
}

/** A page of a text file: its bytes decoded (invalid UTF-8 as U+FFFD), and what is known of the rest. */
export interface TextPage {
  /** The page's bytes as UTF-8; a character cut at the page's end is left for the next page. */
  text: string;
  /** The page's bytes as they came (`text` decodes them). */
  bytes: Buffer;
  /** Where the page starts (bytes). */
  offset: number;
  /** The page's length in bytes (those decoded into `text`). */
  length: number;
  /** Line breaks before the page: its first line's number is this + 1 when it `startsLine`. */
  linesBefore: number;
  /** The page starts a line (at the file's start, or after a line break). */
  startsLine: boolean;
  /** The file's size: the announced length, or what streamed by when the file ended inside the page; null when unknown. */
  fileBytes: number | null;
  /** The file ended inside this page. */
  endOfFile: boolean;
  /** Bytes that crossed the wire (skipped ones included). */
  bytesRead: number;
}

const NEWLINE = 0x0a;

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/**
 * Streams past `range.offset` and keeps at most `range.length` bytes after it, then ends the request; for the tail
 * (`offset` null) it keeps the last `length` bytes as they stream by. Memory stays about one page whatever the file's
 * size; line breaks streaming by are counted, so the page knows its line numbers.
 */
export async function readRange(stream: Readable, range: TextRange, deadline: AbortSignal, declared: number): Promise<TextPage> {
  const tail = range.offset === null;
  const offset = range.offset ?? 0;
  const end = offset + range.length;
  const chunks: Buffer[] = [];
  let kept = 0;
  let position = 0;
  let linesBefore = 0;
  let lastSkipped = NEWLINE;
  /** Tail: drop whole chunks from the front while the rest still holds `length` bytes. */
  const dropFront = () => {
    while (chunks.length > 1 && kept - chunks[0].length >= range.length) {
      const dropped = chunks.shift()!;
      kept -= dropped.length;
      linesBefore += countNewlines(dropped);
      lastSkipped = dropped[dropped.length - 1];
    }
  };
  const { endOfFile } = await streamUntil(stream, deadline, (chunk) => {
    const start = position;
    position += chunk.length;
    if (tail) {
      chunks.push(chunk);
      kept += chunk.length;
      dropFront();
      return true;
    }
    if (position <= offset) {
      linesBefore += countNewlines(chunk);
      lastSkipped = chunk[chunk.length - 1];
      return true;
    }
    const from = Math.max(0, offset - start);
    if (from > 0) {
      linesBefore += countNewlines(chunk.subarray(0, from));
      lastSkipped = chunk[from - 1];
    }
    chunks.push(chunk.subarray(from, Math.min(chunk.length, end - start)));
    return position < end;
  });
  let bytes = Buffer.concat(chunks);
  let start = offset;
  if (tail && bytes.length > range.length) {
    const cut = bytes.length - range.length;
    linesBefore += countNewlines(bytes.subarray(0, cut));
    lastSkipped = bytes[cut - 1];
    bytes = bytes.subarray(cut);
  }
  if (tail) start = position - bytes.length;
  // Keep whole characters: a UTF-8 sequence cut by the page's end starts the next page.
  const length = endOfFile ? bytes.length : wholeCharacters(bytes);
  return {
    text: new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, length)),
    bytes: bytes.subarray(0, length),
    offset: start,
    length,
    linesBefore,
    startsLine: start === 0 || lastSkipped === NEWLINE,
    fileBytes: endOfFile ? position : Number.isFinite(declared) ? declared : null,
    endOfFile,
    bytesRead: position,
  };
}

/**
 * Streams a file's bytes to `visit` until it returns false, the file ends or `maxBytes` went by: a search reads a
 * file of any size in one pass, holding one chunk at a time.
 */
export async function scanStream(stream: Readable, maxBytes: number, deadline: AbortSignal, visit: (chunk: Buffer) => boolean): Promise<ScanResult> {
  let position = 0;
  const { endOfFile } = await streamUntil(stream, deadline, (chunk) => {
    const room = maxBytes - position;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    position += part.length;
    return visit(part) && position < maxBytes;
  });
  return { bytesRead: position, endOfFile };
}

/**
 * Streams a file's bytes into `sink` as fast as the sink takes them: the response pauses while the sink is full, so
 * memory stays a few chunks whatever the file's size (a log of gigabytes, a slow disk). Fails with a `BodyTooLarge`
 * past `maxBytes`, a `BodyStalled` when the server sends nothing for `idleMs` (a full sink is no stall), or the sink's
 * own error. The sink is not ended: the caller ends it, or throws it away on a failure.
 */
export async function pipeStream(stream: Readable, sink: Writable, maxBytes: number, idleMs: number, deadline: AbortSignal): Promise<ScanResult> {
  let position = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let fail: (error: Error) => void = () => undefined;
  const waitForData = () => {
    clearTimeout(idle);
    idle = setTimeout(() => fail(new BodyStalled(position, idleMs)), idleMs);
  };
  const onSinkError = (error: Error) => fail(error);
  // A receiver gone (a browser's download cancelled) never drains: the file is not read on for nobody.
  const onSinkClose = () => fail(sinkClosed());
  const onDrain = () => {
    waitForData();
    stream.resume();
  };
  sink.once('error', onSinkError);
  sink.once('close', onSinkClose);
  try {
    return await streamUntil(
      stream,
      deadline,
      (chunk) => {
        position += chunk.length;
        if (position > maxBytes) {
          fail(new BodyTooLarge(position, maxBytes));
          return false;
        }
        if (sink.write(chunk)) waitForData();
        else {
          clearTimeout(idle);
          stream.pause();
          sink.once('drain', onDrain);
        }
        return true;
      },
      (failWith) => {
        fail = failWith;
        // A sink that failed before the answer came (a file that could not be opened) takes nothing.
        if (sink.destroyed || sink.writableEnded) fail(sink.errored ?? sinkClosed());
        else waitForData();
      },
    );
  } finally {
    clearTimeout(idle);
    sink.off('error', onSinkError);
    sink.off('close', onSinkClose);
    sink.off('drain', onDrain);
  }
}

/** The error of a sink that closed before the file ended. */
export function sinkClosed(): Error {
  return Object.assign(new Error('The receiver closed before the whole file was written.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Hands each chunk to `onChunk` until it returns false (the request is then ended), the stream ends, fails, or the
 * deadline passes (a `BodyDeadline`). A failure carries `bytesRead`, the bytes that went by before it. `started` gets a
 * way to fail the stream from outside (a sink's error, a stall).
 */
function streamUntil(stream: Readable, deadline: AbortSignal, onChunk: (chunk: Buffer) => boolean, started?: (fail: (error: Error) => void) => void): Promise<ScanResult> {
  return new Promise((resolve, reject) => {
    let position = 0;
    let done = false;
    const finish = (error: Error | undefined, endOfFile: boolean) => {
      if (done) return;
      done = true;
      deadline.removeEventListener('abort', onDeadline);
      stream.off('data', onData);
      if (error) {
        stream.destroy();
        reject(Object.assign(error, { bytesRead: position }));
        return;
      }
      if (!endOfFile) stream.destroy();
      resolve({ bytesRead: position, endOfFile });
    };
    const onDeadline = () => finish(new BodyDeadline(position), false);
    const onData = (chunk: Buffer) => {
      position += chunk.length;
      if (!onChunk(chunk)) finish(undefined, false);
    };
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });
    stream.on('data', onData);
    stream.once('end', () => finish(undefined, true));
    stream.once('error', (error: Error) => finish(deadline.aborted ? new BodyDeadline(position) : error, false));
    stream.once('aborted', () => finish(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), false));
    started?.((error) => finish(error, false));
  });
}

/** What a scan read. */
export interface ScanResult {
  bytesRead: number;
  /** The file ended before the scan stopped. */
  endOfFile: boolean;
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
