/**
 * Sandboxed preload: bundled into one CJS file (electron/dist/preload.cjs) because a sandboxed
 * preload can require only `electron` and a few built-ins. It exposes one object, `window.flinkOps`,
 * with one function; the page never sees `ipcRenderer` or a channel name.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeResponse } from '../../engine/contracts/engine-api.ts';
import { ENGINE_CHANNEL } from '../common/engine-channel.ts';
import { refuseBridgeCall, transportFailure } from './bridge-call.ts';

async function invoke(method: unknown, args: unknown): Promise<BridgeResponse> {
  const refusal = refuseBridgeCall(method, args);
  if (refusal) return refusal;
  try {
    return (await ipcRenderer.invoke(ENGINE_CHANNEL, method, args)) as BridgeResponse;
  } catch (error) {
    return transportFailure(String(method), error);
  }
}

contextBridge.exposeInMainWorld('flinkOps', { invoke });
