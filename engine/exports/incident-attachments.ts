import { pruneFlameTree } from '../analysis/flame-graph.ts';
import type { Finding } from '../contracts/diagnosis.ts';
import type { ExportAttachmentsRequest } from '../contracts/exports.ts';
import type { FlameGraphType, FlameNode, HotFrame } from '../contracts/flame-graph.ts';
import { MAX_LOG_SCAN_BYTES, subtaskLogTarget, type LogLine, type SubtaskLogTarget } from '../contracts/logs.ts';
import type { VertexSubtasks } from '../contracts/jobs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { toErrorInfo } from '../flink-rest/errors.ts';
import { fetchFlameGraph } from '../inspect/fetch-flame-graph.ts';
import { searchLog } from '../logs/log-files.ts';
import { fetchVertexSubtasks } from '../sampling/vertex-subtasks.ts';

/**
 * What an incident bundle or an HTML report may carry about the subtask the finding names, beside the history: Flink's
 * flame graph of it and its lines in its TaskManager's log, read from the cluster when the export is made. Each is
 * opt-in and size-capped; where the cluster cannot give one (flame graphs off, no such subtask, no answer) the export
 * says why instead, and is made all the same.
 */

/** A flame graph in a file to share: frames under 0.1% of the samples left out, 5,000 frames at most (about 1 MB of JSON). */
export const ATTACHED_FLAME_GRAPH = { minShare: 0.001, maxNodes: 5_000 } as const;
/** A log excerpt: the task's last lines, this many at most, and this many bytes of text at most. */
export const MAX_EXCERPT_LINES = 500;
export const MAX_EXCERPT_BYTES = 256 * 1024;

export interface AttachedFlameGraph {
  vertexId: string;
  vertexName: string;
  subtask: number;
  type: FlameGraphType;
  /** When Flink's sample ended (its clock). */
  sampledAt: number | null;
  samples: number;
  /** Flink's graph in one sentence (samples, where the most own time is). */
  sentence: string;
  hotFrames: HotFrame[];
  root: FlameNode;
  /** Frames were left out (the caps above, or the console's limits on Flink's answer). */
  truncated: boolean;
}

export interface AttachedLogExcerpt {
  /** The TaskManager whose log it is. */
  processId: string;
  /** The task's name in the log: `tenant-cost (13/32)#0`. */
  task: string;
  /** Its last lines found, oldest first, control characters as visible characters. */
  lines: LogLine[];
  /** Lines of the task the search found (more than `lines` when the excerpt was cut). */
  linesFound: number;
  scannedBytes: number;
  /** The search read the whole log (not stopped at its byte cap). */
  complete: boolean;
}

export type Attached<T> = { included: true; value: T } | { included: false; reason: string };

/** Absent: not asked for. */
export interface IncidentAttachments {
  flameGraph?: Attached<AttachedFlameGraph>;
  logExcerpt?: Attached<AttachedLogExcerpt>;
}

export interface AttachmentOptions {
  /** What to say where the cluster answers "flame graphs off" (the local engine has nothing to turn on). */
  flameGraphOffSentence?: string;
  /** How long to wait for Flink's first samples (tests). */
  flameGraphWaitMs?: number;
}

/** The attachments asked for, about the finding's first subtask: never throws, says why where one is missing. */
export async function fetchAttachments(
  client: FlinkRestClient,
  clusterId: string,
  jobId: string,
  finding: Pick<Finding, 'vertexId' | 'vertexName' | 'subtasks'>,
  request: ExportAttachmentsRequest,
  options: AttachmentOptions = {},
): Promise<IncidentAttachments> {
  if (!request.flameGraph && !request.logExcerpt) return {};
  const subtask = finding.subtasks[0]?.subtask;
  const without = (reason: string): IncidentAttachments => ({
    ...(request.flameGraph ? { flameGraph: { included: false, reason } } : {}),
    ...(request.logExcerpt ? { logExcerpt: { included: false, reason } } : {}),
  });
  if (finding.vertexId === null || subtask === undefined) return without('The finding names no subtask, so there is none to attach.');
  let vertex: VertexSubtasks;
  try {
    vertex = await fetchVertexSubtasks(client, clusterId, jobId, finding.vertexId);
  } catch (error) {
    return without(`Where subtask ${subtask} of ${finding.vertexName ?? finding.vertexId} runs could not be read: ${toErrorInfo(error).message}`);
  }
  const [flameGraph, logExcerpt] = await Promise.all([
    request.flameGraph ? attachedFlameGraph(client, clusterId, jobId, vertex, subtask, options) : undefined,
    request.logExcerpt ? attachedLogExcerpt(client, clusterId, subtaskLogTarget(subtask, vertex)) : undefined,
  ]);
  return { ...(flameGraph ? { flameGraph } : {}), ...(logExcerpt ? { logExcerpt } : {}) };
}

