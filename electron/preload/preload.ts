/**
 * Sandboxed preload: bundled into one CJS file (electron/dist/preload.cjs) because a sandboxed
 * preload can require only `electron` and a few built-ins. It exposes one object, `window.flinkOps`:
 * the engine bridge (`invoke`), the shell bridge (`invokeShell`) and the shell's events (`onShellEvent`).
 * The page never sees `ipcRenderer`, a channel name or an IPC event object.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { BridgeResponse } from '../../engine/contracts/engine-api.ts';
import { SHELL_METHODS, type ShellEvent } from '../../engine/contracts/shell-api.ts';
import { ENGINE_CHANNEL } from '../common/engine-channel.ts';
import { SHELL_CHANNEL, SHELL_EVENT_CHANNEL } from '../common/shell-channel.ts';
import { refuseEngineCall, refuseShellCall, transportFailure } from './bridge-call.ts';
import { shellEventHub } from './shell-events.ts';

async function invoke(call: unknown, args: unknown): Promise<BridgeResponse> {
  const refusal = refuseEngineCall(call, args);
  if (refusal) return refusal;
  try {
    return (await ipcRenderer.invoke(ENGINE_CHANNEL, call, args)) as BridgeResponse;
  } catch (error) {
    return transportFailure(String(call), error);
  }
}

async function invokeShell(method: unknown, args: unknown): Promise<BridgeResponse> {
  const refusal = refuseShellCall(method, args, SHELL_METHODS);
  if (refusal) return refusal;
  try {
    return (await ipcRenderer.invoke(SHELL_CHANNEL, method, args)) as BridgeResponse;
  } catch (error) {
    return transportFailure(String(method), error);
  }
}

const events = shellEventHub();
ipcRenderer.on(SHELL_EVENT_CHANNEL, (_event, payload: unknown) => events.receive(payload));

contextBridge.exposeInMainWorld('flinkOps', {
  invoke,
  invokeShell,
  onShellEvent: (listener: (event: ShellEvent) => void) => events.subscribe(listener),
});
