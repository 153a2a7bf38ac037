import { checkEngineCall } from '../../engine/contracts/check-engine-call.ts';
import type { BridgeResponse } from '../../engine/contracts/engine-api.ts';

/**
 * The preload's half of the engine's call table: a call that main would refuse (unknown, or with arguments its spec
 * refuses) is refused here, before it crosses the process boundary. Returns the refusal, or null when the call may cross.
 * Main checks again (`dispatchEngineCall`): the page is never trusted to have come through here.
 */
export function refuseEngineCall(name: unknown, args: unknown): BridgeResponse | null {
  const checked = checkEngineCall(name, args);
  return checked.ok ? null : { ok: false, error: checked.error };
}

/** The same for the shell's calls: an allow-list of method names, each with a list of arguments. */
export function refuseShellCall(method: unknown, args: unknown, allowed: readonly string[]): BridgeResponse | null {
  if (typeof method !== 'string' || !allowed.includes(method)) {
    return invalid(`Unknown call "${String(method)}": the bridge accepts only ${allowed.join(', ')}.`);
  }
  if (!Array.isArray(args)) {
    return invalid(`Arguments of "${method}" must be a list, e.g. invoke('${method}', []).`);
  }
  return null;
}

/** What the page gets when the IPC transport itself failed (not the engine: its errors come back as data). */
export function transportFailure(method: string, error: unknown): BridgeResponse {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    error: { kind: 'internal', message: `The call "${method}" did not reach the engine: ${detail}. Restart the console if this persists.` },
  };
}

function invalid(message: string): BridgeResponse {
  return { ok: false, error: { kind: 'invalid-input', message } };
}
