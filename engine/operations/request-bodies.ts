import type { JarProgram, OperationParams } from '../contracts/operations.ts';
import type {
  JarPlanRequestBody,
  JarRunRequestBody,
  JobResourceRequirementsBody,
  SavepointTriggerRequestBody,
  StopWithSavepointRequestBody,
} from '../flink-rest/operation-schemas.ts';

/**
 * The bodies the operations send, built in one place: the spec check (operation-endpoints.spec-check.test.ts) runs
 * these very functions and checks every field against Flink's spec. Savepoints use kebab-case, stop camelCase.
 */

const FORMAT = { canonical: 'CANONICAL', native: 'NATIVE' } as const;

/** `SavepointDisposalRequest`: the path alone (Flink picks the trigger id). */
export function disposalBody(savepointPath: string): { 'savepoint-path': string } {
  return { 'savepoint-path': savepointPath };
}

export function savepointBody(params: OperationParams, triggerId: string): SavepointTriggerRequestBody {
  return {
    'target-directory': params.targetDirectory,
    'cancel-job': false,
    formatType: FORMAT[params.format ?? 'canonical'],
    triggerId,
  };
}

export function stopBody(params: OperationParams, triggerId: string): StopWithSavepointRequestBody {
  return {
    targetDirectory: params.targetDirectory,
    drain: params.drain ?? false,
    formatType: FORMAT[params.format ?? 'canonical'],
    triggerId,
  };
}

/** `POST /jars/:jarid/run` with a job id chosen beforehand: a retry finds the job instead of running a second one. */
export function jarRunBody(program: JarProgram, params: Pick<OperationParams, 'jobParallelism' | 'savepointPath' | 'allowNonRestoredState' | 'newJobId'>): JarRunRequestBody {
  return {
    ...(program.entryClass ? { entryClass: program.entryClass } : {}),
    programArgsList: program.programArgs ?? [],
    ...(params.jobParallelism !== undefined ? { parallelism: params.jobParallelism } : {}),
    ...(params.newJobId ? { jobId: params.newJobId } : {}),
    ...(params.savepointPath ? { savepointPath: params.savepointPath } : {}),
    allowNonRestoredState: params.allowNonRestoredState ?? false,
  };
}

/** `POST /jars/:jarid/plan` with the arguments of the run it previews (a plan has no savepoint and no job id). */
export function jarPlanBody(program: JarProgram, params: Pick<OperationParams, 'jobParallelism'>): JarPlanRequestBody {
  const { entryClass, programArgsList, parallelism } = jarRunBody(program, params);
  return { ...(entryClass !== undefined ? { entryClass } : {}), programArgsList, ...(parallelism !== undefined ? { parallelism } : {}) };
}

/**
 * `PUT /jobs/:jobid/resource-requirements`: every vertex (Flink requires all), the upper bound at the target, the
 * lower bound kept where it was unless that is above the target.
 */
export function resourceRequirementsBody(current: JobResourceRequirementsBody, target: Record<string, number>): JobResourceRequirementsBody {
  const out: JobResourceRequirementsBody = {};
  for (const [vertexId, { parallelism }] of Object.entries(current)) {
    const upper = target[vertexId] ?? parallelism.upperBound;
    out[vertexId] = { parallelism: { lowerBound: Math.min(parallelism.lowerBound, upper), upperBound: upper } };
  }
  return out;
}
