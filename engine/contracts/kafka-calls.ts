import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { ConsumerLagQuery, HotKeySampleQuery, KafkaApi, KafkaSettingsInput } from './kafka.ts';

/** The Kafka service's calls as the bridge checks them. Brokers, key paths and bounds are judged by the engine. */

const clusterId = arg('clusterId', z.string());

const settingsInput: z.ZodType<KafkaSettingsInput> = z.object({
  bootstrapServers: z.string(),
  tls: z.boolean(),
  caFile: z.string().optional(),
  sasl: z.discriminatedUnion('mechanism', [
    z.object({ mechanism: z.literal('none') }),
    z.object({ mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']), username: z.string(), password: z.string().optional() }),
  ]),
  clientId: z.string().optional(),
  timeoutMs: z.number().optional(),
});

const lagQuery: z.ZodType<ConsumerLagQuery> = z.object({
  groupId: z.string(),
  topics: z.array(z.string()).optional(),
  jobId: z.string().optional(),
});

const hotKeyQuery: z.ZodType<HotKeySampleQuery> = z.object({
  topic: z.string(),
  keyPath: z.string(),
  seconds: z.number().optional(),
  maxRecords: z.number().optional(),
  keyedVertex: z.object({ maxParallelism: z.number(), parallelism: z.number() }).optional(),
  top: z.number().optional(),
});

export const KAFKA_CALLS: ServiceCalls<KafkaApi> = {
  settings: call(clusterId),
  saveSettings: call(clusterId, arg('input', settingsInput)),
  removeSettings: call(clusterId),
  source: call(clusterId, arg('jobId', z.string())),
  consumerLag: call(clusterId, arg('query', lagQuery)),
  lagHistory: call(clusterId, arg('groupId', z.string()), arg('sinceMs', z.number())),
  sampleHotKeys: call(clusterId, arg('query', hotKeyQuery)),
};
