import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';

/**
 * Flink's official OpenAPI description of the JobManager REST API (1.19-era), kept in the repository
 * (`resources/flink-rest/`, provenance and licence in its README) so a clone checks against it on its own.
 */
export const OFFICIAL_SPEC_FILE = path.join(PROJECT_ROOT, 'resources/flink-rest/rest_v1_dispatcher.1.19-SNAPSHOT.yml');
