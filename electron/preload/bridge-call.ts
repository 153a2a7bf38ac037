import { ENGINE_METHODS, type BridgeResponse } from '../../engine/contracts/engine-api.ts';

/**
 * The preload's half of an allow-list (the engine's by default, or the shell's): a call that main would refuse is refused here,
 * before it crosses the process boundary. Returns the refusal, or null when the call may cross.
 * Main checks again (`dispatchEngineCall`): the page is never trusted to have come through here.
 */
export function refuseBridgeCall(method: unknown, args: unknown, allowed: readonly string[] = ENGINE_METHODS): BridgeResponse | null {
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
