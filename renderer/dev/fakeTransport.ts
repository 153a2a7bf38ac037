/**
 * Development only: an in-browser fake engine so the UI can be seen without the engine or a Flink
 * cluster (`npx vite --config renderer/vite.config.ts`, then open `/?fake`). main.tsx imports it behind
 * `import.meta.env.DEV`, so production builds do not contain it.
 */
import type { ClusterConfig, ClusterInput } from '../../engine/contracts/clusters';
import type { BridgeResponse, EngineCallName } from '../../engine/contracts/engine-api';
import type { ErrorInfo } from '../../engine/contracts/errors';
import type { EdgeView, JobGraph, JobPlan, JobSummary, SubtaskRow, VertexView } from '../../engine/contracts/jobs';
import type { ConsumerLagQuery, ConsumerLagView, HotKeySample, HotKeySampleQuery, KafkaSettingsInput, KafkaSettingsView } from '../../engine/contracts/kafka';
import type { Transport } from '../api/engine-client';

class Fail extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

const started = Date.now() - 3 * 3_600_000 - 12 * 60_000;
const clusters: ClusterConfig[] = [
  { id: 'local', name: 'Local engine', url: 'http://127.0.0.1:8081', auth: { kind: 'none', hasSecret: false }, timeoutMs: 10_000, builtIn: true },
  { id: 'prod', name: 'prod-eu-1', url: 'https://flink.prod.example:8081', auth: { kind: 'basic', username: 'ops', hasSecret: false }, timeoutMs: 10_000 },
];

interface FakeJob {
  summary: JobSummary;
  vertices: Array<Omit<VertexView, 'busyTimeMsPerSecond' | 'backPressuredTimeMsPerSecond' | 'idleTimeMsPerSecond' | 'recordsInPerSecond' | 'recordsOutPerSecond' | 'backpressureLevel' | 'busySkew' | 'dataSkewPercent'>>;
  edges: EdgeView[];
}

function vertex(id: string, name: string, parallelism: number): FakeJob['vertices'][number] {
  return { id, name, parallelism, maxParallelism: 128, status: 'RUNNING', tasks: { running: parallelism } };
}

function smallJob(): FakeJob {
  const vs = [
    vertex('a1', 'Source: KafkaSource[orders] -> Watermarks', 2),
    vertex('b2', 'Filter -> Map(enrich with customer, currency normalisation and a very long operator chain name)', 4),
    vertex('c3', 'Window(TumblingEventTimeWindows(60000)) -> Aggregate', 4),
    vertex('d4', 'KeyedProcess(dedupe)', 4),
    vertex('e5', 'Sink: Writer -> Sink: Committer', 2),
  ];
  const es: EdgeView[] = [
    { source: 'a1', target: 'b2', shipStrategy: 'REBALANCE' },
    { source: 'b2', target: 'c3', shipStrategy: 'HASH' },
    { source: 'b2', target: 'd4', shipStrategy: 'HASH' },
    { source: 'c3', target: 'e5', shipStrategy: 'REBALANCE' },
    { source: 'd4', target: 'e5', shipStrategy: 'FORWARD' },
  ];
  return {
    summary: { id: '8f3c1e2d9a7b4c6d8e0f1a2b3c4d5e6f', name: 'gatewaymeter-test', state: 'RUNNING', startTime: started, endTime: null, durationMs: Date.now() - started, tasks: { running: 16 } },
    vertices: vs,
    edges: es,
  };
}

function bigJob(): FakeJob {
  const vs: FakeJob['vertices'] = [];
  const es: EdgeView[] = [];
  vs.push(vertex('src', 'Source: events', 8));
  for (let branch = 0; branch < 22; branch += 1) {
    let prev = 'src';
    for (let step = 0; step < 9; step += 1) {
      const id = `b${branch}s${step}`;
      vs.push(vertex(id, `Branch ${branch} · step ${step}: ${['Map', 'Filter', 'KeyBy->Reduce', 'Window', 'Process'][step % 5]}`, 1 + ((branch + step) % 6)));
      es.push({ source: prev, target: id, shipStrategy: step % 3 === 0 ? 'HASH' : step % 3 === 1 ? 'FORWARD' : 'REBALANCE' });
      prev = id;
    }
    es.push({ source: prev, target: 'sink', shipStrategy: 'REBALANCE' });
  }
  vs.push(vertex('sink', 'Sink: union of all branches', 4));
  return {
    summary: { id: 'b16b16b16b16b16b16b16b16b16b16b1', name: 'big-200-vertex-job', state: 'RUNNING', startTime: started + 3_600_000, endTime: null, durationMs: Date.now() - started - 3_600_000, tasks: { running: 600 } },
    vertices: vs,
    edges: es,
  };
}

