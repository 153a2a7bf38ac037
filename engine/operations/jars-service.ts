import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { JarsApi, JarUpload } from '../contracts/jars.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { deleteJar, listJars, uploadJar } from './jar-files.ts';

/** The jars of the app's clusters (the cluster page's Jars panel); running one is the operations service's resubmit. */
export class JarsService implements JarsApi {
  constructor(private readonly registry: ClusterRegistry) {}

  async list(clusterId: string) {
    return listJars(this.registry.connection(clusterId).client);
  }

  async upload(clusterId: string, upload: JarUpload) {
    if (typeof upload?.contentBase64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(upload.contentBase64)) {
      throw new EngineError('invalid-input', 'The jar must be sent as base64.');
    }
    return uploadJar(this.registry.connection(clusterId).client, upload.fileName, Buffer.from(upload.contentBase64, 'base64'));
  }

  async delete(clusterId: string, jarId: string) {
    await deleteJar(this.registry.connection(clusterId).client, jarId);
  }
}
