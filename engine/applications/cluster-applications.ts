import type { ApplicationDetail, ApplicationExceptions, ApplicationList, ApplicationSummary } from '../contracts/applications.ts';
import type { JobSummary } from '../contracts/jobs.ts';
import { applicationEndpoints } from '../flink-rest/application-endpoints.ts';
import type { ApplicationDetails, ApplicationExceptions as ExceptionsBody, ApplicationsOverview } from '../flink-rest/application-schemas.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { describeFailure } from '../operations/failure-cause.ts';
import type { z } from 'zod';

/**
 * Flink 2.3's applications as the console shows them. Before 2.3 the JobManager answers 404 to `/applications/...`:
 * the list says the cluster has none, and one application is "not found" with that reason.
 */

export const NO_APPLICATIONS = 'This cluster has no applications (Flink < 2.3): its jobs are listed on their own.';

type OverviewItem = z.output<typeof ApplicationsOverview>['applications'][number];

export function toSummary(app: Pick<OverviewItem, 'id' | 'name' | 'status' | 'start-time' | 'end-time' | 'duration'>, jobCounts: Record<string, number>): ApplicationSummary {
  return {
    id: app.id,
    name: app.name,
    state: app.status,
    startTime: app['start-time'],
    endTime: app['end-time'] > 0 ? app['end-time'] : null,
    durationMs: app.duration,
    jobCounts,
  };
}

/** Running (or about to run, or ending) first, then the most recent. */
function byActivity(a: ApplicationSummary, b: ApplicationSummary): number {
  return Number(b.endTime === null) - Number(a.endTime === null) || b.startTime - a.startTime;
}

export function toApplicationList(clusterId: string, body: z.output<typeof ApplicationsOverview>, fetchedAt: number): ApplicationList {
  const applications = body.applications.map((app) => toSummary(app, { ...app.jobs })).sort(byActivity);
  return { clusterId, supported: true, unsupported: null, applications, fetchedAt };
}

export function toApplicationDetail(clusterId: string, body: z.output<typeof ApplicationDetails>, fetchedAt: number): ApplicationDetail {
  const jobs: JobSummary[] = body.jobs.map((job) => {
    const { total: _total, ...tasks } = job.tasks;
    return { id: job.jid, name: job.name, state: job.state, startTime: job['start-time'], endTime: job['end-time'] > 0 ? job['end-time'] : null, durationMs: job.duration, tasks };
  });
  const jobCounts: Record<string, number> = {};
  for (const job of jobs) jobCounts[job.state] = (jobCounts[job.state] ?? 0) + 1;
  const timestamps = Object.fromEntries(Object.entries(body.timestamps ?? {}).filter(([, at]) => at > 0));
  return { ...toSummary(body, jobCounts), clusterId, jobs, timestamps, fetchedAt };
}

/** First line without the class; the innermost cause (for main()'s failure the program's own error). */
export function toApplicationExceptions(clusterId: string, applicationId: string, body: z.output<typeof ExceptionsBody>, fetchedAt: number): ApplicationExceptions {
  const entries = body.exceptionHistory.entries
    .map((e) => {
      const first = e.stacktrace.split('\n', 1)[0].trim();
      const message = first.startsWith(`${e.exceptionName}: `) ? first.slice(e.exceptionName.length + 2) : first === e.exceptionName ? '' : first;
      return { exceptionName: e.exceptionName, message, cause: describeFailure(e.stacktrace).detail, stackTrace: e.stacktrace, timestamp: e.timestamp, jobId: e.jobId ?? null };
    })
    .sort((a, b) => b.timestamp - a.timestamp);
  return { clusterId, applicationId, entries, fetchedAt };
}

function isNotFound(error: unknown): error is EngineError {
  return error instanceof EngineError && error.info.status === 404;
}

/** Flink 2.3 answers a GET of an unknown application with 500 and `FlinkApplicationNotFoundException`, not 404. */
function isUnknownApplication(error: unknown): boolean {
  return error instanceof EngineError && error.info.status === 500 && /Could not find Flink application|FlinkApplicationNotFoundException/.test(error.info.message);
}

export async function fetchApplications(client: FlinkRestClient, clusterId: string): Promise<ApplicationList> {
  try {
    return toApplicationList(clusterId, await client.request(applicationEndpoints.applicationsOverview), Date.now());
  } catch (error) {
    if (isNotFound(error)) return { clusterId, supported: false, unsupported: NO_APPLICATIONS, applications: [], fetchedAt: Date.now() };
    throw error;
  }
}

/** An application that is not there: unknown to a 2.3 cluster, or any id on a cluster before 2.3. */
async function notFound(client: FlinkRestClient, applicationId: string): Promise<EngineError> {
  const list = await fetchApplications(client, '').catch(() => null);
  if (list && !list.supported) return new EngineError('not-found', `${NO_APPLICATIONS.replace(/: .*$/, '')}, so no application ${applicationId}.`, { status: 404 });
  return new EngineError('not-found', `${client.baseUrl} has no application ${applicationId} (it may have ended and been archived).`, { status: 404 });
}

async function readApplication<T>(client: FlinkRestClient, applicationId: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error) || isUnknownApplication(error)) throw await notFound(client, applicationId);
    throw error;
  }
}

export function fetchApplication(client: FlinkRestClient, clusterId: string, applicationId: string): Promise<ApplicationDetail> {
  return readApplication(client, applicationId, async () =>
    toApplicationDetail(clusterId, await client.request(applicationEndpoints.applicationDetails, { applicationid: applicationId }), Date.now()),
  );
}

export function fetchApplicationExceptions(client: FlinkRestClient, clusterId: string, applicationId: string): Promise<ApplicationExceptions> {
  return readApplication(client, applicationId, async () =>
    toApplicationExceptions(clusterId, applicationId, await client.request(applicationEndpoints.applicationExceptions, { applicationid: applicationId }), Date.now()),
  );
}

/**
 * An application's state alone, for following a cancel: Flink 2.3's 500 for an application it does not know reads as
 * the 404 it means (the follow ends as "gone" instead of waiting out a silence).
 */
export async function fetchApplicationState(client: FlinkRestClient, applicationId: string): Promise<string> {
  try {
    return (await client.request(applicationEndpoints.applicationDetails, { applicationid: applicationId })).status;
  } catch (error) {
    if (isUnknownApplication(error)) throw new EngineError('not-found', `${client.baseUrl} has no application ${applicationId}.`, { status: 404 });
    throw error;
  }
}
