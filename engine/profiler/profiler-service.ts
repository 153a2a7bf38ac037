import { profileFlameTree } from '../analysis/async-profiler-html.ts';
import { hotFrames } from '../analysis/flame-graph.ts';
import type { ClusterRegistry } from '../clusters/cluster-registry.ts';
import { MAX_PROFILE_SECONDS, PROFILING_MODES, type ProfileEntry, type ProfileRequest, type ProfileResult, type ProfilerApi, type ProfilerView } from '../contracts/profiler.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { FlinkRestClient, TrafficStats } from '../flink-rest/client.ts';
import { profilerEndpoints } from '../flink-rest/profiler-endpoints.ts';
import type { ResponseOf } from '../flink-rest/endpoints.ts';
import { parseFlinkVersion } from '../flink-rest/version.ts';
import { checkProcessId } from '../inspect/fetch-process-figures.ts';
import { checkProfileFileName, MAX_PROFILE_BYTES, profileFileEndpoints } from './profile-file.ts';

type FlinkProfile = ResponseOf<typeof profilerEndpoints.startJobManagerProfile>;


/** Flink's profiler through the cluster's REST client; nothing runs in the background. */
export class ProfilerService implements ProfilerApi {
  constructor(private readonly registry: ClusterRegistry) {}

  async profiles(clusterId: string, processId: string): Promise<ProfilerView> {
    const connection = this.registry.connection(clusterId);
    // The local engine's 404 is not a setting to change.
    const whyNot = this.registry.isBuiltIn(clusterId) ? async () => LOCAL_ENGINE_NO_PROFILER : async (id: string) => unavailableSentence((await connection.check()).flinkVersion, id);
    return fetchProfiles(connection.client, clusterId, processId, whyNot);
  }

  async start(clusterId: string, processId: string, request: ProfileRequest): Promise<ProfileEntry> {
    return startProfile(this.registry.connection(clusterId).client, processId, request);
  }

  async open(clusterId: string, processId: string, fileName: string): Promise<ProfileResult> {
    return openProfile(this.registry.connection(clusterId).client, clusterId, processId, fileName);
  }
}

/** The local engine runs in one Node.js process: there is no JVM to profile. */
export const LOCAL_ENGINE_NO_PROFILER = 'The local engine has no profiler: its JobManager and TaskManagers are one Node.js process, not JVMs async-profiler could attach to.';

/** A process's profiles, newest first; a 404 (the profiler is off, or the cluster predates it) is said by `whyNot`. */
export async function fetchProfiles(client: FlinkRestClient, clusterId: string, processId: string, whyNot: (processId: string) => Promise<string>): Promise<ProfilerView> {
  const id = processIdOf(processId);
  const tally: TrafficStats = { requests: 0, bytes: 0 };
  const base = { clusterId, processId: id, fetchedAt: Date.now() };
  try {
    const list = id === 'jobmanager'
      ? await client.request(profilerEndpoints.jobManagerProfiles, {}, undefined, { tally })
      : await client.request(profilerEndpoints.taskManagerProfiles, { taskmanagerid: id }, undefined, { tally });
    const profiles = list.profilingList.map(toEntry).sort((a, b) => b.triggeredAt - a.triggeredAt);
    return { ...base, available: true, unavailable: null, profiles, requestCount: tally.requests };
  } catch (error) {
    if (!(error instanceof EngineError) || error.info.kind !== 'not-found') throw error;
    return { ...base, available: false, unavailable: await whyNot(id), profiles: [], requestCount: tally.requests };
  }
}

/** Starts a profile of the JobManager or a TaskManager (its mode and duration checked as Flink checks them). */
export async function startProfile(client: FlinkRestClient, processId: string, request: ProfileRequest): Promise<ProfileEntry> {
  const id = processIdOf(processId);
  if (!(PROFILING_MODES as readonly string[]).includes(request.mode)) throw new EngineError('invalid-input', `A profile's mode is one of ${PROFILING_MODES.join(', ')}, not "${String(request.mode)}".`);
  if (!Number.isInteger(request.durationSeconds) || request.durationSeconds < 1 || request.durationSeconds > MAX_PROFILE_SECONDS) {
    throw new EngineError('invalid-input', `A profile lasts 1 to ${MAX_PROFILE_SECONDS} s (a whole number), not ${String(request.durationSeconds)}.`);
  }
  const body = { mode: request.mode, duration: request.durationSeconds };
  const started = id === 'jobmanager'
    ? await client.request(profilerEndpoints.startJobManagerProfile, {}, undefined, { body })
    : await client.request(profilerEndpoints.startTaskManagerProfile, { taskmanagerid: id }, undefined, { body });
  return toEntry(started);
}

/** A finished profile's flame graph, from the file Flink serves (read as text up to MAX_PROFILE_BYTES, never run). */
export async function openProfile(client: FlinkRestClient, clusterId: string, processId: string, fileName: string): Promise<ProfileResult> {
  const id = processIdOf(processId);
  const name = checkProfileFileName(fileName);
  if (name === null) throw new EngineError('invalid-input', 'A profile is opened by the file name its list gives (letters, digits, ".", ":", "-", "_", ending in .html).');
  const page = id === 'jobmanager'
    ? await client.readText(profileFileEndpoints.jobManager, { filename: name }, { offset: 0, length: MAX_PROFILE_BYTES })
    : await client.readText(profileFileEndpoints.taskManager, { taskmanagerid: id, filename: name }, { offset: 0, length: MAX_PROFILE_BYTES });
  const { root, truncated } = profileFlameTree(page.text);
  const samples = root?.value ?? 0;
  const hot = root ? hotFrames(root) : [];
  const cut = !page.endOfFile;
  const sentence = !root
    ? 'The file holds no flame graph the console can read (another async-profiler format): save it and open it in a browser.'
    : hot.length === 0
      ? `The profile has ${samples} samples and no frame of its own time.`
      : `${samples} samples; most own time in ${hot[0].name} (${Math.round(hot[0].selfShare * 100)}%)${cut ? `; the file is larger than ${MAX_PROFILE_BYTES / 1024 / 1024} MiB and was read in part` : ''}.`;
  return { clusterId, processId: id, fileName: name, sentence, root, samples, hotFrames: hot, truncated: truncated || cut, html: page.text, bytes: page.length, fetchedAt: Date.now() };
}

function processIdOf(processId: string): string {
  const id = checkProcessId(processId);
  if (id === null) throw new EngineError('invalid-input', 'A process is "jobmanager" or a TaskManager id (up to 256 characters, no "/" or control characters).');
  return id;
}

function toEntry(p: FlinkProfile): ProfileEntry {
  return {
    status: p.status,
    mode: p.mode,
    triggeredAt: p.triggerTime,
    finishedAt: p.finishedTime ?? null,
    durationSeconds: p.duration,
    message: p.message ?? null,
    fileName: p.outputFile ?? null,
  };
}

/** Pure: why a process has no profiler: Flink before 1.19 has none; 1.19+ has it off unless `rest.profiling.enabled`. */
export function unavailableSentence(flinkVersion: string, processId: string): string {
  const where = processId === 'jobmanager' ? 'the JobManager' : 'this TaskManager';
  const version = parseFlinkVersion(flinkVersion);
  if (version && version.major === 1 && version.minor < 19) return `Flink ${flinkVersion} has no profiler: it came with Flink 1.19 (FLIP-375).`;
  return `The profiler is off on ${where}: set rest.profiling.enabled: true in the cluster's configuration (config.yaml) and restart it; async-profiler, bundled with Flink, must load on the host.`;
}
