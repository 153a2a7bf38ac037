import { SKEW_METRICS } from '../contracts/diagnosis.ts';

/**
 * JSON Schema (draft-07) of `flink-ops diagnose --json`: a `JobDiagnosis` (engine/contracts/diagnosis.ts). Printed by
 * `flink-ops diagnose --json-schema`; the tests validate real output against it, so it cannot drift from the code.
 */
const number = { type: 'number' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;
const integer = { type: 'integer', minimum: 0 } as const;
const metric = { enum: [...SKEW_METRICS], description: 'Per-subtask metric: window means of rates (records/s, bytes/s, ms/s), or checkpointed state bytes.' } as const;

const subtaskRef = {
  type: 'object',
  required: ['subtask', 'taskManagerId', 'endpoint'],
  properties: {
    subtask: { ...integer, description: 'Subtask index.' },
    taskManagerId: { ...nullableString, description: 'TaskManager the subtask ran on at the end of the window.' },
    endpoint: { ...nullableString, description: 'host:port of that TaskManager.' },
  },
} as const;

const finding = {
  type: 'object',
  required: ['kind', 'severity', 'sentence', 'details', 'vertexId', 'vertexName', 'subtasks', 'metric', 'victims', 'suggestedParallelism'],
  additionalProperties: false,
  properties: {
    kind: {
      enum: ['skew', 'under-provisioned', 'external-system-slow', 'unclear-backpressure', 'idle-source-split', 'nothing-wrong', 'not-enough-data'],
    },
    severity: { enum: ['critical', 'warning', 'ok', 'unknown'] },
    sentence: { type: 'string', description: 'The finding in one sentence.' },
    details: { type: 'array', items: { type: 'string' }, description: 'Why, and what to do.' },
    vertexId: { ...nullableString, description: 'The vertex the finding is about.' },
    vertexName: nullableString,
    subtasks: { type: 'array', items: subtaskRef, description: 'The subtasks it names (hot, idle split).' },
    metric: { oneOf: [metric, { type: 'null' }], description: 'The metric that proves it.' },
    victims: {
      type: 'array',
      description: 'Vertices back-pressured by the cause, nearest first.',
      items: {
        type: 'object',
        required: ['vertexId', 'name', 'level', 'highSubtasks', 'idleSubtasks', 'direct'],
        properties: {
          vertexId: { type: 'string' },
          name: { type: 'string' },
          level: { enum: ['low', 'high'] },
          highSubtasks: { type: 'array', items: integer },
          idleSubtasks: { type: 'array', items: integer },
          direct: { type: 'boolean', description: 'Directly upstream of the cause.' },
        },
      },
    },
    suggestedParallelism: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['current', 'suggested', 'atLeast', 'evenKeyGroups'],
          properties: {
            current: integer,
            suggested: { ...integer, description: 'Brings the busiest subtask under 70% busy.' },
            atLeast: { type: 'boolean', description: 'The vertex is saturated: its real demand is higher than measured.' },
            evenKeyGroups: { ...nullableNumber, description: 'A parallelism at or above that divides the key groups evenly.' },
          },
        },
      ],
    },
  },
} as const;

const metricSkew = {
  type: 'object',
  required: ['metric', 'counted', 'missing', 'invalid', 'min', 'max', 'maxSubtask', 'mean', 'median', 'dataSkewPercent', 'maxOverMean', 'maxOverMedian', 'idle', 'hot'],
  properties: {
    metric,
    counted: { ...integer, description: 'Subtasks with a value.' },
    missing: { ...integer, description: 'Subtasks without one (metric not reported).' },
    invalid: { ...integer, description: 'Subtasks with a broken value (negative, infinite), left out.' },
    min: nullableNumber,
    max: nullableNumber,
    maxSubtask: { type: ['integer', 'null'] },
    mean: nullableNumber,
    median: nullableNumber,
    dataSkewPercent: { ...nullableNumber, description: "Flink's Data Skew (DoubleDataSkew): mean absolute deviation / mean × 100, capped at 100." },
    maxOverMean: nullableNumber,
    maxOverMedian: nullableNumber,
    idle: { ...integer, description: 'Subtasks at about zero while others are not.' },
    hot: {
      type: 'array',
      items: { ...subtaskRef, required: [...subtaskRef.required, 'value', 'timesMean'], properties: { ...subtaskRef.properties, value: number, timesMean: nullableNumber } },
    },
  },
} as const;

