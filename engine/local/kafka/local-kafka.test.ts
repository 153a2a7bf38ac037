import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../flink-rest/errors.ts';
import { LocalKafka } from './local-kafka.ts';

/** A "broker" that accepts connections and never says a word; closed after each test. */
const silentBrokers: Array<{ server: net.Server; sockets: Set<net.Socket> }> = [];
afterEach(async () => {
  for (const { server, sockets } of silentBrokers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function silentBroker(): Promise<{ address: string; connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket.on('error', () => {}).on('close', () => sockets.delete(socket)));
  });
  silentBrokers.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`, connections: () => connections };
}

describe('LocalKafka.connect', () => {
  it('uses the course\'s topic names by default and says which brokers it could not reach', async () => {
    const failure = (await LocalKafka.connect({ brokers: ['127.0.0.1:1'], timeoutMs: 2000 }).catch((e: unknown) => e)) as EngineError;
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure.info.kind).toBe('refused');
    expect(failure.message).toMatch(/^Cannot reach the Kafka brokers 127\.0\.0\.1:1 while preparing the topics gateway-events and tenant-cost: connection refused/);
  });

  it('a broker that takes the connection and never answers: a timeout naming it, not a hang', async () => {
    const broker = await silentBroker();
    const failure = (await LocalKafka.connect({ brokers: [broker.address], timeoutMs: 500 }).catch((e: unknown) => e)) as EngineError;
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure.info.kind).toBe('timeout');
    expect(failure.message).toContain(`${broker.address} `);
    expect(failure.message).toMatch(/preparing the topics gateway-events and tenant-cost/);
    expect(broker.connections()).toBeGreaterThan(0);
  });

  it('refuses a partition count that is not a positive whole number', async () => {
    await expect(LocalKafka.connect({ brokers: ['127.0.0.1:1'], partitions: 0 })).rejects.toThrow(/--partitions must be a positive whole number/);
  });
});
