import { z } from 'zod';
import { JOB_STATUSES, JobsOverview } from './schemas.ts';

/**
 * Flink 2.3's applications (FLIP-549): every job belongs to one, a `/jars/:id/run` job to its own
 * `SingleJobApplication(<job name>)`. Shapes as Flink 2.3.0 sends them (`ApplicationsOverviewHandler`,
 * `ApplicationDetailsHandler`, `ApplicationExceptionsInfoWithHistory`), checked against the recorded bodies in
 * e2e/flink/recorded/2.3.0/applications-*.json; the 1.19 spec the other schemas are checked against has none of them.
 */

/** Flink's `ApplicationState`: the keys of an application's `timestamps` (CANCELING with one L, unlike JobStatus). */
export const APPLICATION_STATUSES = ['CREATED', 'RUNNING', 'FAILING', 'FAILED', 'CANCELING', 'CANCELED', 'FINISHED'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
const applicationStatus = z.enum(APPLICATION_STATUSES, { error: 'Is not one of Flink\'s application states (ApplicationState)' });
const hex32 = z.string().regex(/^[0-9a-f]{32}$/, 'Is not a Flink id (32 hex characters)');
const time = z.number().int().min(-1);
const count = z.number().int().nonnegative();

/** `GET /applications/overview`: `jobs` counts the application's jobs by state (`{"RUNNING": 1}`, `{}` when none ran). */
export const ApplicationsOverview = z.object({
  applications: z.array(
    z.object({
      id: hex32,
      name: z.string(),
      status: applicationStatus,
      'start-time': time,
      'end-time': time,
      duration: z.number(),
      jobs: z.partialRecord(z.enum(JOB_STATUSES, { error: 'Is not one of Flink\'s job states (JobStatus)' }), count),
    }),
  ),
});

/** `GET /applications/:applicationid`: its jobs as `/jobs/overview` lists them (empty when main() failed before any). */
export const ApplicationDetails = z.object({
  id: hex32,
  name: z.string(),
  status: applicationStatus,
  'start-time': time,
  'end-time': time,
  duration: z.number(),
  timestamps: z.record(z.string(), time).optional(),
  jobs: z.array(JobsOverview.shape.jobs.element),
});

/**
 * `GET /applications/:applicationid/exceptions`: the application's failures, a job's (with its `jobId`) or the
 * program's own (main() threw: no `jobId`).
 */
export const ApplicationExceptions = z.object({
  exceptionHistory: z.object({
    entries: z.array(z.object({ exceptionName: z.string(), stacktrace: z.string(), timestamp: time, jobId: hex32.optional() })),
  }),
});

/** `application-id` of `GET /jobs/:jobid` (2.3): the job's application; absent before 2.3. */
export const JobApplicationId = z.object({ 'application-id': hex32.optional() });

/** `POST /applications/:applicationid/cancel`: 202 with an empty body. */
export const ApplicationCancelled = z.object({});
