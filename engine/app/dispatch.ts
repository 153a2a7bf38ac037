import { checkEngineCall } from '../contracts/check-engine-call.ts';
import type { BridgeResponse, EngineApi } from '../contracts/engine-api.ts';
import { toErrorInfo } from '../flink-rest/errors.ts';

/**
 * The engine side of the bridge, shared by Electron IPC and the web server: refuses calls outside the table and
 * arguments their spec refuses, and turns every failure into data the UI can show.
 */
export async function dispatchEngineCall(engine: EngineApi, name: unknown, args: unknown): Promise<BridgeResponse> {
  const checked = checkEngineCall(name, args);
  if (!checked.ok) return { ok: false, error: checked.error };
  try {
    const service = engine[checked.service] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const value = await service[checked.method](...checked.args);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return { ok: false, error: toErrorInfo(error) };
  }
}
