import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * A stand-in for the `electron` module in main-process unit tests (the binary cannot run here):
 * records what main asks of Electron, and lets a test play Electron's part (fire an event, answer a dialog).
 * Use: `vi.mock('electron', () => import('./testing/electron-double.ts'))`, then import the fakes from this file.
 */

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = Object.assign(new EventEmitter(), { send: vi.fn() });
  readonly loadFile = vi.fn(async (_file: string, _options?: { hash?: string }) => undefined);
  readonly maximize = vi.fn();
  readonly setFullScreen = vi.fn();
  readonly show = vi.fn();
  readonly focus = vi.fn();
  readonly restore = vi.fn();
  normalBounds = { x: 10, y: 20, width: 1200, height: 800 };
  maximized = false;
  fullScreen = false;

  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }

  getNormalBounds() {
    return this.normalBounds;
  }
  isMaximized() {
    return this.maximized;
  }
  isFullScreen() {
    return this.fullScreen;
  }
  isMinimized() {
    return false;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle: vi.fn((channel: string, handler: Handler) => {
    if (ipcMain.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcMain.handlers.set(channel, handler);
  }),
  removeHandler: vi.fn((channel: string) => void ipcMain.handlers.delete(channel)),
  removeAllListeners: vi.fn(),
};

export const shell = {
  openExternal: vi.fn(async (_url: string) => undefined),
  openPath: vi.fn(async (_path: string) => ''),
};

export const dialog = {
  showSaveDialog: vi.fn(async (..._args: unknown[]): Promise<{ canceled: boolean; filePath?: string }> => ({ canceled: true })),
  showErrorBox: vi.fn(),
};

export class Notification extends EventEmitter {
  static supported = true;
  static shown: Array<{ title: string; body: string }> = [];
  static instances: Notification[] = [];
  static isSupported() {
    return Notification.supported;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
    Notification.instances.push(this);
  }
  show() {
    Notification.shown.push(this.options);
  }
}

export const nativeTheme = { themeSource: 'system' as 'system' | 'light' | 'dark', shouldUseDarkColors: true };

export const app = Object.assign(new EventEmitter(), {
  setAsDefaultProtocolClient: vi.fn((_protocol: string, _path?: string, _args?: string[]) => true),
  setAboutPanelOptions: vi.fn(),
});

export const Menu = {
  buildFromTemplate: vi.fn((template: unknown) => ({ template })),
  setApplicationMenu: vi.fn(),
};

/** Fresh fakes for each test. */
export function resetElectronDouble(): void {
  BrowserWindow.instances = [];
  ipcMain.handlers.clear();
  Notification.supported = true;
  Notification.shown = [];
  Notification.instances = [];
  nativeTheme.themeSource = 'system';
  app.removeAllListeners();
  vi.clearAllMocks();
}

/** An IPC event as Electron gives it to a handler: the frame a call came from. */
export function ipcEvent(url: string, options: { mainFrame?: boolean; detached?: boolean } = {}) {
  const frame = { url, detached: options.detached ?? false, parent: options.mainFrame === false ? {} : null };
  return { senderFrame: frame };
}
