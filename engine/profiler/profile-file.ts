import type { z } from 'zod';
import type { TextEndpointSpec } from '../flink-rest/endpoints.ts';

/** A profile's file: async-profiler's HTML, tens of KiB to a few MiB; more than this is not read. */
export const MAX_PROFILE_BYTES = 32 * 1024 * 1024;

/** The result files, as Flink names them (`<process>_<MODE>_<yyyy-MM-dd_HH_mm_ss>.html`): anything else is refused. */
const FILE_NAME = /^[\w.:-]{1,200}\.html$/;

export function checkProfileFileName(fileName: string): string | null {
  return FILE_NAME.test(fileName) && !fileName.includes('..') ? fileName : null;
}

function file(path: string): TextEndpointSpec {
  return { method: 'GET', path, specSchema: '(file)', response: {} as z.ZodType<unknown>, text: true };
}

/** The result file of a finished profile, served as text (`text/plain`) by the JobManager or the TaskManager that ran it. */
export const profileFileEndpoints = {
  jobManager: file('/jobmanager/profiler/:filename'),
  taskManager: file('/taskmanagers/:taskmanagerid/profiler/:filename'),
} as const;
