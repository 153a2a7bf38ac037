import { checkArgs, type CallSpec } from './call-spec.ts';
import { ENGINE_CALLS, type EngineCallName, type EngineService } from './engine-api.ts';
import type { ErrorInfo } from './errors.ts';

/** Every call the bridge carries, `service.method`. */
export const ENGINE_CALL_NAMES: readonly EngineCallName[] = Object.entries(ENGINE_CALLS).flatMap(([service, calls]) =>
  Object.keys(calls).map((method) => `${service}.${method}` as EngineCallName),
);

export type CheckedCall = { ok: true; service: EngineService; method: string; args: unknown[] } | { ok: false; error: ErrorInfo };

/**
 * A call as it arrives at an edge (the preload, Electron's main, the web server): refused unless it is in the table
 * and its arguments are what its spec says. Own properties only: `constructor` or `__proto__` name nothing here.
 */
export function checkEngineCall(name: unknown, args: unknown): CheckedCall {
  const [service, method, extra] = typeof name === 'string' ? name.split('.') : [];
  const calls = service !== undefined && Object.hasOwn(ENGINE_CALLS, service) ? (ENGINE_CALLS[service as EngineService] as Record<string, CallSpec<unknown[]>>) : undefined;
  if (!calls || method === undefined || extra !== undefined || !Object.hasOwn(calls, method)) {
    return invalid(`Unknown engine call "${String(name)}": a call is "service.method", one of ${ENGINE_CALL_NAMES.join(', ')}.`);
  }
  const checked = checkArgs(name as string, calls[method], args);
  return checked.ok ? { ok: true, service: service as EngineService, method, args: checked.args } : invalid(checked.message);
}

function invalid(message: string): CheckedCall {
  return { ok: false, error: { kind: 'invalid-input', message } };
}
