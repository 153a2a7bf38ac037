import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves `count` TaskManagers in Flink's REST shapes (`/taskmanagers`, `/taskmanagers/:id/metrics`), to measure the
 * TaskManagers panel on a cluster bigger than any test cluster here. Benchmark input only.
 */
export async function startSyntheticTaskManagersServer(count: number): Promise<{ url: string; close(): Promise<void> }> {
  const ids = Array.from({ length: count }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}:6122-${i.toString(16).padStart(6, '0')}`);
  const info = {
    taskmanagers: ids.map((id, i) => ({ id, path: `pekko.tcp://flink@${id.split('-')[0]}/user/rpc/taskmanager_0`, dataPort: 40000 + i, slotsNumber: 4, freeSlots: i % 5, timeSinceLastHeartbeat: 1 })),
  };
  const metrics = (get: string) => get.split(',').map((id) => ({ id, value: id.endsWith('Load') ? '0.42' : '123456789' }));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    let body: unknown = { errors: ['Not found'] };
    let status = 200;
    if (url.pathname === '/taskmanagers') body = info;
    else if (parts[0] === 'taskmanagers' && parts[2] === 'metrics' && ids.includes(parts[1])) body = metrics(url.searchParams.get('get') ?? '');
    else status = 404;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
