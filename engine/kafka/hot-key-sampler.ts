import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import type { HotKeySample } from '../contracts/kafka.ts';
import { KeyTally, summarizeHotKeys, type NumericKeyType } from '../analysis/hot-keys.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { allPartitionsAssigner } from './all-partitions-assigner.ts';
import { fromKafkaFailure, isCoordinatorNotReady, withDeadline } from './kafka-errors.ts';
import { KeyPathError, parseKeyPath, readKeyPath, type KeyPath } from './key-path.ts';

export interface HotKeySampleRequest {
  topic: string;
  keyPath: string;
  /** Read the records of the last N seconds (by record timestamp). @default 60 */
  seconds?: number;
  /** Or read the last N records of the topic (spread over its partitions) instead of a time window. */
  lastRecords?: number;
  /** Stop after this many records (the sample is then partial). @default 200000 */
  maxRecords?: number;
  keyedVertex?: { maxParallelism: number; parallelism: number };
  /** @default 20 */
  top?: number;
  /** How JSON whole numbers are hashed (the job's key type). @default 'long' */
  numericKeyType?: NumericKeyType;
}

export interface SamplerOptions {
  brokers: readonly string[];
  /** The whole sample, reading included, ends by then (partial when reading had to stop). @default 30000 */
  timeoutMs?: number;
  now?: () => number;
  /** After each batch of records read, with the records read so far (progress). */
  onProgress?: (records: number) => void;
}

interface PartitionRange {
  partition: number;
  /** First offset to read. */
  start: number;
  /** Offset to stop before: the log end when the sample started. */
  end: number;
  /** Next offset expected (progress). */
  next: number;
}

export const DEFAULT_SAMPLE_SECONDS = 60;
export const DEFAULT_MAX_SAMPLE_RECORDS = 200_000;

/** What one record's value contributes: parsed and keyed, not JSON, or without the key path. */
export interface ValueCounts {
  records: number;
  notJson: number;
  missingKey: number;
}

/** Parses a record value as JSON and counts its key; pure apart from the tally it feeds (benchmarked). */
export function tallyValue(value: Buffer | null, path: KeyPath, tally: KeyTally, counts: ValueCounts): void {
  counts.records++;
  if (value === null || value.length === 0) {
    counts.notJson++;
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    counts.notJson++;
    return;
  }
  const key = readKeyPath(parsed, path);
  if (key === undefined || key === null) counts.missingKey++;
  else tally.add(key);
}

/**
 * Samples a topic's keys: the records of the last N seconds (offsets by timestamp, up to the log end when it starts),
 * each value parsed as JSON and keyed by a path. It never joins the job's group and never commits: kafkajs cannot
 * assign partitions without a group, so it reads in a throwaway group (`flink-ops-sampler-<uuid>`, every partition
 * to itself, deleted afterwards) with auto-commit off. Whatever stops the reading early — the time limit, the record
 * cap, brokers going away — gives a result labelled partial with the reason, never a hang.
 */
