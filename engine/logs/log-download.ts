import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { LogFileRef, LogFileRequest } from '../contracts/logs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { checkedProcess, fileSpec } from './log-files.ts';

/** The most a download of a log writes: Flink's log4j rolls its files far below; an endless body is cut here. */
export const MAX_LOG_DOWNLOAD_BYTES = 4 * 1024 ** 3;
/** How long a download may take in all; a server that sends nothing for the client's timeout is cut long before. */
export const LOG_DOWNLOAD_TIMEOUT_MS = 60 * 60_000;

export interface LogDownload {
  bytes: number;
}

/** Whole log files, streamed, never held whole: what the web server and the desktop shell download with. */
export interface LogFileDownloads {
  /** Streams the file into `sink` (an HTTP response); the sink is not ended. */
  download(request: LogFileRequest, sink: Writable): Promise<LogDownload>;
  /** Saves the file at `target`, whole or not at all. */
  save(request: LogFileRequest, target: string): Promise<LogDownload>;
}

/**
 * A whole log file of a process into `sink`, at the pace the sink takes it: 1 request (Flink sends the file whole,
 * whatever Range asks). The bytes are the cluster's as they came: a download is the file, not text to show.
 */
export async function streamLogFile(client: FlinkRestClient, processId: string, file: LogFileRef, sink: Writable, maxBytes = MAX_LOG_DOWNLOAD_BYTES): Promise<LogDownload> {
  const { spec, params } = fileSpec(checkedProcess(processId), file);
  const { bytesRead } = await client.pipeText(spec, params, sink, { maxBytes, timeoutMs: LOG_DOWNLOAD_TIMEOUT_MS });
  return { bytes: bytesRead };
}

/**
 * A whole log file saved at `target`: streamed into a temporary file beside it, renamed once the file ended (atomic on
 * one file system), so a failure or an interruption leaves no partial file and never replaces one that was there.
 */
export async function saveLogFile(client: FlinkRestClient, processId: string, file: LogFileRef, target: string, maxBytes = MAX_LOG_DOWNLOAD_BYTES): Promise<LogDownload> {
  fileSpec(checkedProcess(processId), file); // a bad name is refused before any file is made
  const resolved = path.resolve(target);
  const temp = path.join(path.dirname(resolved), `.${path.basename(resolved)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const out = createWriteStream(temp, { flags: 'wx' });
  try {
    const saved = await streamLogFile(client, processId, file, out, maxBytes);
    out.end();
    await finished(out);
    await rename(temp, resolved);
    return saved;
  } catch (error) {
    // Writes still queued fail once it is destroyed: nobody waits for them any more.
    out.on('error', () => undefined);
    out.destroy();
    // Removed once closed: a file still being opened would appear after the removal.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(temp, { force: true });
    throw error;
  }
}
