import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { ExportsApi } from './exports.ts';

/** The exports service's calls as the bridge checks them. The report's formats are named by the engine. */

const clusterId = arg('clusterId', z.string());
const jobId = arg('jobId', z.string());

const attachments = { flameGraph: z.boolean().optional(), logExcerpt: z.boolean().optional() };

export const EXPORTS_CALLS: ServiceCalls<ExportsApi> = {
  subtaskMetrics: call(clusterId, jobId),
  skewReport: call(clusterId, jobId, arg('request', z.object({ windowMs: z.number(), format: z.string(), ...attachments }))),
  incidentBundle: call(clusterId, jobId, arg('request', z.object({ windowMs: z.number(), ...attachments }))),
};
