import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import type { FlameGraphOptions, InspectApi } from '../contracts/inspect.ts';
import { EngineError } from '../flink-rest/errors.ts';
import { requireId } from '../flink-rest/input-checks.ts';
import { fetchConfiguration } from './fetch-configuration.ts';
import { fetchFlameGraph } from './fetch-flame-graph.ts';
import { checkProcessId, fetchProcessFigures } from './fetch-process-figures.ts';
import { fetchVertexInspection } from './fetch-vertex-inspection.ts';

/** The local engine runs every TaskManager in one Node.js process: its figures are that process's, shared out. */
export const LOCAL_ENGINE_PROCESS_NOTE =
  'The local engine runs its JobManager and TaskManagers in one Node.js process: heap, non-heap and direct memory are that process\'s (V8 heap, native memory, buffers), shared out between its TaskManagers; its garbage collections are V8\'s, of the whole process, the same on each.';

/** The local engine runs every subtask on one Node.js thread: it has no task threads to sample. */
export const LOCAL_ENGINE_NO_FLAME_GRAPH =
  'The local engine has no flame graphs: its subtasks run on one Node.js thread, with no task threads to sample (it answers as a Flink without rest.flamegraph.enabled). The busy time of its subtasks is on the graph and the Skew tab.';

/** The read-only views of Flink's Web UI, fetched on demand while a view is open; nothing here runs in the background. */
export class InspectService implements InspectApi {
  constructor(private readonly registry: ClusterRegistry) {}

  async configuration(clusterId: string, jobId?: string) {
    return fetchConfiguration(this.registry.connection(clusterId).client, clusterId, jobId === undefined ? null : requireId(jobId, 'job'));
  }

  async vertex(clusterId: string, jobId: string, vertexId: string) {
    return fetchVertexInspection(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'), requireId(vertexId, 'vertex'));
  }

  async flameGraph(clusterId: string, jobId: string, vertexId: string, options: FlameGraphOptions) {
    const subtask = options.subtask ?? null;
    if (subtask !== null && (!Number.isInteger(subtask) || subtask < 0)) throw new EngineError('invalid-input', `A subtask is a whole number from 0, not ${String(subtask)}.`);
    const view = await fetchFlameGraph(this.registry.connection(clusterId).client, clusterId, requireId(jobId, 'job'), requireId(vertexId, 'vertex'), { type: options.type ?? 'full', subtask });
    // The local engine's "disabled" is not a setting to change.
    return view.status === 'disabled' && this.registry.isBuiltIn(clusterId) ? { ...view, sentence: LOCAL_ENGINE_NO_FLAME_GRAPH } : view;
  }

  async process(clusterId: string, processId: string) {
    const id = checkProcessId(processId);
    if (id === null) throw new EngineError('invalid-input', 'A process is "jobmanager" or a TaskManager id (up to 256 characters, no "/" or control characters).');
    const note = this.registry.isBuiltIn(clusterId) ? LOCAL_ENGINE_PROCESS_NOTE : null;
    return fetchProcessFigures(this.registry.connection(clusterId).client, clusterId, id, note);
  }
}
