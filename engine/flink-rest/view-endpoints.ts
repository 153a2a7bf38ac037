import type { z } from 'zod';
import type { EndpointSpec } from './endpoints.ts';
import { MetricCollection } from './schemas.ts';
import * as schemas from './view-schemas.ts';

function get<S extends z.ZodType>(path: string, specSchema: string, response: S, extra: Pick<EndpointSpec<unknown>, 'echoes'> = {}): EndpointSpec<z.output<S>> {
  return { method: 'GET', path, specSchema, response: response as unknown as z.ZodType<z.output<S>>, ...extra };
}

/**
 * The Web UI's read-only views (configuration, accumulators, a vertex's TaskManagers and subtask times, its flame
 * graph, process memory), one spec per endpoint as Flink's `XxxHeaders`. Read only while their view is open: none is part of the
 * job page's refresh or of the sampler's rounds.
 */
export const viewEndpoints = {
  jobManagerEnvironment: get('/jobmanager/environment', 'EnvironmentInfo', schemas.EnvironmentInfo),
  jobManagerMetrics: get('/jobmanager/metrics', 'MetricCollectionResponseBody', MetricCollection),
  checkpointConfigDetails: get('/jobs/:jobid/checkpoints/config', 'CheckpointConfigInfo', schemas.CheckpointConfigDetails),
  vertexAccumulators: get('/jobs/:jobid/vertices/:vertexid/accumulators', 'JobVertexAccumulatorsInfo', schemas.JobVertexAccumulatorsInfo, { echoes: { field: 'id', param: 'vertexid' } }),
  subtaskAccumulators: get('/jobs/:jobid/vertices/:vertexid/subtasks/accumulators', 'SubtasksAllAccumulatorsInfo', schemas.SubtasksAllAccumulatorsInfo, { echoes: { field: 'id', param: 'vertexid' } }),
  subtaskTimes: get('/jobs/:jobid/vertices/:vertexid/subtasktimes', 'SubtasksTimesInfo', schemas.SubtasksTimesInfo, { echoes: { field: 'id', param: 'vertexid' } }),
  vertexTaskManagers: get('/jobs/:jobid/vertices/:vertexid/taskmanagers', 'JobVertexTaskManagersInfo', schemas.JobVertexTaskManagersInfo, { echoes: { field: 'id', param: 'vertexid' } }),
  vertexFlameGraph: get('/jobs/:jobid/vertices/:vertexid/flamegraph', 'VertexFlameGraph', schemas.VertexFlameGraph),
  taskManagerDetails: get('/taskmanagers/:taskmanagerid', 'TaskManagerDetailsInfo', schemas.TaskManagerDetailsInfo, { echoes: { field: 'id', param: 'taskmanagerid' } }),
} as const;
