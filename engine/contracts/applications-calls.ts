import { z } from 'zod';
import type { ApplicationsApi } from './applications.ts';
import { arg, call, type ServiceCalls } from './call-spec.ts';

/** The applications service's calls as the bridge checks them. Ids are text here; the engine checks they are Flink ids. */

const clusterId = arg('clusterId', z.string());
const applicationId = arg('applicationId', z.string());

export const APPLICATIONS_CALLS: ServiceCalls<ApplicationsApi> = {
  list: call(clusterId),
  application: call(clusterId, applicationId),
  exceptions: call(clusterId, applicationId),
  applicationOfJob: call(clusterId, arg('jobId', z.string())),
};
