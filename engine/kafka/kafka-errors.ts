import { EngineError } from '../flink-rest/errors.ts';

/**
 * kafkajs failures as the console reports them: one sentence naming the brokers and what to do, with the kind the
 * CLI maps to its exit codes (refused, dns, tls, timeout, unauthorized → 3, the brokers cannot be used; not-found → 1).
 */

interface KafkaJsErrorLike {
  name?: string;
  message?: string;
  code?: string;
  type?: string;
  originalError?: unknown;
  cause?: unknown;
  retryCount?: number;
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL|EPROTO/;

/** The innermost error kafkajs wrapped (retries, non-retriable wrappers). */
function innermost(error: unknown): KafkaJsErrorLike {
  let current = error as KafkaJsErrorLike;
  for (let i = 0; i < 8; i++) {
    const inner = (current?.originalError ?? current?.cause) as KafkaJsErrorLike | undefined;
    if (!inner || typeof inner !== 'object') break;
    current = inner;
  }
  return current ?? {};
}

/** First line, without kafkajs' "Connection error: " prefix. */
function reason(error: KafkaJsErrorLike): string {
  return String(error.message ?? error).split('\n')[0].replace(/^Connection error: /, '');
}

/** Maps any failure of a Kafka call to an EngineError; `brokers` and `what` make the sentence. */
export function fromKafkaFailure(error: unknown, brokers: readonly string[], what: string): EngineError {
  if (error instanceof EngineError) return error;
  const inner = innermost(error);
  const outer = error as KafkaJsErrorLike;
  const at = brokers.join(',');
  const code = inner.code ?? outer.code ?? '';
  const name = inner.name ?? '';
  const why = reason(inner);
  if (name === 'KafkaJSSASLAuthenticationError' || outer.name === 'KafkaJSSASLAuthenticationError') {
    return new EngineError('unauthorized', `Kafka at ${at} rejected the SASL credentials while ${what}: ${why.replace(/^SASL \S+ (\S+ )?authentication failed: /, '')}. Check the mechanism, user and password.`);
  }
  if (code === 'ECONNREFUSED') return new EngineError('refused', `Cannot reach the Kafka brokers ${at} while ${what}: connection refused (nothing listens there). Check the bootstrap servers.`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new EngineError('dns', `Cannot resolve the Kafka brokers ${at} (DNS) while ${what}: check the bootstrap servers.`);
  if (TLS_CODES.test(code) || /certificate|SSL routines|wrong version number/i.test(why)) {
    return new EngineError('tls', `TLS to the Kafka brokers ${at} failed while ${what} (${why}): add the brokers' CA file, or turn TLS off for a plaintext listener.`);
  }
  if (name === 'KafkaJSConnectionClosedError' || code === 'ECONNRESET' || code === 'EPIPE') {
    return new EngineError('network', `The Kafka brokers ${at} closed the connection while ${what} (${why}): a TLS or SASL listener spoken to in plaintext, or a broker going away.`);
  }
  // kafkajs drops a connection whose requests time out; its retries then meet "Broker not connected".
  if (name === 'KafkaJSRequestTimeoutError' || /timeout|timed out|^Broker not connected$/i.test(why) || code === 'ETIMEDOUT') {
    return new EngineError('timeout', `The Kafka brokers ${at} did not answer in time while ${what} (${why}).`);
  }
  if (inner.type === 'UNKNOWN_TOPIC_OR_PARTITION') return new EngineError('not-found', `A topic does not exist on ${at} (${what}).`);
  if (inner.type === 'GROUP_AUTHORIZATION_FAILED' || inner.type === 'TOPIC_AUTHORIZATION_FAILED' || inner.type === 'CLUSTER_AUTHORIZATION_FAILED') {
    return new EngineError('forbidden', `Kafka at ${at} refused ${what}: ${why} (ACLs).`);
  }
  if (name === 'KafkaJSBrokerNotFound' || name === 'KafkaJSConnectionError' || name === 'KafkaJSNumberOfRetriesExceeded') {
    return new EngineError('network', `Cannot reach the Kafka brokers ${at} while ${what}: ${why}.`);
  }
  return new EngineError('internal', `Kafka at ${at} failed while ${what}: ${why}.`);
}

/**
 * Resolves as `promise`, or rejects with a timeout EngineError after `ms` (kafkajs retries on its own schedule; this
 * bounds every call the console makes, so nothing hangs past its timeout).
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EngineError('timeout', message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Kafka's answers while a group's coordinator is moving or loading its offsets: the broker is there, the group not yet. */
const COORDINATOR_NOT_READY = new Set(['COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR', 'REBALANCE_IN_PROGRESS']);

export function isCoordinatorNotReady(error: unknown): boolean {
  for (let e = error as { type?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.type === 'string' && COORDINATOR_NOT_READY.has(e.type)) return true;
  }
  return false;
}
