import type { EndpointSpec } from './endpoints.ts';
import * as schemas from './application-schemas.ts';

/**
 * The application endpoints of Flink 2.3, one stateless spec each as Flink's `XxxHeaders`. Not in the 1.19 spec the
 * others are checked against: `specSchema` names Flink's response class, and the schemas are checked against recorded
 * 2.3.0 bodies instead. Before 2.3 the JobManager answers 404 to every one of them.
 */
export const applicationEndpoints = {
  applicationsOverview: {
    method: 'GET',
    path: '/applications/overview',
    specSchema: 'MultipleApplicationsDetails (2.3)',
    response: schemas.ApplicationsOverview,
  } satisfies EndpointSpec<unknown>,
  applicationDetails: {
    method: 'GET',
    path: '/applications/:applicationid',
    specSchema: 'ApplicationDetailsInfo (2.3)',
    response: schemas.ApplicationDetails,
    echoes: { field: 'id', param: 'applicationid' },
  } satisfies EndpointSpec<unknown>,
  applicationExceptions: {
    method: 'GET',
    path: '/applications/:applicationid/exceptions',
    specSchema: 'ApplicationExceptionsInfoWithHistory (2.3)',
    response: schemas.ApplicationExceptions,
  } satisfies EndpointSpec<unknown>,
  /** Only the job's `application-id` of its details (the job page's other fields are read by the jobs service). */
  jobApplicationId: {
    method: 'GET',
    path: '/jobs/:jobid',
    specSchema: 'JobDetailsInfo (2.3: application-id)',
    response: schemas.JobApplicationId,
    maxResponseBytes: 64 * 1024 * 1024,
  } satisfies EndpointSpec<unknown>,
  /** 202 and an empty body; 404 unknown (or already ended and archived), 409 ended otherwise meanwhile, 408 timed out. */
  cancelApplication: {
    method: 'POST',
    path: '/applications/:applicationid/cancel',
    specSchema: 'EmptyResponseBody (2.3)',
    response: schemas.ApplicationCancelled,
    emptyResponse: true,
  } satisfies EndpointSpec<unknown>,
} as const;
