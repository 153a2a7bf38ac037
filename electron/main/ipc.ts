import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { dispatchEngineCall } from '../../engine/app/dispatch.ts';
import type { BridgeResponse, EngineApi } from '../../engine/contracts/engine-api.ts';
import { ENGINE_CHANNEL } from '../common/engine-channel.ts';
import { isTrustedSender, type SenderFrameInfo } from './is-trusted-sender.ts';

/**
 * Wires the one IPC channel: a call from the app's own top-level page goes to the shared
 * dispatcher (allow-list, argument shape, error mapping); a call from anywhere else is refused.
 * Returns a function that unwires it.
 */
export function registerEngineIpc(engine: EngineApi, trustedPageUrl: string): () => void {
  ipcMain.handle(ENGINE_CHANNEL, async (event: IpcMainInvokeEvent, method: unknown, args: unknown): Promise<BridgeResponse> => {
    if (!isFromTrustedPage(event, trustedPageUrl)) {
      return {
        ok: false,
        error: { kind: 'forbidden', message: 'Engine calls are accepted only from the console\'s own page.' },
      };
    }
    return dispatchEngineCall(engine, method, args);
  });
  return () => ipcMain.removeHandler(ENGINE_CHANNEL);
}

/** True when the call comes from the app's own top-level page (see is-trusted-sender.ts). */
export function isFromTrustedPage(event: IpcMainInvokeEvent, trustedPageUrl: string): boolean {
  const caseInsensitivePaths = process.platform === 'win32' || process.platform === 'darwin';
  return isTrustedSender(senderFrameInfo(event), trustedPageUrl, { caseInsensitivePaths });
}

/** The frame a call came from, or null when it is gone; shared with the shell's channel. */
export function senderFrameInfo(event: IpcMainInvokeEvent): SenderFrameInfo | null {
  try {
    const frame = event.senderFrame;
    if (!frame || frame.detached) return null;
    return { url: frame.url, isMainFrame: frame.parent === null };
  } catch {
    // The frame navigated away or was destroyed while the call was in flight.
    return null;
  }
}
