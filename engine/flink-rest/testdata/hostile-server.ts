import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const TEST_CA_FILE = path.join(here, 'ca.pem');

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Fault injection only: a loopback server that answers the way broken clusters, proxies and impostors do.
 * The happy path is tested against a real Flink (npm run test:flink).
 */
export async function startHostileServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: { tls?: boolean } = {},
): Promise<HostileServer> {
  const server = options.tls
    ? https.createServer({ key: readFileSync(path.join(here, 'server.key')), cert: readFileSync(path.join(here, 'server.pem')) }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/** A body just valid enough for `/config` and `/jobmanager/config`, to reach the endpoint under test. */
export function flinkBasics(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url === '/config') {
    json(res, 200, { 'flink-version': '2.2.1', 'flink-revision': 'test', 'refresh-interval': 3000 });
    return true;
  }
  if (req.url === '/jobmanager/config') {
    json(res, 200, [{ key: 'metrics.fetcher.update-interval', value: '5 s' }]);
    return true;
  }
  return false;
}
