import { ENGINE_METHODS, type BridgeResponse, type EngineApi, type EngineMethod } from '../contracts/engine-api.ts';
import { toErrorInfo } from '../flink-rest/errors.ts';

/**
 * The engine side of the bridge, shared by Electron IPC and the web server:
 * refuses methods outside the allow-list and turns every failure into data the UI can show.
 */
export async function dispatchEngineCall(engine: EngineApi, method: unknown, args: unknown): Promise<BridgeResponse> {
  if (typeof method !== 'string' || !(ENGINE_METHODS as readonly string[]).includes(method)) {
    return { ok: false, error: { kind: 'invalid-input', message: `Unknown engine call "${String(method)}".` } };
  }
  if (!Array.isArray(args)) {
    return { ok: false, error: { kind: 'invalid-input', message: `Arguments of "${method}" must be a list.` } };
  }
  try {
    const call = engine[method as EngineMethod] as (...a: unknown[]) => Promise<unknown>;
    const value = await call.apply(engine, args);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return { ok: false, error: toErrorInfo(error) };
  }
}
