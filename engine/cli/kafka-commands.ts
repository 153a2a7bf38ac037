import type { Command } from 'commander';
import type { ConsumerLag, HotKeySample } from '../contracts/kafka.ts';
import { CliError, EXIT } from './cli-error.ts';
import { formatTable } from './format-table.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';
import { kafkaConnectionFrom, withKafkaConnection, type KafkaCliOptions } from './kafka-options.ts';

function positive(option: string, raw: string | undefined, integer = true): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new CliError(EXIT.badArguments, `${option} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}".`);
  }
  return value;
}

/** `lag` and `hot-keys`: a consumer group's lag and a topic's hottest keys, read-only, for terminals and scripts. */
export function registerKafkaCommands(program: Command): void {
  withKafkaConnection(
    program
      .command('lag')
      .description('Consumer lag of a group: committed offset, log-end offset and lag per partition (Flink commits on checkpoints).')
      .requiredOption('--group <id>', 'the consumer group (the Flink KafkaSource\'s group.id)')
      .option('--topic <name...>', 'only these topics (default: every topic the group committed offsets for)')
      .option('--json', 'print the lag as JSON'),
  ).action(async (options: KafkaCliOptions & { group: string; topic?: string[]; json?: boolean }) => {
    const connection = kafkaConnectionFrom(options);
    const { fetchConsumerLag, createKafka, fromKafkaFailure, withDeadline } = await kafkaModules();
    const admin = createKafka(connection).admin();
    const deadline = connection.timeoutMs! * 3;
    try {
      const lag = await withDeadline(
        (async () => {
          await admin.connect().catch((error: unknown) => {
            throw fromKafkaFailure(error, connection.brokers, 'connecting');
          });
          return fetchConsumerLag(admin, { groupId: options.group, topics: options.topic }, connection.brokers);
        })(),
        deadline,
        () => `The Kafka brokers ${connection.brokers.join(',')} did not answer within ${deadline} ms.`,
      );
      process.stdout.write(options.json ? terminalJson(lag) : printableLines(formatLag(lag)));
    } finally {
      await withDeadline(admin.disconnect(), 2000, () => '').catch(() => {});
    }
  });

  withKafkaConnection(
    program
      .command('hot-keys')
      .description('Sample a topic\'s recent records (no group joined, nothing committed) and show its hottest keys.')
      .requiredOption('--topic <name>', 'the topic')
      .requiredOption('--key-path <path>', 'where the key is in the JSON value, e.g. tenant_id or user.id')
      .option('--seconds <n>', 'read the records of the last N seconds', '60')
      .option('--records <n>', 'or read the last N records instead')
      .option('--max-records <n>', 'stop after N records (the result is then partial)', '200000')
      .option('--max-parallelism <n>', 'the keyed vertex\'s max parallelism: show each key\'s key group and subtask')
      .option('--parallelism <n>', 'the keyed vertex\'s parallelism (with --max-parallelism)')
      .option('--key-type <t>', 'how JSON numbers are hashed: long (Java Long) or int (Integer)', 'long')
      .option('--top <n>', 'how many keys to show', '20')
      .option('--sample-timeout <s>', 'stop reading after this many seconds (the result is then partial)', '30')
      .option('--json', 'print the sample as JSON'),
  ).action(
    async (
      options: KafkaCliOptions & {
        topic: string;
        keyPath: string;
        seconds: string;
        records?: string;
        maxRecords: string;
        maxParallelism?: string;
        parallelism?: string;
        keyType: string;
        top: string;
        sampleTimeout: string;
        json?: boolean;
      },
    ) => {
      const connection = kafkaConnectionFrom(options);
      const { sampleHotKeys, createKafka } = await kafkaModules();
      const maxParallelism = positive('--max-parallelism', options.maxParallelism);
      const parallelism = positive('--parallelism', options.parallelism);
      if ((maxParallelism === undefined) !== (parallelism === undefined)) throw new CliError(EXIT.badArguments, '--max-parallelism and --parallelism go together.');
      if (options.keyType !== 'long' && options.keyType !== 'int') throw new CliError(EXIT.badArguments, `--key-type must be long or int, got "${options.keyType}".`);
      const sample = await sampleHotKeys(
        createKafka(connection),
        {
          topic: options.topic,
          keyPath: options.keyPath,
          seconds: positive('--seconds', options.seconds, false),
          lastRecords: positive('--records', options.records),
          maxRecords: positive('--max-records', options.maxRecords),
          top: positive('--top', options.top),
          numericKeyType: options.keyType,
          ...(maxParallelism !== undefined ? { keyedVertex: { maxParallelism, parallelism: parallelism! } } : {}),
        },
        { brokers: connection.brokers, timeoutMs: positive('--sample-timeout', options.sampleTimeout, false)! * 1000 },
      );
      process.stdout.write(options.json ? terminalJson(sample) : printableLines(formatHotKeys(sample)));
    },
  );
}

