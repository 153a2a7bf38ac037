import { requestsPerSecond } from '../local/gatewaymeter/generator.ts';
import type { Scenario } from '../local/scenarios/scenario.ts';

/**
 * The twin as a local-engine scenario: GatewayMeter (or its salted two-stage variant) whose keyed vertex, `tenant-cost`,
 * stands for production's keyed vertex: its keys are the twin's keys (as tenants), one record per request, each subtask
 * sustaining what production's sustains. Requests are kept to two events (start, completion) and nothing upstream
 * costs time, so only the keyed vertex shapes the run. Pure.
 */

export const TWIN_SLOTS_PER_TASK_MANAGER = 8;
/** Upstream of the keyed vertex (source, parse, assemble): cheap, never the bottleneck. */
export const TWIN_UPSTREAM_PARALLELISM = 4;

export interface TwinShape {
  job: 'gatewaymeter' | 'gatewaymeter-salted';
  /** The keyed vertex's parallelism (both stages of the salted job). */
  parallelism: number;
  maxParallelism: number;
  /** Records/s per key. */
  recordsPerSecond: Record<string, number>;
  /** What one subtask of the keyed vertex sustains (records/s), and a record's cost below that (ms). */
  capacityRecordsPerSecond: number;
  costPerRecordMs: number;
}

const TRAFFIC_BASE: Omit<Scenario['traffic'], 'rate' | 'tenants'> = {
  models: { 'model-a': 1 },
  tokenEvents: [0, 0],
  toolCallProbability: 0,
  agentStepProbability: 0,
  modelErrorProbability: 0,
  abandonFraction: 0,
  orphanFraction: 0,
  lateFraction: 0,
  latencyMs: [50, 200],
  maxOutOfOrdernessMs: 200,
  phases: [],
};

export function twinScenario(shape: TwinShape): Scenario {
  const total = Object.values(shape.recordsPerSecond).reduce((a, b) => a + b, 0);
  // Events per second that start `total` requests per second (each request: one record into the keyed vertex).
  const probe = 1000;
  const eventsPerRequest = probe / requestsPerSecond({ seed: 0, ...TRAFFIC_BASE, tenants: { t: 1 }, rate: probe });
  const keyed = shape.job === 'gatewaymeter' ? ['tenant-cost'] : ['tenant-cost-partial', 'tenant-cost'];
  const capacity = { maxRecordsPerSecond: shape.capacityRecordsPerSecond, costPerRecordMs: shape.costPerRecordMs };
  const slots = Math.max(shape.parallelism, TWIN_UPSTREAM_PARALLELISM);
  return {
    name: 'rehearsal-twin',
    description: 'A rehearsal: production keyed vertex replayed on the local engine.',
    job: shape.job,
    parallelism: TWIN_UPSTREAM_PARALLELISM,
    operatorParallelism: Object.fromEntries(keyed.map((uid) => [uid, shape.parallelism])),
    cluster: { taskManagers: Math.ceil(slots / TWIN_SLOTS_PER_TASK_MANAGER), slotsPerTaskManager: TWIN_SLOTS_PER_TASK_MANAGER },
    // Small network buffers: the hot channel's backlog fills in seconds, so back-pressure settles within the warm-up.
    configuration: { 'taskmanager.memory.segment-size': '4kb', 'pipeline.max-parallelism': String(shape.maxParallelism) },
    traffic: { ...TRAFFIC_BASE, rate: total * eventsPerRequest, tenants: shape.recordsPerSecond },
    capacity: Object.fromEntries(keyed.map((uid) => [uid, capacity])),
  };
}
