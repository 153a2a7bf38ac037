import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one client sent through the proxy: requests, response body bytes (as on the wire) and both by endpoint. */
export interface ClientCount {
  requests: number;
  bytes: number;
  byEndpoint: Map<string, { requests: number; bytes: number }>;
}

export interface CountingProxy {
  /** The proxy's URL for one client: each client has a port of its own, so no header decides who asked. */
  url(client: string): string;
  count(client: string): ClientCount;
  /** Starts every client's count from zero (after a warm-up). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback in front of a JobManager that counts, per client, the requests and the response bytes it
 * passes on: what the Flink Web UI and the console each cost the cluster. Benchmark only.
 */
export async function startCountingProxy(target: string, clients: string[]): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const counts = new Map<string, ClientCount>();
  const reset = () => clients.forEach((c) => counts.set(c, { requests: 0, bytes: 0, byEndpoint: new Map() }));
  reset();

  const servers = await Promise.all(
    clients.map(async (client) => {
      const server = http.createServer((req, res) => {
        const count = counts.get(client)!;
        const endpoint = endpointOf(req.url ?? '/');
        const byEndpoint = count.byEndpoint.get(endpoint) ?? { requests: 0, bytes: 0 };
        count.byEndpoint.set(endpoint, byEndpoint);
        count.requests++;
        byEndpoint.requests++;
        const forwarded = http.request(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.on('data', (chunk: Buffer) => {
              // Counted into the count of the moment: a reset between two chunks starts from the chunks after it.
              const now = counts.get(client)!;
              now.bytes += chunk.length;
              const e = now.byEndpoint.get(endpoint) ?? { requests: 0, bytes: 0 };
              now.byEndpoint.set(endpoint, e);
              e.bytes += chunk.length;
            });
            answer.pipe(res);
          },
        );
        forwarded.on('error', () => {
          if (!res.headersSent) res.writeHead(502);
          res.end();
        });
        req.pipe(forwarded);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return [client, server] as const;
    }),
  );
  const byClient = new Map(servers);
  return {
    url: (client) => `http://127.0.0.1:${(byClient.get(client)!.address() as AddressInfo).port}`,
    count: (client) => counts.get(client)!,
    reset,
    close: async () => {
      await Promise.all(
        servers.map(([, server]) => {
          server.closeAllConnections();
          return new Promise<void>((resolve) => server.close(() => resolve()));
        }),
      );
      agent.destroy();
    },
  };
}

/** `/jobs/<32 hex>/vertices/<32 hex>/subtasks/3/metrics?get=…` → `/jobs/:id/vertices/:id/subtasks/:n/metrics?get`. */
export function endpointOf(url: string): string {
  const [pathname, query] = url.split('?');
  const shape = pathname
    .split('/')
    .map((part) => (/^[0-9a-f]{32}$/i.test(part) ? ':id' : /^\d+$/.test(part) ? ':n' : part))
    .join('/');
  const keys = query ? [...new URLSearchParams(query).keys()].join('&') : '';
  return keys ? `${shape}?${keys}` : shape;
}
