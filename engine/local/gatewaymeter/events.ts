/**
 * GatewayMeter's data: an LLM gateway's events, the request records `assemble` builds from them, and the per-tenant
 * cost rows `tenant-cost` emits.
 */

export const EVENT_TYPES = [
  'RequestStarted',
  'TokenGenerated',
  'ToolCalled',
  'AgentStepCompleted',
  'ModelError',
  'RequestCompleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `Event(event_type, request_id, tenant_id, model, ts, payload)`; `ts` is event time in ms. */
export interface GatewayEvent {
  event_type: EventType;
  request_id: string;
  tenant_id: string;
  model: string;
  ts: number;
  payload: {
    /** RequestStarted */
    prompt_tokens?: number;
    /** RequestCompleted */
    latency_ms?: number;
    completion_tokens?: number;
    status?: string;
  };
}

export type RequestStatus = 'ok' | 'error' | 'abandoned';

/** One request, assembled from its events (emitted on completion, or as abandoned by the timeout timer). */
export interface RequestRecord {
  request_id: string;
  tenant_id: string;
  model: string;
  start_ts: number;
  end_ts: number;
  latency_ms: number;
  prompt_tokens: number;
  completion_tokens: number;
  status: RequestStatus;
  tool_calls: number;
  agent_steps: number;
  errors: number;
}

/** The sink's row: `{"tenant_id", "window_start", "window_end", "usd", "requests"}` (window bounds in ms). */
export interface TenantCost {
  tenant_id: string;
  window_start: number;
  window_end: number;
  usd: number;
  requests: number;
}

/** A partial sum of the salted pipeline's first stage (or a one-request part from its late side output). */
export interface TenantCostPart {
  tenant_id: string;
  nano_usd: number;
  requests: number;
}

const EVENT_TYPE_SET: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Parses one JSON line into an event; undefined when it is not a valid GatewayMeter event. */
export function parseEvent(line: string): GatewayEvent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as Record<string, unknown>;
  if (
    typeof e.event_type !== 'string' ||
    !EVENT_TYPE_SET.has(e.event_type) ||
    typeof e.request_id !== 'string' ||
    typeof e.tenant_id !== 'string' ||
    typeof e.model !== 'string' ||
    typeof e.ts !== 'number' ||
    !Number.isFinite(e.ts)
  ) {
    return undefined;
  }
  const payload = typeof e.payload === 'object' && e.payload !== null ? (e.payload as GatewayEvent['payload']) : {};
  return { event_type: e.event_type as EventType, request_id: e.request_id, tenant_id: e.tenant_id, model: e.model, ts: e.ts, payload };
}

// Serialized sizes, close to what Flink's POJO/String serializers put on the wire.
export const rawEventSize = (line: unknown): number => (line as string).length + 4;
export const eventSize = (e: unknown): number => {
  const v = e as GatewayEvent;
  return 48 + v.event_type.length + v.request_id.length + v.tenant_id.length + v.model.length;
};
export const requestRecordSize = (r: unknown): number => {
  const v = r as RequestRecord;
  return 72 + v.request_id.length + v.tenant_id.length + v.model.length + v.status.length;
};
export const tenantCostSize = (c: unknown): number => 36 + (c as TenantCost).tenant_id.length;
export const tenantCostPartSize = (c: unknown): number => 24 + (c as TenantCostPart).tenant_id.length;
