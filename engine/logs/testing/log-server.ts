import type { ServerResponse } from 'node:http';
import { FlinkRestClient } from '../../flink-rest/client.ts';
import { json, startHostileServer, type HostileServer } from '../../flink-rest/testdata/hostile-server.ts';

/** The TaskManager whose log the server serves. */
export const TM = 'f'.repeat(32);

export interface LogServerOptions {
  contentLength?: number;
  contentType?: string;
  /** What the server does once `file` has no more chunks: end the body (a whole file), cut the connection, or send nothing more. @default 'end' */
  after?: 'end' | 'cut' | 'stall';
  /** The client's request timeout. @default 5000 */
  timeoutMs?: number;
}

export interface LogServer {
  client: FlinkRestClient;
  url: string;
  /** Bytes the server wrote before the client hung up or the file ended. */
  written: () => number;
  /** Settles when the latest response's connection closed (the client hung up, or the body was sent whole). */
  closed: () => Promise<void>;
}

/**
 * Fault injection: a TaskManager whose `/log` is `file` (a generator of chunks, so a file of any size costs no memory),
 * written as fast as the client reads it (each write waits for the socket to drain). Closed by the caller's afterEach.
 */
export async function startLogServer(servers: HostileServer[], file: () => Iterator<Buffer>, options: LogServerOptions = {}): Promise<LogServer> {
  let written = 0;
  let closed = Promise.resolve();
  const server = await startHostileServer((req, res: ServerResponse) => {
    if (req.url !== `/taskmanagers/${TM}/log`) return json(res, 404, { errors: ['Not found'] });
    closed = new Promise((resolve) => res.once('close', () => resolve()));
    res.writeHead(200, { 'content-type': options.contentType ?? 'text/plain', ...(options.contentLength !== undefined ? { 'content-length': options.contentLength } : {}) });
    const chunks = file();
    const pump = () => {
      for (;;) {
        if (res.destroyed) return;
        const next = chunks.next();
        if (next.done) {
          if (options.after === 'cut') res.socket?.destroy();
          else if (options.after !== 'stall') res.end();
          return;
        }
        written += next.value.length;
        if (!res.write(next.value)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  servers.push(server);
  return { client: new FlinkRestClient({ baseUrl: server.url, timeoutMs: options.timeoutMs ?? 5000 }), url: server.url, written: () => written, closed: () => closed };
}

/** `count` log lines of 100 bytes each (numbered from 1), in chunks of 1,000 lines; endless when count is Infinity. */
export function* numberedLines(count: number): Iterator<Buffer> {
  for (let first = 1; first <= count; first += 1000) {
    const lines: string[] = [];
    for (let n = first; n < first + 1000 && n <= count; n++) lines.push(`2026-12-02 16:00:00,000 INFO  line ${String(n).padStart(10, '0')} ${'x'.repeat(53)}\n`);
    yield Buffer.from(lines.join(''));
  }
}