export async function sampleHotKeys(kafka: Kafka, request: HotKeySampleRequest, options: SamplerOptions): Promise<HotKeySample> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const topic = request.topic.trim();
  if (topic === '') throw new EngineError('invalid-input', 'Which topic? The topic name is empty.');
  let path: KeyPath;
  try {
    path = parseKeyPath(request.keyPath);
  } catch (error) {
    if (error instanceof KeyPathError) throw new EngineError('invalid-input', error.message);
    throw error;
  }
  const seconds = request.seconds ?? DEFAULT_SAMPLE_SECONDS;
  if (request.lastRecords === undefined && !(seconds > 0)) throw new EngineError('invalid-input', `The sample needs a positive number of seconds, got ${seconds}.`);
  if (request.lastRecords !== undefined && !(Number.isInteger(request.lastRecords) && request.lastRecords > 0)) {
    throw new EngineError('invalid-input', `The sample needs a positive whole number of records, got ${request.lastRecords}.`);
  }
  const maxRecords = request.maxRecords ?? DEFAULT_MAX_SAMPLE_RECORDS;
  const tally = new KeyTally(request.numericKeyType ?? 'long');
  if (request.keyedVertex) summarizeHotKeys(tally, { spanMs: 1, keyedVertex: request.keyedVertex }); // bad bounds fail before any I/O
  const counts: ValueCounts = { records: 0, notJson: 0, missingKey: 0 };
  const to = now();
  const from = request.lastRecords === undefined ? to - seconds * 1000 : Number.NaN;
  const brokers = options.brokers;
  const fail = (error: unknown, what: string) => {
    const failure = fromKafkaFailure(error, brokers, what);
    return failure.info.kind === 'not-found' ? new EngineError('not-found', `Topic "${topic}" does not exist on ${brokers.join(',')}.`) : failure;
  };
  const left = () => Math.max(1, deadline - Date.now());

  // 1. Where to start and where to stop, per partition.
  const admin = kafka.admin();
  let ranges: PartitionRange[];
  try {
    ranges = await withDeadline(
      (async () => {
        await admin.connect();
        const ends = await admin.fetchTopicOffsets(topic);
        const starts =
          request.lastRecords === undefined
            ? new Map((await admin.fetchTopicOffsetsByTimestamp(topic, from)).map((p) => [p.partition, Number(p.offset)]))
            : new Map(ends.map((p) => [p.partition, Math.max(Number(p.low), Number(p.high) - Math.ceil(request.lastRecords! / ends.length))]));
        return ends
          .map((p) => {
            const end = Number(p.high);
            const start = Math.max(Number(p.low), starts.get(p.partition) ?? end);
            // ListOffsets by timestamp answers -1 when no record is that recent: nothing to read there.
            const first = start < 0 ? end : Math.min(start, end);
            return { partition: p.partition, start: first, end, next: first };
          })
          .sort((a, b) => a.partition - b.partition);
      })(),
      left(),
      () => `The Kafka brokers ${brokers.join(',')} did not answer within ${timeoutMs} ms while looking up the offsets of "${topic}".`,
    );
  } catch (error) {
    await withDeadline(admin.disconnect(), 2000, () => '').catch(() => {});
    throw fail(error, `looking up the offsets of "${topic}"`);
  }

  // 2. Read every range to its end.
  const groupId = `flink-ops-sampler-${randomUUID()}`;
  let partialReason: string | undefined;
  let minTs = Number.POSITIVE_INFINITY;
  let maxTs = Number.NEGATIVE_INFINITY;
  const pending = new Map(ranges.filter((r) => r.start < r.end).map((r) => [r.partition, r]));
  let consumer: Consumer | undefined;
  if (pending.size > 0) {
    consumer = kafka.consumer({ groupId, partitionAssigners: [allPartitionsAssigner], maxWaitTimeInMs: 250, sessionTimeout: 10_000, heartbeatInterval: 1000, retry: { retries: 2 } });
    const done = new Promise<void>((resolve) => {
      const finish = (reason?: string) => {
        if (reason !== undefined && partialReason === undefined && pending.size > 0) partialReason = reason;
        resolve();
      };
      const timer = setTimeout(() => finish(`stopped after ${timeoutMs / 1000} s with ${pending.size} of ${ranges.length} partitions not read to the end`), left());
      consumer!.on(consumer!.events.CRASH, (event) => {
        // A group coordinator still loading (a fresh broker's first group) is kafkajs's to retry, within the timer.
        if (event.payload.restart && isCoordinatorNotReady(event.payload.error)) return;
        finish(`the brokers went away while reading: ${fail(event.payload.error, 'reading').message}`);
      });
      const consumerReady = async () => {
        await consumer!.connect();
        await consumer!.subscribe({ topics: [topic] });
        // Each join (a restarted consumer joins again) starts every partition where its reading stands.
        const joined = new Promise<void>((r) =>
          consumer!.on(consumer!.events.GROUP_JOIN, () => {
            for (const range of pending.values()) consumer!.seek({ topic, partition: range.partition, offset: String(range.next) });
            r();
          }),
        );
        await consumer!.run({
          autoCommit: false,
          eachBatch: async ({ batch, isStale }) => {
            const range = pending.get(batch.partition);
            if (!range || isStale()) return;
            for (const message of batch.messages) {
              const offset = Number(message.offset);
              if (offset < range.next || offset >= range.end) continue;
              range.next = offset + 1;
              const ts = Number(message.timestamp);
              // The offsets come from the window's start time, but a record with an older timestamp can follow them.
              if (ts < from) continue;
              tallyValue(message.value, path, tally, counts);
              if (ts < minTs) minTs = ts;
              if (ts > maxTs) maxTs = ts;
              if (counts.records >= maxRecords) {
                if (range.next >= range.end) pending.delete(batch.partition);
                clearTimeout(timer);
                return finish(`stopped at the cap of ${maxRecords} records`);
              }
            }
            options.onProgress?.(counts.records);
            // Offsets may skip (compaction, transaction markers): the batch's last offset moves the range too.
            range.next = Math.max(range.next, Number(batch.lastOffset()) + 1);
            if (range.next >= range.end) pending.delete(batch.partition);
            if (pending.size === 0) {
              clearTimeout(timer);
              finish();
            }
          },
        });
        await joined;
      };
      consumerReady().catch((error: unknown) => {
        clearTimeout(timer);
        finish(`could not read: ${fail(error, `reading "${topic}"`).message}`);
      });
    });
    await done;
  }

  // 3. Leave nothing behind: stop the consumer and delete the throwaway group (bounded: a dead broker must not hang).
  const cleanup = async () => {
    await consumer?.disconnect();
    if (consumer) await admin.deleteGroups([groupId]).catch(() => {});
    await admin.disconnect();
  };
  await withDeadline(cleanup(), 5000, () => 'cleanup').catch(() => {});

  if (counts.records === 0 && partialReason !== undefined && /could not read|went away/.test(partialReason)) {
    throw new EngineError('network', `No record could be read from "${topic}": ${partialReason}.`);
  }
  const partial = partialReason !== undefined;
  const windowFrom = Number.isNaN(from) ? (Number.isFinite(minTs) ? minTs : to) : from;
  // A partial sample covers the time up to the newest record read, not the whole window.
  const windowTo = partial && Number.isFinite(maxTs) ? Math.min(to, maxTs) : to;
  const summary = summarizeHotKeys(tally, { spanMs: windowTo - windowFrom, top: request.top, keyedVertex: request.keyedVertex });
  return {
    topic,
    keyPath: request.keyPath.trim(),
    from: windowFrom,
    to: windowTo,
    records: counts.records,
    keyed: tally.keyed,
    notJson: counts.notJson,
    missingKey: counts.missingKey + tally.unkeyable,
    distinctKeys: summary.distinctKeys,
    keys: summary.keys,
    ...(summary.subtaskShares ? { subtaskShares: summary.subtaskShares } : {}),
    ...(request.keyedVertex ? { keyedVertex: request.keyedVertex } : {}),
    partial,
    ...(partialReason !== undefined ? { partialReason } : {}),
    partitions: ranges.length,
    sampledAt: now(),
  };
}
