import { RESCALE_DETAILS_LIMIT, type JobRescale, type JobRescales, type RescaleDurations, type RescalesConfig, type RescalesSummary } from '../contracts/jobs.ts';
import type { JournalEntry } from '../contracts/operations.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { rescaleEndpoints } from '../flink-rest/rescale-endpoints.ts';
import type { JobRescaleConfigBody, JobRescaleDetailsBody, JobRescalesSummaryBody } from '../flink-rest/rescale-schemas.ts';
import { parseFlinkVersion } from '../flink-rest/version.ts';
import { isNotFound } from '../operations/driver-context.ts';
import { toRescaleRecord } from '../operations/rescale-record.ts';

const TURN_ON =
  'To record rescales, run the job with the adaptive scheduler (`jobmanager.scheduler: adaptive`) on Flink 2.3 or later and set `web.adaptive-scheduler.rescale-history.size` above 0 (for example 20) in the JobManager\'s configuration.';

/**
 * A job's rescale history as Flink's adaptive scheduler keeps it (Flink 2.3+): the history, its newest rescales in
 * detail, the summary and the scheduler's configuration; a 404 on the history means the cluster keeps none, and two
 * more requests say why.
 */
/** Details of rescales that ended, by UUID: they never change, so a page that polls asks for each once. */
export type EndedRescaleDetails = Map<string, JobRescaleDetailsBody>;

export async function fetchJobRescales(client: FlinkRestClient, clusterId: string, jobId: string, journal: JournalEntry[], ended: EndedRescaleDetails = new Map()): Promise<JobRescales> {
  let history: JobRescaleDetailsBody[];
  try {
    history = await client.request(rescaleEndpoints.history, { jobid: jobId });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const [version, scheduler] = await Promise.all([
      client.request(endpoints.config).then((c) => c['flink-version'], () => null),
      client.request(endpoints.jobDetails, { jobid: jobId }).then((d) => d.schedulerType ?? null, () => null),
    ]);
    return { clusterId, jobId, available: false, why: whyNoHistory(version, scheduler), fetchedAt: Date.now(), requestCount: 3 };
  }
  const newest = history.slice(0, RESCALE_DETAILS_LIMIT);
  const asked = newest.filter((r) => !ended.has(r.rescaleUuid));
  const [summary, config, ...fetched] = await Promise.all([
    client.request(rescaleEndpoints.summary, { jobid: jobId }),
    client.request(rescaleEndpoints.config, { jobid: jobId }),
    ...asked.map((r) =>
      // A rescale the history dropped between the two requests keeps the history's (empty) figures.
      client.request(rescaleEndpoints.details, { jobid: jobId, rescaleuuid: r.rescaleUuid }).catch((error: unknown) => {
        if (isNotFound(error)) return null;
        throw error;
      }),
    ),
  ]);
  for (const detail of fetched) if (detail && detail.terminalState) ended.set(detail.rescaleUuid, detail);
  const details = newest.map((r) => ended.get(r.rescaleUuid) ?? fetched[asked.indexOf(r)] ?? null);
  return { ...toJobRescales(clusterId, jobId, history, details, summary, config, journal, Date.now()), requestCount: 3 + asked.length };
}

/** Why the cluster keeps no rescale history for the job, and how to turn it on. */
export function whyNoHistory(flinkVersion: string | null, schedulerType: string | null): string {
  const version = flinkVersion ? parseFlinkVersion(flinkVersion) : null;
  if (version && (version.major < 2 || (version.major === 2 && version.minor < 3))) {
    return `Flink ${flinkVersion} keeps no rescale history: the adaptive scheduler records its rescales from Flink 2.3 on. ${TURN_ON}`;
  }
  if (schedulerType && schedulerType !== 'Adaptive') {
    return `This job runs the ${schedulerType} scheduler: only the adaptive scheduler records its rescales. ${TURN_ON}`;
  }
  return `The cluster keeps no rescale history for this job: \`web.adaptive-scheduler.rescale-history.size\` is 0 (the default), or the job does not run the adaptive scheduler. ${TURN_ON}`;
}

/** Pure: Flink's bodies and the console's journal → the Rescales view. `details[i]` is the details of `history[i]` (or null). */
export function toJobRescales(
  clusterId: string,
  jobId: string,
  history: JobRescaleDetailsBody[],
  details: Array<JobRescaleDetailsBody | null>,
  summary: JobRescalesSummaryBody,
  config: JobRescaleConfigBody,
  journal: JournalEntry[],
  fetchedAt: number,
): Omit<Extract<JobRescales, { available: true }>, 'requestCount'> {
  const entryOf = new Map<string, string>();
  for (const entry of journal) {
    const uuid = entry.rescaleRecord?.rescaleUuid;
    if (entry.kind === 'rescale' && uuid && !entryOf.has(uuid)) entryOf.set(uuid, entry.id);
  }
  const rescales = history.map((listed, i): JobRescale => {
    const full = details[i] ?? null;
    const record = toRescaleRecord(full ?? listed);
    const durationMs = record.startedAt !== null && record.endedAt !== null ? record.endedAt - record.startedAt : null;
    return { ...record, durationMs, detailed: full !== null, journalEntryId: entryOf.get(record.rescaleUuid) ?? null };
  });
  const inHistory = new Set(rescales.map((r) => r.rescaleUuid));
  const unmatchedJournalEntryIds = [...entryOf].filter(([uuid]) => !inHistory.has(uuid)).map(([, id]) => id);
  return { clusterId, jobId, available: true, rescales, summary: toSummary(summary), config: toConfig(config), unmatchedJournalEntryIds, fetchedAt };
}

type Stats = JobRescalesSummaryBody['rescalesDurationStatsInMillis'];

/** Flink writes min/max/avg 0 for a kind of rescale that never happened: no figure, not 0 ms. */
function toDurations(stats: Stats, count: number): RescaleDurations {
  const figure = (v: number | null | undefined) => (count > 0 && typeof v === 'number' ? v : null);
  return {
    min: figure(stats?.min),
    max: figure(stats?.max),
    avg: figure(stats?.avg),
    p50: figure(stats?.p50),
    p90: figure(stats?.p90),
    p95: figure(stats?.p95),
    p99: figure(stats?.p99),
  };
}

function toSummary(body: JobRescalesSummaryBody): RescalesSummary {
  const c = body.rescalesCounts;
  const all = c.completed + c.ignored + c.failed + c.inProgress;
  return {
    counts: { completed: c.completed, ignored: c.ignored, failed: c.failed, inProgress: c.inProgress },
    durations: {
      all: toDurations(body.rescalesDurationStatsInMillis, all),
      completed: toDurations(body.completedRescalesDurationStatsInMillis, c.completed),
      ignored: toDurations(body.ignoredRescalesDurationStatsInMillis, c.ignored),
      failed: toDurations(body.failedRescalesDurationStatsInMillis, c.failed),
    },
  };
}

function toConfig(body: JobRescaleConfigBody): RescalesConfig {
  return {
    historySize: body.rescaleHistoryMax ?? null,
    cooldownMs: body.executingCooldownTimeoutInMillis ?? null,
    resourceStabilizationMs: body.executingResourceStabilizationTimeoutInMillis ?? null,
    maxTriggerDelayMs: body.maximumDelayForTriggeringRescaleInMillis ?? null,
    submissionResourceWaitMs: body.submissionResourceWaitTimeoutInMillis ?? null,
    submissionResourceStabilizationMs: body.submissionResourceStabilizationTimeoutInMillis ?? null,
    rescaleOnFailedCheckpointCount: body.rescaleOnFailedCheckpointCount ?? null,
  };
}
