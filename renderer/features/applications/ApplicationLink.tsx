import { useEffect, useState, type ReactNode } from 'react';
import { hrefFor } from '../../app/useHashRoute';
import { testIds } from '../../testIds';
import { useApplicationsApi } from './api';

/** The job page's link to its application (Flink 2.3's `application-id`); nothing before 2.3 or when it cannot be read. */
export function ApplicationLink({ clusterId, jobId }: { clusterId: string; jobId: string }): ReactNode {
  const applicationsApi = useApplicationsApi();
  const [applicationId, setApplicationId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    applicationsApi.applicationOfJob(clusterId, jobId).then(
      (found) => live && setApplicationId(found?.applicationId ?? null),
      () => undefined, // the job's own panels say why the cluster does not answer
    );
    return () => {
      live = false;
    };
  }, [applicationsApi, clusterId, jobId]);
  if (!applicationId) return null;
  return (
    <a className="small" href={hrefFor({ page: 'application', clusterId, applicationId })} data-testid={testIds.applications.jobLink} title="The application this job belongs to">
      application {applicationId.slice(0, 8)}…
    </a>
  );
}
