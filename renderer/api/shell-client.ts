import type { SaveFileRequest, ShellApi, ShellEvent, ShellMethod } from '../../engine/contracts/shell-api';
import { EngineCallError } from './engine-client';

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
    async setTheme() {
      // The page applies the theme itself; a browser has no native parts to follow it.
    },
  };
}

function download({ suggestedName, content, mime }: SaveFileRequest): void {
  const blob = new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: mime });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = suggestedName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the blob can go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Asks for the browser's notification permission once, from a user gesture (web mode only). */
export function askNotificationPermissionOnce(): void {
  if (window.flinkOps?.invokeShell) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}
