import { DIAGNOSIS_JSON_SCHEMA } from '../analysis/diagnosis-schema.ts';
import { SUBTASK_COLUMNS } from './report-columns.ts';
import { SKEW_REPORT_SCHEMA_VERSION } from './skew-report.ts';

/**
 * JSON Schema (draft-07) of a skew report (`flink-ops report --format json`, a `SkewReport`). The same object is in
 * resources/schemas/skew-report.schema.json for people without the console (a test keeps the two equal); every report
 * the tests produce is validated against it. The finding and the skew figures are the diagnosis's own.
 */
const diagnosis = DIAGNOSIS_JSON_SCHEMA.properties;
const integer = { type: 'integer', minimum: 0 } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

const columnSchema = (type: 'integer' | 'number' | 'string', description: string) => ({
  type: 'array',
  description,
  items: { type: [type, 'null'] },
});

export const SKEW_REPORT_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: `https://flink-ops.dev/schemas/skew-report-${SKEW_REPORT_SCHEMA_VERSION}.json`,
  title: 'SkewReport',
  description: 'A Flink Ops Console skew report: one job over one window of samples. Per-subtask figures are columns: one array per figure, indexed by subtask.',
  type: 'object',
  required: ['schemaVersion', 'asOf', 'cluster', 'job', 'window', 'finding', 'otherFindings', 'confidence', 'notKnown', 'vertices', 'checkpoints', 'checkpointOutliers', 'hotKeys'],
  additionalProperties: false,
  properties: {
    schemaVersion: { const: SKEW_REPORT_SCHEMA_VERSION },
    asOf: { ...nullableString, description: 'The time the figures describe: the last sample of the window (ISO 8601, UTC).' },
    cluster: {
      type: 'object',
      required: ['id', 'name', 'url', 'flinkVersion'],
      properties: { id: { type: 'string' }, name: nullableString, url: nullableString, flinkVersion: nullableString },
    },
    job: {
      type: 'object',
      required: ['id', 'name', 'state'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } },
    },
    window: {
      type: 'object',
      required: [...diagnosis.window.required, 'intervalMs', 'events'],
      properties: {
        ...diagnosis.window.properties,
        intervalMs: { ...nullableNumber, description: 'Mean time between samples, ms.' },
        events: {
          type: 'array',
          description: 'Gaps in the sampling, restarts and failovers inside the window.',
          items: { type: 'object', required: ['t', 'kind', 'message'], properties: { t: { type: 'number' }, kind: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
    finding: diagnosis.finding,
    otherFindings: diagnosis.otherFindings,
    confidence: diagnosis.confidence,
    notKnown: diagnosis.notKnown,
    vertices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'parallelism', 'maxParallelism', 'keyed', 'status', 'pattern', 'backpressureLevel', 'hotSubtasks', 'restartedSubtasks', 'unavailable', 'metrics', 'subtasks'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          parallelism: integer,
          maxParallelism: { type: ['integer', 'null'] },
          keyed: { type: 'boolean', description: 'Reads a hash-partitioned (keyBy) input: its subtasks own key groups.' },
          status: { type: 'string' },
          pattern: diagnosis.vertices.items.properties.pattern,
          backpressureLevel: diagnosis.vertices.items.properties.backpressureLevel,
          hotSubtasks: { type: 'array', items: integer, description: 'Hot subtasks on the load metric.' },
          restartedSubtasks: { type: 'array', items: integer },
          unavailable: nullableString,
          metrics: diagnosis.vertices.items.properties.metrics,
          subtasks: {
            type: 'object',
            required: SUBTASK_COLUMNS.map((c) => c.json),
            additionalProperties: false,
            properties: Object.fromEntries(SUBTASK_COLUMNS.map((c) => [c.json, columnSchema(c.type, `${c.description} CSV: ${c.csv}.`)])),
          },
        },
      },
    },
    checkpoints: {
      type: 'array',
      description: 'Checkpoints triggered inside the window, oldest first.',
      items: {
        type: 'object',
        required: ['id', 'status', 'isSavepoint', 'triggerTimestamp', 'endToEndDurationMs', 'checkpointedBytes', 'stateBytes', 'failureMessage'],
        properties: {
          id: integer,
          status: { type: 'string' },
          isSavepoint: { type: 'boolean' },
          triggerTimestamp: { type: 'number', description: 'epoch ms' },
          endToEndDurationMs: nullableNumber,
          checkpointedBytes: { ...nullableNumber, description: 'Incremental size, bytes.' },
          stateBytes: { ...nullableNumber, description: 'Full state size, bytes.' },
          failureMessage: nullableString,
        },
      },
    },
    checkpointOutliers: diagnosis.checkpointOutliers,
    hotKeys: {
      oneOf: [
        { type: 'null' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['key', 'share', 'keyGroup', 'subtask'],
            properties: { key: { type: 'string' }, share: { type: 'number' }, keyGroup: integer, subtask: integer },
          },
        },
      ],
    },
    state: {
      description: "Where the state lives and how fast it grows: the State view's sentence and per-vertex figures over the window, from the checkpoints kept. Null without checkpoints; absent in reports made before it.",
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['suspect', 'suspectLabel', 'vertexId', 'sentence', 'confidence', 'alsoSeen', 'projection', 'rocksdb', 'checkpoints', 'vertices', 'notKnown'],
          additionalProperties: false,
          properties: {
            suspect: { enum: ['A', 'B', 'C', 'D', 'bounded', 'unknown'], description: 'A a whale key, B keys that never expire, C raw events kept, D a broadcast table on every subtask.' },
            suspectLabel: { type: 'string' },
            vertexId: nullableString,
            sentence: { type: 'string' },
            confidence: {
              type: 'object',
              required: ['level', 'reasons'],
              properties: { level: { enum: ['high', 'medium', 'low'] }, reasons: { type: 'array', items: { type: 'string' } } },
            },
            alsoSeen: { type: 'array', items: { type: 'string' } },
            projection: nullableString,
            rocksdb: { type: 'string' },
            checkpoints: integer,
            vertices: {
              type: 'array',
              items: {
                type: 'object',
                required: ['vertexId', 'name', 'parallelism', 'totalBytes', 'trend', 'growthPerHour', 'historyGrowthPerHour', 'stateSkewPercent', 'hotSubtasks', 'bytesPerKey'],
                additionalProperties: false,
                properties: {
                  vertexId: { type: 'string' },
                  name: { type: 'string' },
                  parallelism: integer,
                  totalBytes: { ...nullableNumber, description: 'Full state in the newest checkpoint, bytes.' },
                  trend: { enum: ['growing', 'plateauing', 'flat', 'shrinking', 'unknown'] },
                  growthPerHour: { ...nullableNumber, description: 'Over the window, bytes per hour.' },
                  historyGrowthPerHour: { ...nullableNumber, description: 'Over the whole history kept, bytes per hour.' },
                  stateSkewPercent: { ...nullableNumber, description: "Flink's data skew % of the subtasks' state." },
                  hotSubtasks: { type: 'array', items: integer },
                  bytesPerKey: nullableNumber,
                },
              },
            },
            notKnown: { type: 'array', items: { type: 'string' } },
          },
        },
      ],
    },
    operations: {
      description: 'Before vs after each rescale or resubmit of the job in the window, from the history before it and once the job ran again. Absent when the job had none (and in reports made before it).',
      type: 'array',
      items: {
        type: 'object',
        required: ['entryId', 'kind', 'clusterId', 'startedAt', 'runningAgainAt', 'before', 'after', 'rows', 'complete', 'notes'],
        additionalProperties: false,
        properties: {
          entryId: { type: 'string', description: "The operation's trigger id in the journal." },
          kind: { enum: ['rescale', 'resubmit'] },
          clusterId: { type: 'string' },
          startedAt: { type: 'number', description: 'When the operation started: the before window ends here (epoch ms).' },
          runningAgainAt: { ...nullableNumber, description: 'The first sample of the job running again: the after window starts here (epoch ms).' },
          before: { oneOf: [{ type: 'null' }, windowFiguresSchema()] },
          after: { oneOf: [{ type: 'null' }, windowFiguresSchema()] },
          rows: {
            type: 'array',
            items: {
              type: 'object',
              required: ['figure', 'label', 'unit', 'before', 'after', 'change'],
              additionalProperties: false,
              properties: {
                figure: { enum: ['skew', 'busiest', 'throughput', 'checkpointDuration', 'stateSize'] },
                label: { type: 'string' },
                unit: { enum: ['ratio', 'ms/s', 'records/s', 'ms', 'bytes'] },
                before: nullableNumber,
                after: nullableNumber,
                change: { ...nullableNumber, description: 'after / before.' },
              },
            },
          },
          complete: { type: 'boolean', description: 'The after window covers all it will.' },
          notes: { type: 'array', items: { type: 'string' } },
          prediction: {
            description: "The rehearsal of this change on the local engine (the newest before the operation, within a day): the twin's keyed vertex as the job ran and with the change. null or absent without one.",
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                required: ['rehearsedAt', 'proposal', 'vertexId', 'vertexName', 'baseline', 'predicted', 'sentence'],
                properties: {
                  rehearsedAt: { type: 'number' },
                  proposal: { type: 'object', description: '{kind: "salt", buckets} or {kind: "parallelism", parallelism}.' },
                  vertexId: { type: 'string' },
                  vertexName: { type: 'string' },
                  baseline: { type: 'object', description: 'busyMaxOverMean and throughputRecordsPerSecond of the twin as the job ran.' },
                  predicted: { type: 'object', description: 'busyMaxOverMean and throughputRecordsPerSecond of the twin with the change.' },
                  sentence: { type: 'string' },
                },
              },
            ],
          },
        },
      },
    },
  },
} as const;

/** One side of a before/after: the job's figures over one window of the history. */
function windowFiguresSchema() {
  return {
    type: 'object',
    required: ['jobId', 'from', 'to', 'samples', 'skew', 'busiest', 'throughputRecordsPerSecond', 'checkpoints', 'stateBytes'],
    properties: {
      jobId: { type: 'string' },
      from: { type: 'number' },
      to: { type: 'number' },
      samples: integer,
      skew: { type: ['object', 'null'], description: 'The most skewed vertex by busy time: max/mean, max and mean ms/s.' },
      busiest: { type: ['object', 'null'], description: 'The busiest subtask of the job (window mean busy ms/s).' },
      throughputRecordsPerSecond: { ...nullableNumber, description: 'Records/s out of the sources.' },
      checkpoints: { type: ['object', 'null'], description: 'Completed checkpoints triggered in the window: count, mean and max duration (ms).' },
      stateBytes: { ...nullableNumber, description: "The full state size of the window's last completed checkpoint." },
    },
  } as const;
}
