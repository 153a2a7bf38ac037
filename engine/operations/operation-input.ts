import { z } from 'zod';
import type { JournalFilter, OperationRequest, ResubmitPlanRequest } from '../contracts/engine-api.ts';
import { EngineError } from '../flink-rest/errors.ts';

/**
 * What the UI sends for the operations (through IPC or HTTP), checked at the edge with one schema per type: anything
 * else is refused with a sentence that names the field. The operations then check it against the cluster.
 */

const hex32 = z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex characters');
const id = z.string().min(1);
const parallelism = z.union([z.number().int().min(1), z.record(z.string(), z.number().int().min(1))]);
const program = z.object({ jarId: id, entryClass: z.string().optional(), programArgs: z.array(z.string()).optional() });
const hotKeys = z.array(z.object({ key: id, recordsPerSecond: z.number().min(0), vertexId: z.string().optional() })).optional();
const format = z.enum(['canonical', 'native']).optional();

const OperationRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('savepoint'), clusterId: id, jobId: hex32, triggerId: hex32, targetDirectory: z.string().optional(), format }),
  z.object({ kind: z.literal('stop'), clusterId: id, jobId: hex32, triggerId: hex32, targetDirectory: z.string().optional(), format, drain: z.boolean() }),
  z.object({ kind: z.literal('cancel'), clusterId: id, jobId: hex32, triggerId: hex32 }),
  z.object({
    kind: z.literal('rescale'),
    clusterId: id,
    jobId: hex32,
    triggerId: hex32,
    parallelism,
    route: z.enum(['adaptive', 'savepoint']).optional(),
    program: program.optional(),
    targetDirectory: z.string().optional(),
    hotKeys,
  }),
  z.object({
    kind: z.literal('resubmit'),
    clusterId: id,
    jobId: hex32.optional(),
    triggerId: hex32,
    program,
    savepointPath: z.string().optional(),
    parallelism: z.number().int().min(1).optional(),
    allowNonRestoredState: z.boolean().optional(),
  }),
]);

/** `planResubmit`: the resubmit as it will be asked for, less its kind and trigger id. */
const ResubmitPlanRequestSchema = z.object({
  clusterId: id,
  jobId: hex32.optional(),
  program,
  savepointPath: z.string().optional(),
  parallelism: z.number().int().min(1).optional(),
  allowNonRestoredState: z.boolean().optional(),
});

const JournalFilterSchema = z
  .object({
    clusterId: z.string().optional(),
    jobId: z.string().optional(),
    kind: z.enum(['savepoint', 'stop', 'cancel', 'rescale', 'resubmit']).optional(),
    state: z.enum(['pending', 'in-progress', 'succeeded', 'failed', 'not-started', 'unknown']).optional(),
    text: z.string().max(500).optional(),
    limit: z.number().int().min(1).optional(),
  })
  .optional();

function check<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.length ? `\`${issue.path.join('.')}\`` : 'the input';
  throw new EngineError('invalid-input', `${what}: ${field} ${issue.message.replace(/^Invalid input: /, '').toLowerCase()}.`);
}

export function parseOperationRequest(input: unknown): OperationRequest {
  return check(OperationRequestSchema, input, 'Operation request') as OperationRequest;
}

export function parseResubmitPlanRequest(input: unknown): ResubmitPlanRequest {
  return check(ResubmitPlanRequestSchema, input, 'Resubmit plan request');
}

export function parseJournalFilter(input: unknown): JournalFilter {
  return check(JournalFilterSchema, input, 'Journal filter') ?? {};
}