export const DIAGNOSIS_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://flink-ops.dev/schemas/job-diagnosis-1.json',
  title: 'JobDiagnosis',
  description: 'flink-ops diagnose --json: the root cause, per-subtask skew figures and hot subtasks of a job over a window of samples.',
  type: 'object',
  required: ['schemaVersion', 'clusterId', 'jobId', 'jobName', 'jobState', 'window', 'finding', 'otherFindings', 'confidence', 'notKnown', 'vertices', 'checkpointOutliers'],
  properties: {
    schemaVersion: { const: 1 },
    clusterId: { type: 'string' },
    jobId: { type: 'string' },
    jobName: { type: 'string' },
    jobState: { type: 'string' },
    window: {
      type: 'object',
      required: ['requestedMs', 'from', 'to', 'samples', 'spanMs'],
      properties: {
        requestedMs: integer,
        from: { ...nullableNumber, description: 'First sample time, epoch ms.' },
        to: { ...nullableNumber, description: 'Last sample time, epoch ms.' },
        samples: integer,
        spanMs: { ...number, minimum: 0 },
      },
    },
    finding,
    otherFindings: { type: 'array', items: finding },
    confidence: {
      type: 'object',
      required: ['level', 'reasons'],
      properties: { level: { enum: ['high', 'medium', 'low'] }, reasons: { type: 'array', items: { type: 'string' } } },
    },
    notKnown: { type: 'array', items: { type: 'string' }, description: 'What the analysis could not know.' },
    vertices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['vertexId', 'name', 'parallelism', 'maxParallelism', 'keyed', 'loadMetric', 'pattern', 'backpressureLevel', 'restartedSubtasks', 'unavailable', 'metrics'],
        properties: {
          vertexId: { type: 'string' },
          name: { type: 'string' },
          parallelism: integer,
          maxParallelism: { type: ['integer', 'null'] },
          keyed: { type: 'boolean', description: 'Reads a hash-partitioned (keyBy) input.' },
          loadMetric: { oneOf: [metric, { type: 'null' }] },
          pattern: { enum: ['hot', 'few-keys', 'even', 'idle', 'unknown'] },
          backpressureLevel: { enum: ['ok', 'low', 'high', null] },
          restartedSubtasks: { type: 'array', items: integer },
          unavailable: nullableString,
          metrics: { type: 'array', items: metricSkew },
        },
      },
    },
    checkpointOutliers: {
      description: 'The subtasks that stood out in the newest completed checkpoint of the window with details; null when there is none.',
      oneOf: [
        { type: 'null' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['checkpointId', 'triggerTimestamp', 'vertexId', 'vertexName', 'figure', 'subtasks', 'values', 'othersMax', 'sentence'],
            properties: {
              checkpointId: integer,
              triggerTimestamp: integer,
              vertexId: { type: 'string' },
              vertexName: { type: 'string' },
              figure: { enum: ['startDelayMs', 'alignmentDurationMs', 'syncDurationMs', 'asyncDurationMs', 'endToEndDurationMs', 'stateBytes'] },
              subtasks: { type: 'array', items: integer },
              values: { type: 'array', items: number },
              othersMax: number,
              sentence: { type: 'string', description: 'Who stood out, by how much, compared with what, and the usual cause.' },
            },
          },
        },
      ],
    },
    basis: {
      description:
        "What the finding rests on: the window's figures, or Flink's current figures (fetched at fetchedAt, epoch ms) while the window holds too little evidence for a verdict or while Flink reports a vertex HIGH that the window does not show yet.",
      oneOf: [
        { type: 'object', required: ['source'], properties: { source: { const: 'window' } }, additionalProperties: false },
        {
          type: 'object',
          required: ['source', 'fetchedAt', 'reason'],
          properties: {
            source: { const: 'flink-now' },
            fetchedAt: integer,
            reason: { enum: ['no-evidence', 'flink-high'], description: 'no-evidence: the window holds too little for a verdict yet; flink-high: a vertex Flink reports HIGH that the window does not show yet.' },
          },
          additionalProperties: false,
        },
      ],
    },
  },
} as const;
