import { gunzipSync, gzipSync } from 'node:zlib';
import type { JobExceptions, JobGraph } from '../contracts/jobs.ts';
import type { JournalEntry } from '../contracts/operations.ts';
import { INCIDENT_BUNDLE } from '../contracts/incident-bundle.ts';
import { EngineError } from '../flink-rest/errors.ts';
import type { CheckpointOverview, CheckpointRecord } from '../history/checkpoint-history.ts';
import { decodeCheckpointSubtasks, encodeCheckpointSubtasks, type CheckpointSubtaskColumns } from '../history/checkpoint-subtasks.ts';
import type { HistoryEvent } from '../history/event-log.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { JobSample } from '../history/job-sample.ts';
import { decodeVertexSample, encodeVertexSample } from '../history/sample-codec.ts';
import { OperationsJournal } from '../operations/journal.ts';
import { describeAttachment, type IncidentAttachments } from './incident-attachments.ts';
import type { ReportCluster, SkewReport } from './skew-report.ts';

/**
 * An incident bundle: one gzipped JSON file with what an incident review needs about one job, readable without the
 * cluster — the window's samples (the history's own column encoding, base64), the checkpoints and their per-subtask
 * details, the history's events, the job graph and exceptions as the cluster last showed them, the operations
 * journal's entries for the job, the report made from it all, and — when asked for — the flame graph and the log lines
 * of the subtask the finding names, all listed in its manifest. Reopened by importing it into a history store:
 * the report and every view then come from the same code as for a live job, so a report from a bundle is the report
 * the console made when it saved the bundle.
 */
export const INCIDENT_BUNDLE_VERSION = 1;

export interface IncidentBundle {
  format: typeof INCIDENT_BUNDLE.mimeType;
  bundleVersion: typeof INCIDENT_BUNDLE_VERSION;
  /** The console version that saved it. */
  savedBy: string;
  cluster: ReportCluster;
  jobId: string;
  windowMs: number;
  /** Samples oldest first; each vertex is `encodeVertexSample`'s bytes in base64. */
  samples: Array<Omit<JobSample, 'vertices'> & { vertices: string[] }>;
  checkpoints: CheckpointRecord[];
  checkpointSubtasks: Array<{ triggerTimestamp: number; id: number; vertexId: string; columns: string }>;
  checkpointOverview: CheckpointOverview | null;
  events: HistoryEvent[];
  /** As the cluster showed them when the bundle was saved; null when it could not be asked. */
  jobGraph: JobGraph | null;
  exceptions: JobExceptions | null;
  journal: JournalEntry[];
  report: SkewReport;
  /** What the bundle holds, and the attachments asked for: included, or why not. Absent in bundles saved before it. */
  manifest?: BundleManifest;
  /** The opt-in attachments about the finding's subtask (its flame graph, its log lines). */
  attachments?: IncidentAttachments;
}

export interface BundleManifest {
  /** Each part of the bundle by its field, with how many items it holds. */
  parts: Array<{ name: string; items: number }>;
  /** Each attachment asked for, by its field in `attachments`: included (and its size as JSON) or not, in words. */
  attachments: Array<{ name: keyof IncidentAttachments; included: boolean; bytes: number; description: string }>;
}

export interface BundleExtras {
  savedBy: string;
  jobGraph: JobGraph | null;
  exceptions: JobExceptions | null;
  journal: JournalEntry[];
  attachments?: IncidentAttachments;
}

