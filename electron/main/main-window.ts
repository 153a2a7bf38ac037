import { BrowserWindow, type Rectangle } from 'electron';
import { PRODUCT_NAME } from '../common/app-identity.ts';
import { MIN_WINDOW_SIZE, type WindowState } from './window-state.ts';

export interface MainWindowOptions {
  preloadFile: string;
  /** Where it opens: already checked to be on screen (`restoreWindowState`). */
  state: WindowState;
  /** Shown before the page paints, so a dark theme does not flash white. */
  backgroundColor: string;
  /** Developer tools only in development builds. */
  development: boolean;
  /** The window icon on Linux (macOS and Windows take the app's). */
  icon?: string;
}

/** The state to remember when the window closes: its normal bounds even while maximised or full screen. */
export function currentWindowState(window: Pick<BrowserWindow, 'getNormalBounds' | 'isMaximized' | 'isFullScreen'>): WindowState {
  const bounds: Rectangle = window.getNormalBounds();
  return { bounds, maximized: window.isMaximized(), fullScreen: window.isFullScreen() };
}

/**
 * Creates the window where it was last time, loads the page (at `hash`, e.g. a deep link) and shows it
 * when painted. `saveState` gets the state to remember when it closes.
 */
export function createMainWindow(
  options: MainWindowOptions & { pageFile: string; hash?: string; saveState: (state: WindowState) => void },
): { window: BrowserWindow; loaded: Promise<void> } {
  // The options stay literal here: audit tools (electronegativity) read them from this call.
  // The page is untrusted UI: no Node, no navigation, no new windows, no devtools in a release.
  const window = new BrowserWindow({
    title: PRODUCT_NAME,
    ...options.state.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    backgroundColor: options.backgroundColor,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: options.development,
      // A middle click would try to open a link in a new window; there are none to open.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (options.state.maximized) window.maximize();
  if (options.state.fullScreen) window.setFullScreen(true);
  window.once('ready-to-show', () => window.show());
  window.on('close', () => options.saveState(currentWindowState(window)));
  const loaded = window.loadFile(options.pageFile, options.hash ? { hash: options.hash.replace(/^#/, '') } : undefined);
  return { window, loaded };
}
