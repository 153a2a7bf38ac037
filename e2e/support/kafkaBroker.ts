import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

/** What `npm run kafka:up` writes about the broker it started (`.cache/kafka/<version>/broker.json`). */
export interface KafkaBroker {
  version: string;
  /** PLAINTEXT listener, `127.0.0.1:<port>`. */
  bootstrap: string;
  saslBootstrap: string;
  sslBootstrap: string;
  saslSslBootstrap: string;
  /** The test CA that signed the SSL listeners' certificate. */
  caFile: string;
  sasl: { username: string; password: string };
  /** The broker's log file. */
  log: string;
}

export function kafkaVersion(): string {
  return process.env.KAFKA_VERSION ?? '4.4.0';
}

/** The running test broker, or an error that says how to start one. */
export function readKafkaBroker(version = kafkaVersion()): KafkaBroker {
  const file = path.join(ROOT, '.cache/kafka', version, 'broker.json');
  if (!existsSync(file)) {
    throw new Error(
      `The Kafka tests need a running Kafka ${version} broker, but ${path.relative(ROOT, file)} is missing. ` +
        'Run `npm run kafka:up` first (`-- --version 3.9.2` for the other one; set KAFKA_VERSION to match).',
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as KafkaBroker;
}

let topicsNamed = 0;
/** A topic name no other test uses: the time, this process and a count (no randomness to replay). */
export function uniqueTopic(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${++topicsNamed}`;
}
