import type { FlameNode, HotFrame } from './flame-graph.ts';

/**
 * The profiler service: Flink's own profiler (async-profiler, FLIP-375, Flink 1.19+ behind `rest.profiling.enabled`)
 * on the JobManager or a TaskManager — start a profile, list them, open one. Plain JSON, the same for the UI and
 * `flink-ops profile`.
 */
export interface ProfilerApi {
  /** The process's profiles, newest first, or why it has none (the profiler is off, or the cluster predates it): 1 request. */
  profiles(clusterId: string, processId: string): Promise<ProfilerView>;
  /** Starts a profile (it runs for its duration on the cluster, then its file can be opened): 1 request. */
  start(clusterId: string, processId: string, request: ProfileRequest): Promise<ProfileEntry>;
  /** A finished profile's flame graph, read from the file Flink serves (async-profiler's HTML, never run): 1 request. */
  open(clusterId: string, processId: string, fileName: string): Promise<ProfileResult>;
}

/** async-profiler's modes as Flink names them (`ProfilingInfo.ProfilingMode`): ITIMER needs no perf events. */
export const PROFILING_MODES = ['ITIMER', 'CPU', 'WALL', 'ALLOC', 'LOCK'] as const;
export type ProfilingMode = (typeof PROFILING_MODES)[number];

/** Flink refuses a profile outside (0 s, 300 s]. */
export const MAX_PROFILE_SECONDS = 300;

export interface ProfileRequest {
  mode: ProfilingMode;
  /** 1 to MAX_PROFILE_SECONDS, as Flink allows. */
  durationSeconds: number;
}

export interface ProfileEntry {
  status: 'RUNNING' | 'FINISHED' | 'FAILED';
  mode: string;
  triggeredAt: number;
  finishedAt: number | null;
  durationSeconds: number;
  /** Flink's message (why it failed). */
  message: string | null;
  /** The result's file name, once finished. */
  fileName: string | null;
}

export interface ProfilerView {
  clusterId: string;
  /** "jobmanager" or a TaskManager's id. */
  processId: string;
  available: boolean;
  /** Why there is no profiler, and how to turn it on; null when there is one. */
  unavailable: string | null;
  profiles: ProfileEntry[];
  fetchedAt: number;
  requestCount: number;
}

export interface ProfileResult {
  clusterId: string;
  processId: string;
  fileName: string;
  /** What the profile shows, or why the console cannot draw it, in one sentence. */
  sentence: string;
  root: FlameNode | null;
  samples: number;
  hotFrames: HotFrame[];
  truncated: boolean;
  /** The file as Flink served it (async-profiler's self-contained HTML), to save; the console never renders it. */
  html: string;
  bytes: number;
  fetchedAt: number;
}
