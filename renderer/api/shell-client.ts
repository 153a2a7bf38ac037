import type { SaveFileRequest, ShellApi, ShellEvent, ShellMethod } from '../../engine/contracts/shell-api';
import type { BridgeResponse } from '../../engine/contracts/engine-api';
import { EngineCallError, readWebToken } from './engine-client';

/**
 * The ShellApi for wherever this bundle runs: the desktop shell through the preload, else the browser
 * (web mode): the Notification API when the user allowed it, a download for saved files.
 */
export function createShellClient(): ShellApi {
  const bridge = window.flinkOps;
  if (bridge?.invokeShell) return desktopShell(bridge.invokeShell.bind(bridge));
  return browserShell();
}

/** The desktop shell's events (menu commands, links opened from outside); web mode has none. */
export function subscribeShellEvents(listener: (event: ShellEvent) => void): () => void {
  return window.flinkOps?.onShellEvent?.(listener) ?? (() => undefined);
}

function desktopShell(invoke: NonNullable<NonNullable<Window['flinkOps']>['invokeShell']>): ShellApi {
  const call = async (method: ShellMethod, args: unknown[]): Promise<unknown> => {
    const response = await invoke(method, args);
    if (!response.ok) throw new EngineCallError(response.error);
    return response.value;
  };
  return {
    notify: async (request) => (await call('notify', [request])) === true,
    saveFile: async (request) => (await call('saveFile', [request])) as Awaited<ReturnType<ShellApi['saveFile']>>,
    saveLogFile: async (request) => (await call('saveLogFile', [request])) as Awaited<ReturnType<ShellApi['saveLogFile']>>,
    setTheme: async (preference) => void (await call('setTheme', [preference])),
  };
}

export function browserShell(): ShellApi {
  return {
    async notify({ title, body }) {
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
      new Notification(title, { body });
      return true;
    },
    async saveFile(request) {
      download(request);
      return { saved: true, location: 'your downloads folder' };
    },
    async saveLogFile({ suggestedName, ...request }) {
      // The web-mode server streams the file to the browser's download: a one-use link asked with the launch token.
      const token = readWebToken(window.location, window.sessionStorage, window.history);
      let answer: BridgeResponse;
      try {
        const response = await fetch('/api/log-downloads', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? ''}` },
          body: JSON.stringify(request),
        });
        answer = (await response.json()) as BridgeResponse;
      } catch {
        throw new EngineCallError({ kind: 'network', message: 'The console lost its connection to the engine. Is `npm start` still running?' });
      }
      if (!answer.ok) throw new EngineCallError(answer.error);
      follow((answer.value as { url: string }).url, suggestedName);
      return { saved: true, location: 'your downloads folder' };
    },
    async setTheme() {
      // The page applies the theme itself; a browser has no native parts to follow it.
    },
  };
}

function download({ suggestedName, content, mime }: SaveFileRequest): void {
  const blob = new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: mime });
  const url = URL.createObjectURL(blob);
  follow(url, suggestedName);
  // The download has started from the click; the blob can go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Starts the browser's download of `url` as `fileName`. */
function follow(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Asks for the browser's notification permission once, from a user gesture (web mode only). */
export function askNotificationPermissionOnce(): void {
  if (window.flinkOps?.invokeShell) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}
