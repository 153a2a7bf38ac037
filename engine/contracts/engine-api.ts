/**
 * The contract between the UI and the engine: a few services by domain, each with its own contract file beside this
 * one (`<service>.ts`) and its calls as the bridge checks them (`<service>-calls.ts`). Electron (IPC) and web mode
 * (HTTP on loopback) carry every call through one generic bridge, addressed as `service.method`, so every method
 * takes and returns plain JSON data. The renderer imports only this folder.
 */

import type { AdviceApi } from './advice.ts';
import { ADVICE_CALLS } from './advice-calls.ts';
import type { AppApi } from './app.ts';
import { APP_CALLS } from './app-calls.ts';
import type { ApplicationsApi } from './applications.ts';
import { APPLICATIONS_CALLS } from './applications-calls.ts';
import type { CallSpec } from './call-spec.ts';
import type { ClustersApi } from './clusters.ts';
import { CLUSTERS_CALLS } from './clusters-calls.ts';
import type { DiagnosisApi } from './diagnosis.ts';
import { DIAGNOSIS_CALLS } from './diagnosis-calls.ts';
import type { ErrorInfo } from './errors.ts';
import type { ExportsApi } from './exports.ts';
import { EXPORTS_CALLS } from './exports-calls.ts';
import type { HistoryApi } from './history.ts';
import type { InspectApi } from './inspect.ts';
import { INSPECT_CALLS } from './inspect-calls.ts';
import { HISTORY_CALLS } from './history-calls.ts';
import type { JobsApi } from './jobs.ts';
import { JOBS_CALLS } from './jobs-calls.ts';
import type { KafkaApi } from './kafka.ts';
import { KAFKA_CALLS } from './kafka-calls.ts';
import type { LogsApi } from './logs.ts';
import { LOGS_CALLS } from './logs-calls.ts';
import type { OperationsApi } from './operations.ts';
import type { ProfilerApi } from './profiler.ts';
import { PROFILER_CALLS } from './profiler-calls.ts';
import { OPERATIONS_CALLS } from './operations-calls.ts';
import type { RehearsalApi } from './rehearsal.ts';
import { REHEARSAL_CALLS } from './rehearsal-calls.ts';
import type { JarsApi } from './jars.ts';
import { JARS_CALLS } from './jars-calls.ts';
import type { StateApi } from './state.ts';
import { STATE_CALLS } from './state-calls.ts';

export interface EngineApi {
  app: AppApi;
  clusters: ClustersApi;
  jobs: JobsApi;
  applications: ApplicationsApi;
  history: HistoryApi;
  diagnosis: DiagnosisApi;
  operations: OperationsApi;
  exports: ExportsApi;
  kafka: KafkaApi;
  state: StateApi;
  inspect: InspectApi;
  profiler: ProfilerApi;
  advice: AdviceApi;
  logs: LogsApi;
  rehearsal: RehearsalApi;
  jars: JarsApi;
}

export type EngineService = keyof EngineApi;

/**
 * The allow-list both edges enforce, and what each call's arguments must be: a call outside it, or with arguments its
 * spec refuses, never reaches a service. The renderer's client is built from the same table.
 */
export const ENGINE_CALLS: { [S in EngineService]: Record<keyof EngineApi[S], CallSpec<unknown[]>> } = {
  app: APP_CALLS,
  clusters: CLUSTERS_CALLS,
  jobs: JOBS_CALLS,
  applications: APPLICATIONS_CALLS,
  history: HISTORY_CALLS,
  diagnosis: DIAGNOSIS_CALLS,
  operations: OPERATIONS_CALLS,
  exports: EXPORTS_CALLS,
  kafka: KAFKA_CALLS,
  state: STATE_CALLS,
  inspect: INSPECT_CALLS,
  profiler: PROFILER_CALLS,
  advice: ADVICE_CALLS,
  logs: LOGS_CALLS,
  rehearsal: REHEARSAL_CALLS,
  jars: JARS_CALLS,
};

/** A call as it crosses the bridge: `service.method`, e.g. `jobs.graph`. */
export type EngineCallName = { [S in EngineService]: `${S}.${Extract<keyof EngineApi[S], string>}` }[EngineService];

/** What a bridge returns for one call. */
export type BridgeResponse = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };
