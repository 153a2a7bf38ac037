import { createServer, request as httpRequest, type Server } from 'node:http';

/** One request that went through the proxy: method and path with its query, as the client sent it. */
export interface ProxiedRequest {
  method: string;
  path: string;
  t: number;
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`: give it to the console instead of the JobManager's URL. */
  url: string;
  /** The requests so far, oldest first. */
  requests(): ProxiedRequest[];
  /** Forgets the requests so far (a test counts from here). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A plain HTTP proxy on loopback in front of a real JobManager that remembers every request: what a test counts to
 * say what the console asked the JobManager. Answers pass through unchanged (status, headers, body).
 */
export async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  let seen: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', t: Date.now() });
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    reset: () => {
      seen = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
