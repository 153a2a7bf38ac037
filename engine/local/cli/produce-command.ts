import type { Command } from 'commander';
import { CliError, EXIT } from '../../cli/cli-error.ts';
import { kafkaConnectionFrom, withKafkaConnection, type KafkaCliOptions } from '../../cli/kafka-options.ts';
import { DEFAULT_TRAFFIC, listScenarios, loadScenario } from '../scenarios/scenario.ts';

interface ProduceCliOptions extends KafkaCliOptions {
  topic: string;
  rate?: string;
  scenario?: string;
  events?: string;
  seed: string;
  partitions: string;
}

function wholeNumber(option: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < min) throw new CliError(EXIT.badArguments, `${option} must be a whole number ≥ ${min}, got "${raw}".`);
  return value;
}

/**
 * `flink-ops produce --brokers B --topic T --rate R --scenario hot-tenant`: GatewayMeter events to a topic at a rate,
 * with a scenario's tenant mix (hot-tenant: acme grows from 7% to 40% after 30 s), until Ctrl-C or `--events`.
 */
export function registerProduceCommand(program: Command): void {
  withKafkaConnection(
    program
      .command('produce')
      .description('Produce GatewayMeter events to a Kafka topic at a rate with a scenario\'s tenant mix (keyed by request_id).')
      .option('--topic <name>', 'the topic (created with --partitions when missing)', 'gateway-events')
      .option('--rate <events/s>', 'events per second (default: the scenario\'s)')
      .option('--scenario <name>', `tenant mix and phases (${listScenarios().join(', ') || 'none installed'}; default: uniform)`)
      .option('--events <n>', 'stop after N events (default: until Ctrl-C)')
      .option('--seed <s>', 'seed of the generated traffic', '42')
      .option('--partitions <n>', 'partitions of a topic created here', '8'),
  ).action(async (options: ProduceCliOptions) => {
    const connection = kafkaConnectionFrom(options);
    const rate = options.rate === undefined ? undefined : Number(options.rate);
    if (rate !== undefined && !(rate > 0 && Number.isFinite(rate))) throw new CliError(EXIT.badArguments, `--rate must be a positive number of events per second, got "${options.rate}".`);
    let traffic = DEFAULT_TRAFFIC;
    if (options.scenario !== undefined) {
      try {
        traffic = loadScenario(options.scenario).traffic;
      } catch (error) {
        throw new CliError(EXIT.badArguments, (error as Error).message);
      }
    }
    const events = wholeNumber('--events', options.events, 1);
    const seed = wholeNumber('--seed', options.seed, -2147483648)!;
    const partitions = wholeNumber('--partitions', options.partitions, 1)!;
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let lastPrinted = 0;
    // kafkajs loads only when this command runs.
    const [{ createKafka }, { produceGatewayEvents }] = await Promise.all([import('../../kafka/kafka-connection.ts'), import('../kafka/gateway-producer.ts')]);
    try {
      const report = await produceGatewayEvents(createKafka(connection), {
        topic: options.topic,
        generator: { ...traffic, rate: rate ?? traffic.rate, events, seed },
        paced: true,
        partitions,
        signal: abort.signal,
        brokers: connection.brokers,
        onProgress: (r) => {
          if (Date.now() - lastPrinted < 5000) return;
          lastPrinted = Date.now();
          process.stdout.write(`${r.events} events to ${options.topic}\n`);
        },
      });
      const total = Math.max(report.events, 1);
      const mix = Object.entries(report.byTenant)
        .sort((a, b) => b[1] - a[1])
        .map(([tenant, n]) => `${tenant} ${((100 * n) / total).toFixed(1)}%`)
        .join(', ');
      process.stdout.write(`${report.createdTopic ? `Created topic ${options.topic} (${partitions} partitions). ` : ''}Produced ${report.events} events to ${options.topic}: ${mix || 'none'}.\n`);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  });
}