/** kafkajs and the Kafka modules load only when a Kafka command runs: every other command starts as fast as before. */
async function kafkaModules() {
  const [lag, connection, errors, sampler] = await Promise.all([
    import('../kafka/consumer-lag.ts'),
    import('../kafka/kafka-connection.ts'),
    import('../kafka/kafka-errors.ts'),
    import('../kafka/hot-key-sampler.ts'),
  ]);
  return { ...lag, ...connection, ...errors, ...sampler };
}

function formatLag(lag: ConsumerLag): string {
  const rows = lag.partitions.map((p) => [
    p.topic,
    String(p.partition),
    p.committedOffset === null ? 'no committed offset' : String(p.committedOffset),
    String(p.logEndOffset),
    p.lag === null ? '-' : String(p.lag),
  ]);
  const without = lag.partitionsWithoutCommit > 0 ? `, ${lag.partitionsWithoutCommit} partition(s) without a committed offset` : '';
  return (
    `Group ${printable(lag.groupId)} (${printable(lag.groupState)}, ${lag.members} member(s)): total lag ${lag.totalLag}${without}\n\n` +
    formatTable(['TOPIC', 'PARTITION', 'COMMITTED', 'LOG END', 'LAG'], rows) +
    'Flink commits offsets when a checkpoint completes: the committed lag saw-tooths with the checkpoint interval.\n'
  );
}

function formatHotKeys(sample: HotKeySample): string {
  const placed = sample.keyedVertex !== undefined;
  const header = ['KEY', 'RECORDS', 'SHARE', 'RATE/S', ...(placed ? ['KEY GROUP', 'SUBTASK'] : [])];
  const rows = sample.keys.map((k) => [k.key, String(k.count), `${(k.share * 100).toFixed(1)}%`, k.ratePerSecond.toFixed(1), ...(placed ? [String(k.keyGroup), String(k.subtask)] : [])]);
  const seconds = Math.round((sample.to - sample.from) / 1000);
  const skipped = [sample.notJson > 0 ? `${sample.notJson} not JSON` : '', sample.missingKey > 0 ? `${sample.missingKey} without ${sample.keyPath}` : ''].filter(Boolean).join(', ');
  const partial = sample.partial ? `PARTIAL: ${sample.partialReason}.\n` : '';
  const busiest = sample.subtaskShares?.[0];
  const load = busiest && sample.keyedVertex ? `Busiest subtask at parallelism ${sample.keyedVertex.parallelism}: ${busiest.subtask} with ${(busiest.share * 100).toFixed(1)}% of the keyed records (even: ${(100 / sample.keyedVertex.parallelism).toFixed(1)}%).\n` : '';
  return (
    `${partial}${printable(sample.topic)}: ${sample.records} records over ${seconds} s from ${sample.partitions} partition(s), ${sample.keyed} keyed by ${sample.keyPath}, ${sample.distinctKeys} distinct keys${skipped ? ` (${skipped})` : ''}.\n\n` +
    formatTable(header, rows) +
    load
  );
}