async function attachedFlameGraph(client: FlinkRestClient, clusterId: string, jobId: string, vertex: VertexSubtasks, subtask: number, options: AttachmentOptions): Promise<Attached<AttachedFlameGraph>> {
  try {
    const view = await fetchFlameGraph(client, clusterId, jobId, vertex.vertexId, { type: 'full', subtask, waitMs: options.flameGraphWaitMs });
    if (view.status !== 'ready' || !view.root) {
      return { included: false, reason: view.status === 'disabled' && options.flameGraphOffSentence ? options.flameGraphOffSentence : view.sentence };
    }
    const { root, truncated } = pruneFlameTree(view.root, ATTACHED_FLAME_GRAPH);
    return {
      included: true,
      value: { vertexId: vertex.vertexId, vertexName: vertex.name, subtask, type: view.type, sampledAt: view.sampledAt, samples: view.samples, sentence: view.sentence, hotFrames: view.hotFrames, root, truncated: truncated || view.truncated },
    };
  } catch (error) {
    return { included: false, reason: `Flink's flame graph of subtask ${subtask} could not be read: ${toErrorInfo(error).message}` };
  }
}

async function attachedLogExcerpt(client: FlinkRestClient, clusterId: string, target: SubtaskLogTarget | string): Promise<Attached<AttachedLogExcerpt>> {
  if (typeof target === 'string') return { included: false, reason: target };
  try {
    // The last lines are at the end: the whole log is read (Flink serves it whole), up to the most a search reads.
    const found = await searchLog(client, clusterId, target.processId, { file: { kind: 'log' }, text: null, task: target.task, maxMatches: MAX_EXCERPT_LINES, keep: 'last', maxScanBytes: MAX_LOG_SCAN_BYTES });
    return { included: true, value: { ...target, lines: lastLines(found.matches), linesFound: found.matchedLines, scannedBytes: found.scannedBytes, complete: found.complete } };
  } catch (error) {
    return { included: false, reason: `The log of TaskManager ${target.processId} could not be read: ${toErrorInfo(error).message}` };
  }
}

/** Pure: the last lines within MAX_EXCERPT_LINES and MAX_EXCERPT_BYTES, oldest first. */
export function lastLines(lines: LogLine[]): LogLine[] {
  let bytes = 0;
  let from = lines.length;
  while (from > 0 && lines.length - from < MAX_EXCERPT_LINES) {
    const next = Buffer.byteLength(lines[from - 1].text) + 1;
    if (bytes + next > MAX_EXCERPT_BYTES) break;
    bytes += next;
    from -= 1;
  }
  return lines.slice(from);
}

/** An attachment as the bundle's manifest names it: what it is, or why it is missing. */
export function describeAttachment(name: keyof IncidentAttachments, attached: Attached<AttachedFlameGraph> | Attached<AttachedLogExcerpt>): string {
  if (!attached.included) return `Not included: ${attached.reason}`;
  if (name === 'flameGraph') {
    const g = attached.value as AttachedFlameGraph;
    const at = g.sampledAt === null ? '' : `, sampled until ${new Date(g.sampledAt).toISOString()}`;
    return `Flink's flame graph (${g.type}) of ${g.vertexName} subtask ${g.subtask}: ${g.samples} samples${at}${g.truncated ? '; frames under 0.1% of the samples left out' : ''}.`;
  }
  const e = attached.value as AttachedLogExcerpt;
  const cut = e.lines.length < e.linesFound ? ` (the last ${e.lines.length} of ${e.linesFound})` : '';
  const scanned = e.complete ? '' : `; the search stopped after ${e.scannedBytes} bytes`;
  return `The lines of ${e.task} in TaskManager ${e.processId}'s log: ${e.lines.length} lines${cut}${scanned}.`;
}
