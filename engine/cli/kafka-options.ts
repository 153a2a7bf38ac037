import type { Command } from 'commander';
import { parseBootstrapServers } from '../kafka/kafka-settings.ts';
import type { KafkaConnectionOptions } from '../kafka/kafka-connection.ts';
import { CliError, EXIT } from './cli-error.ts';

/** The connection options every Kafka command takes (commander's camel-cased names). */
export interface KafkaCliOptions {
  brokers: string;
  tls?: boolean;
  caFile?: string;
  saslMechanism?: string;
  saslUser?: string;
  clientId?: string;
  timeout: string;
}

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** Adds --brokers, TLS, SASL and --timeout to a command. `brokersFlag` renames --brokers (the engine's --kafka-brokers). */
export function withKafkaConnection(command: Command, { required = true, prefix = '' } = {}): Command {
  const flag = (name: string) => `--${prefix}${name}`;
  const brokers = `${flag('brokers')} <host:port,...>`;
  (required ? command.requiredOption(brokers, 'Kafka bootstrap servers') : command.option(brokers, 'Kafka bootstrap servers'))
    .option(flag('tls'), 'connect with TLS (certificates are always verified)')
    .option(`${flag('ca-file')} <pem>`, 'extra CA certificates for TLS (implies TLS)')
    .option(`${flag('sasl-mechanism')} <m>`, `SASL: ${MECHANISMS.join(', ')} (password from FLINK_OPS_KAFKA_PASSWORD)`)
    .option(`${flag('sasl-user')} <name>`, 'SASL user name')
    .option(`${flag('client-id')} <id>`, 'Kafka client id (default flink-ops-console)');
  if (prefix === '') command.option('--timeout <ms>', 'Kafka request timeout in ms', '10000');
  return command;
}

/** Checks the options and reads the SASL password from the environment (never from the command line). */
export function kafkaConnectionFrom(options: KafkaCliOptions, env: NodeJS.ProcessEnv = process.env): KafkaConnectionOptions {
  const timeoutMs = Number(options.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 500) throw new CliError(EXIT.badArguments, `--timeout must be a whole number of ms ≥ 500, not "${options.timeout}".`);
  let brokers: string[];
  try {
    brokers = parseBootstrapServers(options.brokers);
  } catch (error) {
    throw new CliError(EXIT.badArguments, `--brokers: ${(error as Error).message}`);
  }
  let sasl: KafkaConnectionOptions['sasl'];
  if (options.saslMechanism !== undefined) {
    const mechanism = options.saslMechanism.toLowerCase();
    if (!(MECHANISMS as readonly string[]).includes(mechanism)) throw new CliError(EXIT.badArguments, `Unknown --sasl-mechanism "${options.saslMechanism}": use ${MECHANISMS.join(', ')}.`);
    if (!options.saslUser) throw new CliError(EXIT.badArguments, '--sasl-mechanism needs --sasl-user.');
    const password = env.FLINK_OPS_KAFKA_PASSWORD;
    if (password === undefined) throw new CliError(EXIT.badArguments, 'SASL needs the password in FLINK_OPS_KAFKA_PASSWORD (never on the command line).');
    sasl = { mechanism: mechanism as (typeof MECHANISMS)[number], username: options.saslUser, password };
  } else if (options.saslUser) {
    throw new CliError(EXIT.badArguments, '--sasl-user needs --sasl-mechanism.');
  }
  return { brokers, tls: Boolean(options.tls || options.caFile), caFile: options.caFile, sasl, clientId: options.clientId, timeoutMs };
}
