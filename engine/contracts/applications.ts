/** The applications service: Flink 2.3's applications (every job belongs to one), their jobs and their exceptions. */

import type { JobSummary } from './jobs.ts';

export interface ApplicationsApi {
  /**
   * The cluster's applications (`GET /applications/overview`, 1 request), running first, then the most recent. A
   * cluster before Flink 2.3 has none: `supported` is false and `unsupported` says so.
   */
  list(clusterId: string): Promise<ApplicationList>;
  /** One application and its jobs (`GET /applications/:id`). */
  application(clusterId: string, applicationId: string): Promise<ApplicationDetail>;
  /** Its exceptions, newest first (`GET /applications/:id/exceptions`): its jobs' failures and main()'s own. */
  exceptions(clusterId: string, applicationId: string): Promise<ApplicationExceptions>;
  /** The application a job belongs to (`application-id` of `GET /jobs/:id`, Flink 2.3); null before 2.3. */
  applicationOfJob(clusterId: string, jobId: string): Promise<{ applicationId: string } | null>;
}

/** Flink's ApplicationState (`CANCELING` with one L, unlike a job's `CANCELLING`); a string so newer states pass. */
export type ApplicationState = string;

export interface ApplicationList {
  clusterId: string;
  /** false before Flink 2.3 (the JobManager has no `/applications`). */
  supported: boolean;
  /** Why there are no applications to show, in words; null when supported. */
  unsupported: string | null;
  applications: ApplicationSummary[];
  fetchedAt: number;
}

export interface ApplicationSummary {
  id: string;
  /** `SingleJobApplication(<job name>)` for a job run through `/jars/:id/run`, else the program's main class. */
  name: string;
  state: ApplicationState;
  startTime: number;
  /** null while the application runs. */
  endTime: number | null;
  durationMs: number;
  /** Its jobs by JobStatus, e.g. `{ RUNNING: 1 }`; empty when main() ended before submitting any. */
  jobCounts: Record<string, number>;
}

export interface ApplicationDetail extends ApplicationSummary {
  clusterId: string;
  jobs: JobSummary[];
  /** When it reached each state it has been in (epoch ms), as Flink's `timestamps` (0 = never): the others left out. */
  timestamps: Record<string, number>;
  fetchedAt: number;
}

export interface ApplicationExceptions {
  clusterId: string;
  applicationId: string;
  /** Newest first. */
  entries: ApplicationExceptionEntry[];
  fetchedAt: number;
}

export interface ApplicationExceptionEntry {
  /** Java class name of the outermost exception. */
  exceptionName: string;
  /** The first line of the trace, without the class name. */
  message: string;
  /** The innermost "Caused by" message: for a failed main() the program's own error. */
  cause: string;
  stackTrace: string;
  timestamp: number;
  /** The job it came from; null when the program (main()) failed, not a job. */
  jobId: string | null;
}
