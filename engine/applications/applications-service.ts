import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { ApplicationsApi } from '../contracts/applications.ts';
import { applicationEndpoints } from '../flink-rest/application-endpoints.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import { fetchApplication, fetchApplicationExceptions, fetchApplications } from './cluster-applications.ts';

/** A cluster's applications (Flink 2.3) as Flink shows them now, fetched on demand. */
export class ApplicationsService implements ApplicationsApi {
  constructor(private readonly registry: ClusterRegistry) {}

  async list(clusterId: string) {
    return fetchApplications(this.registry.connection(clusterId).client, clusterId);
  }

  async application(clusterId: string, applicationId: string) {
    return fetchApplication(this.registry.connection(clusterId).client, clusterId, requireId(applicationId, 'application'));
  }

  async exceptions(clusterId: string, applicationId: string) {
    return fetchApplicationExceptions(this.registry.connection(clusterId).client, clusterId, requireId(applicationId, 'application'));
  }

  async applicationOfJob(clusterId: string, jobId: string) {
    const details = await this.registry.connection(clusterId).client.request(applicationEndpoints.jobApplicationId, { jobid: requireId(jobId, 'job') });
    const applicationId = details['application-id'];
    return applicationId ? { applicationId } : null;
  }
}