const jobs: FakeJob[] = [smallJob(), bigJob()];
const finished: JobSummary = { id: '0123456789abcdef0123456789abcdef', name: 'nightly-backfill', state: 'FINISHED', startTime: started - 86_400_000, endTime: started - 80_000_000, durationMs: 6_400_000, tasks: { finished: 12 } };
const failed: JobSummary = { id: 'fedcba9876543210fedcba9876543210', name: 'payments-fraud-score', state: 'FAILED', startTime: started - 7_200_000, endTime: started - 7_000_000, durationMs: 200_000, tasks: { failed: 1, canceled: 7 } };

function seeded(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (h % 1000) / 1000;
}

function metrics(v: FakeJob['vertices'][number]): VertexView {
  const base = seeded(v.id);
  const wobble = (Math.sin(Date.now() / 20_000 + base * 10) + 1) / 2;
  const busy = Math.round(1000 * Math.min(1, base * 0.8 + wobble * 0.3));
  const bp = base > 0.6 ? Math.round((base - 0.6) * 2400) : 0;
  const agg = (max: number) => ({ min: Math.round(max * 0.4), max, avg: Math.round(max * 0.7), sum: max * v.parallelism });
  return {
    ...v,
    recordsInPerSecond: v.id === 'a1' || v.id === 'src' ? 0 : Math.round(12_000 * (1 + base)),
    recordsOutPerSecond: Math.round(11_500 * (1 + base)),
    busyTimeMsPerSecond: agg(busy),
    backPressuredTimeMsPerSecond: agg(Math.min(1000 - busy, bp)),
    idleTimeMsPerSecond: agg(Math.max(0, 1000 - busy - bp)),
    backpressureLevel: bp / 1000 <= 0.1 ? 'ok' : bp / 1000 <= 0.5 ? 'low' : 'high',
    busySkew: v.parallelism > 1 ? busy / Math.round(busy * 0.7) || null : null,
    dataSkewPercent: v.parallelism > 1 ? Math.round(base * 60) : null,
  };
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function check(input: ClusterInput) {
  if (!/^https?:\/\/[^\s]+$/.test(input.url)) {
    throw new Fail({ kind: 'invalid-url', message: `"${input.url}" is not a URL: use http://host:port or https://host:port.` });
  }
  if (input.url.includes(':1/') || input.url.endsWith(':1')) {
    throw new Fail({ kind: 'refused', message: `Nothing listens at ${input.url} (connection refused). Is the JobManager running and the port right?`, endpoint: 'GET /config' });
  }
  if (input.url.includes('html')) {
    throw new Fail({ kind: 'not-flink', message: `${input.url} answered, but not like a Flink REST API (HTML instead of JSON at /config).`, endpoint: 'GET /config', status: 200 });
  }
  return { flinkVersion: '2.2.1', flinkRevision: 'a1b2c3d', metricsFetchIntervalMs: 10_000, versionSupported: true };
}

/** The calls the fake answers; the others fail as an engine error would, so the page shows how it copes. */
const handlers: Partial<Record<EngineCallName, (...args: never[]) => unknown>> = {
  'app.info': () => ({ mode: 'web', secretStorage: 'memory', version: '0.1.0-dev' }),
  'clusters.list': () => clusters,
  'clusters.check': (input: ClusterInput) => check(input),
  'clusters.save': (input: ClusterInput) => {
    const result = check(input);
    const cluster: ClusterConfig = {
      id: input.id ?? `c${clusters.length + 1}`,
      name: input.name,
      url: input.url,
      auth: { kind: input.auth.kind, username: input.auth.kind === 'basic' ? input.auth.username : undefined, hasSecret: input.auth.kind !== 'none' },
      caFile: input.caFile,
      timeoutMs: input.timeoutMs ?? 10_000,
    };
    const at = clusters.findIndex((c) => c.id === cluster.id);
    if (at >= 0) clusters[at] = cluster;
    else clusters.push(cluster);
    return { cluster, check: result };
  },
  'clusters.remove': (id: string) => {
    const at = clusters.findIndex((c) => c.id === id);
    if (at >= 0) clusters.splice(at, 1);
  },
  'clusters.overview': (clusterId: string) => {
    if (clusterId === 'prod') throw new Fail({ kind: 'unauthorized', message: 'prod-eu-1 refused the stored credentials (401). Edit the cluster and enter the password again.', endpoint: 'GET /overview', status: 401 });
    return { clusterId, flinkVersion: '2.2.1', taskManagers: 2, slotsTotal: 4, slotsAvailable: 1, jobs: { running: 2, finished: 1, cancelled: 0, failed: 1 }, minRefreshIntervalMs: 10_000, fetchedAt: Date.now() };
  },
  'clusters.taskManagers': () =>
    ['tm-a', 'tm-b'].map((id, i) => ({
      id,
      address: `127.0.0.1:4300${i}`,
      endpoint: `127.0.0.1:4100${i}`,
      slotsTotal: 2,
      slotsFree: i,
      lastHeartbeat: Date.now() - 2_000,
      metrics: {
        heapUsed: (300 + 200 * i) * 1024 * 1024,
        heapMax: 512 * 1024 * 1024,
        managedMemoryUsed: 0,
        managedMemoryTotal: 1024 * 1024 * 1024,
        cpuLoad: 0.12 + 0.5 * i,
        networkBuffersUsed: 40 + 3000 * i,
        networkBuffersTotal: 4096,
      },
    })),
  'jobs.exceptions': (clusterId: string, jobId: string) => ({
    clusterId,
    jobId,
    entries: jobId === failed.id
      ? [
          {
            exceptionName: 'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException',
            message: 'TaskManager with id 10.0.0.1:6122-1a2b3c is no longer reachable.',
            stackTrace:
              'org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException: TaskManager with id 10.0.0.1:6122-1a2b3c is no longer reachable.\n\tat org.apache.flink.runtime.resourcemanager.ResourceManager$TaskManagerHeartbeatListener.notifyTargetUnreachable(ResourceManager.java:1492)\n',
            timestamp: Date.now() - 60_000,
            taskName: null,
            vertexName: null,
            subtaskIndex: null,
            attempt: null,
            endpoint: null,
            taskManagerId: null,
            failureLabels: {},
            concurrent: [],
          },
        ]
      : [],
    truncated: false,
    fetchedAt: Date.now(),
  }),
  'clusters.killTaskManager': (_clusterId: string, taskManagerId: string) => ({ message: `TaskManager ${taskManagerId} killed; it ran no task.` }),
  'exports.subtaskMetrics': (_clusterId: string, jobId: string) => ({
    suggestedName: `subtasks-${jobId.slice(0, 8)}.csv`,
    content: 'vertex_id,vertex_name,subtask\nsrc,Source,0\n',
    mime: 'text/csv',
    rows: 1,
  }),
  // The history: the fake records nothing, and says so.
  'jobs.rescales': (clusterId: string, jobId: string) => {
    if (jobId === failed.id) {
      return { clusterId, jobId, available: false, why: 'This job runs the Default scheduler: only the adaptive scheduler records its rescales.', fetchedAt: Date.now(), requestCount: 3 };
    }
    const at = Date.now() - 600_000;
    const vertex = (before: number | null, after: number | null, desired: number) => ({ vertexId: 'v'.repeat(32), vertexName: 'tenant-cost', before, after, desired });
    const rescale = (uuid: string, startedAt: number, terminalState: string, terminatedReason: string, words: string, v: ReturnType<typeof vertex>, journalEntryId: string | null) => ({
      rescaleUuid: uuid.repeat(32),
      triggerCause: 'UPDATE_REQUIREMENT',
      terminalState,
      terminatedReason,
      words,
      startedAt,
      endedAt: startedAt + 19_000,
      durationMs: 19_000,
      vertices: [v],
      slots: [{ slotSharingGroup: 'default', desired: v.desired, minimal: 1, before: v.before, after: v.after }],
      exception: null,
      detailed: true,
      journalEntryId,
    });
    const none = { min: null, max: null, avg: null, p50: null, p90: null, p95: null, p99: null };
    const some = { min: 19_000, max: 19_000, avg: 19_000, p50: 19_000, p90: 19_000, p95: 19_000, p99: 19_000 };
    return {
      clusterId,
      jobId,
      available: true,
      rescales: [
        rescale('b', at + 300_000, 'IGNORED', 'NO_RESOURCES_OR_PARALLELISMS_CHANGE', 'not enough slots to change the parallelism', vertex(4, null, 16), null),
        rescale('a', at, 'COMPLETED', 'SUCCEEDED', 'completed', vertex(2, 4, 4), null),
      ],
      summary: { counts: { completed: 1, ignored: 1, failed: 0, inProgress: 0 }, durations: { all: some, completed: some, ignored: some, failed: none } },
      config: { historySize: 20, cooldownMs: 30_000, resourceStabilizationMs: 60_000, maxTriggerDelayMs: 30_000, submissionResourceWaitMs: 300_000, submissionResourceStabilizationMs: 10_000, rescaleOnFailedCheckpointCount: 2 },
      unmatchedJournalEntryIds: [],
      fetchedAt: Date.now(),
      requestCount: 5,
    };
  },
  'history.watches': () => [],
  'history.setPinned': () => null,
  'history.recordedJobs': () => [],
  'history.recordedJob': () => null,
  'history.checkpoints': (clusterId: string, jobId: string) => ({
    clusterId, jobId, jobName: null, checkpoints: [], inHistory: 0, flink: null, latestCompleted: null, latestSavepoint: null,
    latestFailed: null, restored: null, markers: [], emptyReason: 'The development fake keeps no history.', watch: null,
  }),
  'history.metrics': (clusterId: string, jobId: string, windowMs: number) => ({
    clusterId, jobId, from: Date.now() - windowMs, to: Date.now(), samples: 0, vertices: [], markers: [], firstSampleAt: null, lastSampleAt: null,
  }),
  'jobs.list': () => [...jobs.map((j) => ({ ...j.summary, durationMs: Date.now() - j.summary.startTime })), finished, failed],
  'jobs.graph': (clusterId: string, jobId: string): JobGraph => {
    const job = jobs.find((j) => j.summary.id === jobId);
    if (!job) throw new Fail({ kind: 'not-found', message: `The cluster has no job ${jobId}.`, endpoint: `GET /jobs/${jobId}`, status: 404 });
    return {
      clusterId,
      jobId,
      name: job.summary.name,
      state: job.summary.state,
      startTime: job.summary.startTime,
      durationMs: Date.now() - job.summary.startTime,
      maxParallelism: 128,
      endTime: null,
      vertices: job.vertices.map(metrics),
      edges: job.edges,
      fetchedAt: Date.now(),
      requestCount: 1 + job.vertices.length,
    };
  },
  'jobs.plan': (clusterId: string, jobId: string): JobPlan => {
    const job = jobs.find((j) => j.summary.id === jobId);
    if (!job) throw new Fail({ kind: 'not-found', message: `The cluster has no job ${jobId}.`, endpoint: `GET /jobs/${jobId}`, status: 404 });
    return { clusterId, jobId, name: job.summary.name, vertices: job.vertices.map(({ id, name, parallelism }) => ({ id, name, parallelism })), edges: job.edges };
  },
  'jobs.subtasks': (clusterId: string, jobId: string, vertexId: string) => {
    const job = jobs.find((j) => j.summary.id === jobId);
    const v = job?.vertices.find((x) => x.id === vertexId);
    if (!job || !v) throw new Fail({ kind: 'not-found', message: `The job has no vertex ${vertexId}.`, endpoint: `GET /jobs/${jobId}/vertices/${vertexId}`, status: 404 });
    const subtasks: SubtaskRow[] = Array.from({ length: v.parallelism }, (_, index) => {
      const s = seeded(`${vertexId}${index}`);
      const busy = Math.round(s * 900);
      const bp = s > 0.7 ? Math.round((s - 0.7) * 1500) : 0;
      return {
        index,
        attempt: index === 1 ? 1 : 0,
        status: 'RUNNING',
        endpoint: `taskmanager-${index % 2}.flink.svc:6122`,
        taskManagerId: `10.0.0.${index % 2}:6122-${(index % 2) + 1}a2b3c`,
        recordsIn: Math.round(s * 9_000_000),
        recordsOut: Math.round(s * 8_500_000),
        bytesIn: Math.round(s * 3e9),
        bytesOut: Math.round(s * 2.2e9),
        clockMs: null,
        busyTimeMsPerSecond: busy,
        backPressuredTimeMsPerSecond: bp,
        idleTimeMsPerSecond: Math.max(0, 1000 - busy - bp),
        backpressureLevel: bp / 1000 <= 0.1 ? 'ok' : bp / 1000 <= 0.5 ? 'low' : 'high',
        watermark: index === 0 ? null : Date.now() - Math.round(s * 30_000),
      };
    });
    return { clusterId, jobId, vertexId, name: v.name, parallelism: v.parallelism, subtasks, backpressureLevel: 'low', fetchedAt: Date.now(), requestCount: 3 };
  },
  ...fakeKafka(),
};

/** Kafka on the fake cluster: settings saved in memory, a saw-toothing lag, a hot tenant. */
function fakeKafka(): Partial<Record<EngineCallName, (...args: never[]) => unknown>> {
  const settings = new Map<string, KafkaSettingsView>();
  const lagAt = (t: number) => Math.round(4000 + 3000 * ((t / 10_000) % 1));
  return {
    'kafka.settings': (clusterId: string) => settings.get(clusterId) ?? null,
    'kafka.saveSettings': (clusterId: string, input: KafkaSettingsInput) => {
      const view: KafkaSettingsView = {
        bootstrapServers: input.bootstrapServers.split(','),
        tls: input.tls,
        sasl: input.sasl.mechanism === 'none' ? { mechanism: 'none', hasSecret: false } : { mechanism: input.sasl.mechanism, username: input.sasl.username, hasSecret: true },
        clientId: input.clientId ?? 'flink-ops-console',
        timeoutMs: input.timeoutMs ?? 10_000,
      };
      settings.set(clusterId, view);
      return view;
    },
    'kafka.removeSettings': (clusterId: string) => void settings.delete(clusterId),
    'kafka.source': () => ({ topics: ['gateway-events'], groupId: 'gatewaymeter', pendingRecords: 5200, sourceVertexId: null, checkpointIntervalMs: 10_000 }),
    'kafka.consumerLag': (_clusterId: string, query: ConsumerLagQuery): ConsumerLagView => {
      const partitions = Array.from({ length: 8 }, (_, p) => ({ topic: 'gateway-events', partition: p, committedOffset: p === 7 ? null : 100_000 + p * 1000, logEndOffset: 100_600 + p * 1000, logStartOffset: 0, lag: p === 7 ? null : 600 }));
      return { groupId: query.groupId, groupState: 'Empty', members: 0, topics: ['gateway-events'], partitions, totalLag: lagAt(Date.now()), partitionsWithoutCommit: 1, fetchedAt: Date.now(), requestCount: 4, pendingRecords: 5200 };
    },
    'kafka.lagHistory': (_clusterId: string, _groupId: string, sinceMs: number) =>
      Array.from({ length: 60 }, (_, i) => Date.now() - (59 - i) * 5000).filter((at) => at >= sinceMs).map((at) => ({ at, totalLag: lagAt(at), partitionsWithoutCommit: 1, pendingRecords: 5000 })),
    'kafka.sampleHotKeys': (_clusterId: string, query: HotKeySampleQuery): HotKeySample => {
      const shares: Array<[string, number, number, number]> = [['acme', 0.4, 50, 12], ['globex', 0.08, 35, 8], ['initech', 0.07, 84, 21]];
      return {
        topic: query.topic, keyPath: query.keyPath, from: Date.now() - 60_000, to: Date.now(), records: 60_000, keyed: 60_000, notJson: 0, missingKey: 0, distinctKeys: 16,
        keys: shares.map(([key, share, keyGroup, subtask]) => ({ key, count: share * 60_000, share, ratePerSecond: share * 1000, keyGroup, subtask })),
        keyedVertex: query.keyedVertex, partial: false, partitions: 8, sampledAt: Date.now(),
      };
    },
  };
}

export function fakeTransport(): Transport {
  return async (call, args): Promise<BridgeResponse> => {
    await delay(call === 'clusters.save' || call === 'clusters.check' ? 500 : 150);
    try {
      const handler = handlers[call] as ((...a: unknown[]) => unknown) | undefined;
      if (!handler) throw new Fail({ kind: 'internal', message: `The development fake does not answer ${call}.` });
      return { ok: true, value: (await handler(...args)) ?? null };
    } catch (error) {
      if (error instanceof Fail) return { ok: false, error: error.info };
      return { ok: false, error: { kind: 'internal', message: String(error) } };
    }
  };
}