/** The bundle of a report's window, read from the store the report was made from. */
export function collectBundle(store: HistoryStore, report: SkewReport, windowMs: number, extras: BundleExtras): IncidentBundle {
  const { id: clusterId } = report.cluster;
  const jobId = report.job.id;
  const { from, to } = report.window;
  const samples = from === null || to === null ? [] : store.samples.window(clusterId, jobId, from, to);
  const checkpoints = from === null || to === null ? [] : store.checkpoints.list(clusterId, jobId, from, to);
  const checkpointSubtasks = checkpoints.flatMap((c) =>
    (c.vertices ?? []).flatMap((v) => {
      const columns = store.checkpoints.subtasks(clusterId, jobId, c.triggerTimestamp, c.id, v.vertexId);
      return columns ? [{ triggerTimestamp: c.triggerTimestamp, id: c.id, vertexId: v.vertexId, columns: encodeCheckpointSubtasks(columns).toString('base64') }] : [];
    }),
  );
  const events = from === null || to === null ? [] : store.events.list(clusterId, jobId, from, to);
  const attachments = extras.attachments ?? {};
  const manifest: BundleManifest = {
    parts: [
      { name: 'samples', items: samples.length },
      { name: 'checkpoints', items: checkpoints.length },
      { name: 'checkpointSubtasks', items: checkpointSubtasks.length },
      { name: 'events', items: events.length },
      { name: 'jobGraph', items: extras.jobGraph ? 1 : 0 },
      { name: 'exceptions', items: extras.exceptions?.entries.length ?? 0 },
      { name: 'journal', items: extras.journal.length },
      { name: 'report', items: 1 },
    ],
    attachments: (['flameGraph', 'logExcerpt'] as const).flatMap((name) => {
      const attached = attachments[name];
      if (!attached) return [];
      return [{ name, included: attached.included, bytes: attached.included ? Buffer.byteLength(JSON.stringify(attached.value)) : 0, description: describeAttachment(name, attached) }];
    }),
  };
  return {
    format: INCIDENT_BUNDLE.mimeType,
    bundleVersion: INCIDENT_BUNDLE_VERSION,
    savedBy: extras.savedBy,
    cluster: report.cluster,
    jobId,
    windowMs,
    manifest,
    samples: samples.map((s) => ({ ...s, vertices: s.vertices.map((v) => encodeVertexSample(v).toString('base64')) })),
    checkpoints,
    checkpointSubtasks,
    checkpointOverview: store.checkpoints.overview(clusterId, jobId) ?? null,
    events,
    jobGraph: extras.jobGraph,
    exceptions: extras.exceptions,
    journal: extras.journal,
    report,
    attachments,
  };
}

/** The file's bytes: gzip of the JSON (no timestamp in the gzip header: the same bundle gives the same bytes). */
export function encodeBundle(bundle: IncidentBundle): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(bundle), 'utf8'));
}

/** Reads a bundle file's bytes; a clear error for anything that is not a bundle this console reads. */
export function decodeBundle(bytes: Buffer, name = 'the file'): IncidentBundle {
  let bundle: Partial<IncidentBundle>;
  try {
    bundle = JSON.parse(gunzipSync(bytes).toString('utf8')) as Partial<IncidentBundle>;
  } catch {
    throw new EngineError('invalid-input', `${name} is not a Flink Ops incident bundle (.${INCIDENT_BUNDLE.extension}): it is not gzipped JSON.`);
  }
  if (bundle.format !== INCIDENT_BUNDLE.mimeType || !Array.isArray(bundle.samples) || typeof bundle.jobId !== 'string' || !bundle.cluster) {
    throw new EngineError('invalid-input', `${name} is not a Flink Ops incident bundle (.${INCIDENT_BUNDLE.extension}).`);
  }
  if (typeof bundle.bundleVersion !== 'number' || bundle.bundleVersion > INCIDENT_BUNDLE_VERSION) {
    throw new EngineError('unsupported-version', `${name} was saved by a newer Flink Ops Console (bundle version ${String(bundle.bundleVersion)}): upgrade the console to open it.`);
  }
  return bundle as IncidentBundle;
}

/**
 * Writes a bundle's contents into a history store (a fresh one in a temporary folder: the store must keep samples
 * of any age, see `BUNDLE_RETENTION`), so that reports and the app's recording views read it like any history.
 */
export async function importBundle(store: HistoryStore, bundle: IncidentBundle): Promise<void> {
  const { id: clusterId } = bundle.cluster;
  for (const s of bundle.samples) await store.samples.append({ ...s, vertices: s.vertices.map((v) => decodeVertexSample(Buffer.from(v, 'base64'))) });
  await store.checkpoints.putMany(clusterId, bundle.jobId, bundle.checkpoints);
  const details = new Map<string, Map<string, CheckpointSubtaskColumns>>();
  for (const d of bundle.checkpointSubtasks) {
    const key = `${d.triggerTimestamp}/${d.id}`;
    if (!details.has(key)) details.set(key, new Map());
    details.get(key)!.set(d.vertexId, decodeCheckpointSubtasks(Buffer.from(d.columns, 'base64')));
  }
  for (const record of bundle.checkpoints) {
    const subtasks = details.get(`${record.triggerTimestamp}/${record.id}`);
    if (subtasks) await store.checkpoints.putDetails(clusterId, bundle.jobId, record, subtasks);
  }
  for (const event of bundle.events) await store.events.append(event);
  if (bundle.checkpointOverview) await store.checkpoints.putOverview(clusterId, bundle.jobId, bundle.checkpointOverview);
  await new OperationsJournal(store).importEntries(bundle.journal);
}

/** A store that keeps whatever a bundle holds, however old (retention is measured against the engine's clock). */
export const BUNDLE_RETENTION = { sampleMaxAgeMs: Number.MAX_SAFE_INTEGER, eventMaxAgeMs: Number.MAX_SAFE_INTEGER } as const;
