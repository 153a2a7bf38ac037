import { z } from 'zod';
import { JobPlanInfo } from './schemas.ts';

/**
 * The write side of Flink's REST API the operations use: trigger bodies and answers, the async-operation status,
 * job status, resource requirements, jars. Names follow the official spec (checked by
 * operation-endpoints.spec-check.test.ts); unknown fields pass through.
 */

const triggerId = z.string().regex(/^[0-9a-f]{32}$/);

/** `TriggerResponse` of `POST /jobs/:jobid/savepoints` and `POST /jobs/:jobid/stop`. */
export const TriggerResponse = z.object({ 'request-id': triggerId });

/** `SerializedThrowable` on the wire: the class, Flink's stack trace text, and the Java-serialized throwable. */
export const SerializedThrowable = z.object({
  class: z.string().optional(),
  'stack-trace': z.string().optional(),
  'serialized-throwable': z.string().optional(),
});

/** `AsynchronousOperationResult` of `GET /jobs/:jobid/savepoints/:triggerid`: "COMPLETED" covers failures too. */
export const SavepointStatus = z.object({
  status: z.object({ id: z.enum(['IN_PROGRESS', 'COMPLETED']) }),
  operation: z
    .object({
      location: z.string().optional(),
      'failure-cause': SerializedThrowable.optional(),
    })
    .nullable()
    .optional(),
});

/** `JobStatusInfo` of `GET /jobs/:jobid/status`. */
export const JobStatusInfo = z.object({ status: z.string() });

/** `JobResourceRequirementsBody`: vertex id → parallelism bounds (adaptive scheduler). */
export const JobResourceRequirements = z.record(
  z.string(),
  z.object({ parallelism: z.object({ lowerBound: z.number().int(), upperBound: z.number().int() }) }),
);

/** `EmptyResponseBody` (cancel, resource requirements): `{}` or nothing. */
export const EmptyResponse = z.object({});

/** `GET /config`'s `features`: whether the cluster accepts jar submissions (`web.submit.enable`). */
export const DashboardFeatures = z.object({
  'flink-version': z.string().optional(),
  features: z
    .object({ 'web-submit': z.boolean().optional(), 'web-cancel': z.boolean().optional(), 'web-rescale': z.boolean().optional() })
    .optional(),
});

/** `GET /jobmanager/config` and `GET /jobs/:jobid/jobmanager/config`: key/value strings. */
export const ConfigurationEntries = z.array(z.object({ key: z.string(), value: z.string() }));

/** `JarListInfo` of `GET /jars`. */
export const JarListInfo = z.object({
  address: z.string().optional(),
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      uploaded: z.number().optional(),
      entry: z.array(z.object({ name: z.string(), description: z.string().nullable().optional() })).optional(),
    }),
  ),
});

/** `JobPlanInfo` of `POST /jars/:jarid/plan`: the same plan as `GET /jobs/:jobid/plan`. */
export const JarPlan = JobPlanInfo;

/** `JarUploadResponseBody` of `POST /jars/upload`: the stored file's path (its file name is the jar id). */
export const JarUploadResponse = z.object({ filename: z.string(), status: z.string().optional() });

/** `AsynchronousOperationResult` of `GET /savepoint-disposal/:triggerid`: COMPLETED with or without a failure cause. */
export const SavepointDisposalStatus = z.object({
  status: z.object({ id: z.enum(['IN_PROGRESS', 'COMPLETED']) }),
  operation: z.object({ 'failure-cause': SerializedThrowable.optional() }).nullable().optional(),
});

/** `JarRunResponseBody` of `POST /jars/:jarid/run`. */
export const JarRunResponse = z.object({ jobid: z.string() });

/**
 * `GET /jobs/:jobid/config`. The spec names the fields `jobId`/`executionConfigInfo`; Flink sends `jid` and
 * `execution-config` (both read). `user-config` holds the job's global parameters, often its program arguments.
 */
export const JobConfig = z.object({
  'execution-config': z
    .object({
      'job-parallelism': z.number().optional(),
      'user-config': z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  executionConfigInfo: z
    .object({
      'job-parallelism': z.number().optional(),
      'user-config': z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

/** `GET /jobs/:jobid/execution-result`: the failure of a job that ended (the only place a failed restore says why). */
export const JobExecutionResult = z.object({
  status: z.object({ id: z.string() }),
  'job-execution-result': z
    .object({
      'application-status': z.string().optional(),
      'failure-cause': SerializedThrowable.nullable().optional(),
    })
    .optional(),
});

/** `GET /jobs/:jobid/exceptions`: the newest root exception. */
export const JobExceptions = z.object({
  exceptionHistory: z
    .object({
      entries: z.array(z.object({ exceptionName: z.string().optional(), stacktrace: z.string().optional(), timestamp: z.number().optional() })),
    })
    .optional(),
  'root-exception': z.string().nullable().optional(),
});

/** One entry of the checkpoint history, with what a savepoint listing needs. */
const CheckpointHistoryEntry = z.object({
  id: z.number().int(),
  status: z.string(),
  is_savepoint: z.boolean().optional(),
  savepointFormat: z.string().nullable().optional(),
  checkpoint_type: z.string().optional(),
  trigger_timestamp: z.number(),
  latest_ack_timestamp: z.number().optional(),
  external_path: z.string().nullable().optional(),
  discarded: z.boolean().optional(),
  /** Bytes persisted by this checkpoint (the savepoint's size, which a disposal frees). */
  checkpointed_size: z.number().optional(),
});

/** `GET /jobs/:jobid/checkpoints`, for its savepoints: the history (the last `web.checkpoints.history`) and `latest`. */
export const SavepointHistory = z.object({
  latest: z
    .object({
      savepoint: CheckpointHistoryEntry.nullable().optional(),
      restored: z
        .object({ id: z.number().int(), is_savepoint: z.boolean().optional(), external_path: z.string().nullable().optional(), restore_timestamp: z.number().optional() })
        .nullable()
        .optional(),
    })
    .optional(),
  history: z.array(CheckpointHistoryEntry).optional(),
});

/** The request bodies, as Flink's JSON mapper reads them (kebab-case for savepoints, camelCase for stop). */
export interface SavepointTriggerRequestBody {
  'target-directory'?: string;
  'cancel-job'?: boolean;
  formatType?: 'CANONICAL' | 'NATIVE';
  triggerId?: string;
}

export interface StopWithSavepointRequestBody {
  targetDirectory?: string;
  drain?: boolean;
  formatType?: 'CANONICAL' | 'NATIVE';
  triggerId?: string;
}

export interface JarPlanRequestBody {
  entryClass?: string;
  programArgsList?: string[];
  parallelism?: number;
}

export interface JarRunRequestBody {
  entryClass?: string;
  programArgsList?: string[];
  parallelism?: number;
  jobId?: string;
  allowNonRestoredState?: boolean;
  savepointPath?: string;
}

export type JobResourceRequirementsBody = z.infer<typeof JobResourceRequirements>;
