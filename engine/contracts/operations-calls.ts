import { z } from 'zod';
import { arg, call, optionalArg, type ServiceCalls } from './call-spec.ts';
import { OPERATION_KINDS, type OperationsApi } from './operations.ts';

/**
 * The operations service's calls as the bridge checks them, with one schema per request type: anything else is refused
 * with a sentence that names the field. The operations then check the request against the cluster.
 */

const hex32 = z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex characters');
const id = z.string().min(1);
const parallelism = z.union([z.number().int().min(1), z.record(z.string(), z.number().int().min(1))]);
const program = z.object({ jarId: id, entryClass: z.string().optional(), programArgs: z.array(z.string()).optional() });
const hotKeys = z.array(z.object({ key: id, recordsPerSecond: z.number().min(0), vertexId: z.string().optional() })).optional();
const format = z.enum(['canonical', 'native']).optional();

export const OperationRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('savepoint'), clusterId: id, jobId: hex32, triggerId: hex32, targetDirectory: z.string().optional(), format }),
  z.object({ kind: z.literal('stop'), clusterId: id, jobId: hex32, triggerId: hex32, targetDirectory: z.string().optional(), format, drain: z.boolean() }),
  z.object({ kind: z.literal('cancel'), clusterId: id, jobId: hex32, triggerId: hex32 }),
  z.object({ kind: z.literal('cancel-application'), clusterId: id, applicationId: hex32, triggerId: hex32 }),
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
  z.object({ kind: z.literal('dispose-savepoint'), clusterId: id, triggerId: hex32, savepointPath: z.string().trim().min(1, 'must name a savepoint'), jobId: hex32.optional() }),
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
export const ResubmitPlanRequestSchema = z.object({
  clusterId: id,
  jobId: hex32.optional(),
  program,
  savepointPath: z.string().optional(),
  parallelism: z.number().int().min(1).optional(),
  allowNonRestoredState: z.boolean().optional(),
});

export const JournalFilterSchema = z.object({
    clusterId: z.string().optional(),
    jobId: z.string().optional(),
    kind: z.enum(OPERATION_KINDS).optional(),
    state: z.enum(['pending', 'in-progress', 'succeeded', 'failed', 'not-started', 'unknown']).optional(),
    text: z.string().max(500).optional(),
    limit: z.number().int().min(1).optional(),
  });

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

const rescalePlanRequest = z.object({ parallelism, hotKeys });

export const OPERATIONS_CALLS: ServiceCalls<OperationsApi> = {
  context: call(clusterId, jobId),
  start: call(arg('request', OperationRequestSchema)),
  journalEntry: call(arg('id', z.string())),
  journal: call(optionalArg('filter', JournalFilterSchema)),
  exportJournal: call(arg('filter', JournalFilterSchema), arg('format', z.enum(['csv', 'json']))),
  planRescale: call(clusterId, jobId, arg('request', rescalePlanRequest)),
  planResubmit: call(arg('request', ResubmitPlanRequestSchema)),
  rescaleOutcome: call(arg('entryId', z.string())),
  beforeAfter: call(arg('entryId', z.string())),
  savepoints: call(clusterId, jobId),
  disposalImpact: call(clusterId, arg('savepointPath', z.string().min(1))),
};
