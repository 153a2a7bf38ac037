import { afterEach, describe, expect, it } from 'vitest';
import { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { json, startHostileServer, type HostileServer } from '../flink-rest/testdata/hostile-server.ts';
import { checkFlinkCluster } from './cluster-check.ts';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function checkError(handler: Parameters<typeof startHostileServer>[0]): Promise<EngineError> {
  server = await startHostileServer(handler);
  const error = await checkFlinkCluster(new FlinkRestClient({ baseUrl: server.url })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('checkFlinkCluster: what is not a Flink JobManager, in words a person reads', () => {
  it('a JSON API that is not Flink: says so, not in a validator\'s words', async () => {
    const error = await checkError((_req, res) => json(res, 200, { status: 'UP' }));
    expect(error.info).toMatchObject({ kind: 'not-flink', endpoint: 'GET /config' });
    expect(error.info.message).toBe(
      `${server!.url} answers JSON, but not as a Flink JobManager does (no \`flink-version\` in /config): is this the JobManager's REST URL?`,
    );
    expect(error.info.message).not.toMatch(/invalid input|expected string|received undefined/);
  });

  it('Flink\'s /config with one impossible field: names that field, as the direct request does, not a missing `flink-version`', async () => {
    const error = await checkError((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"flink-version":"2.2.1","flink-revision":"abc","refresh-interval":1e400}');
    });
    expect(error.info).toMatchObject({ kind: 'not-flink', endpoint: 'GET /config', field: 'refresh-interval' });
    expect(error.info.message).toBe(
      `${server!.url} answers /config with a \`flink-version\`, but not as a Flink JobManager does: GET /config on ${server!.url} returned an unexpected response: field \`refresh-interval\` invalid input: expected number, received Infinity.`,
    );
    expect(error.info.message).not.toMatch(/no `flink-version`/);
  });

  it('a 400 with JSON stays an HTTP answer, named with its status', async () => {
    const error = await checkError((_req, res) => json(res, 400, { errors: ['bad request'] }));
    expect(error.info).toMatchObject({ kind: 'not-flink', status: 400 });
    expect(error.info.message).toMatch(/does not look like a Flink REST API/);
  });
});
