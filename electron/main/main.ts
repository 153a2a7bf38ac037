/**
 * Electron composition root: creates the store, the secret store and the engine, wires the IPC channels,
 * the menu, deep links and the window. No business logic lives here; the engine does the work.
 * Bundled by engine/cli/build-electron.mjs into electron/dist/main.cjs (this folder's files and
 * everything they import, except `electron` itself).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, safeStorage, screen, session, shell } from 'electron';
import ElectronStore from 'electron-store';
import { createEngine, type Engine } from '../../engine/app/create-engine.ts';
import { parseDesktopLaunch } from '../../engine/app/desktop-launch.ts';
import { localEngineCluster } from '../../engine/app/local-engine-cluster.ts';
import { localEngineArgs, startLocalEngineProcess, type LocalEngineProcess } from '../../engine/app/local-engine-process.ts';
import { ClusterStore, type KeyValueBackend } from '../../engine/clusters/cluster-store.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import type { ShellEvent } from '../../engine/contracts/shell-api.ts';
import { APP_ID, PRODUCT_NAME, USER_DATA_FOLDER } from '../common/app-identity.ts';
import { SHELL_EVENT_CHANNEL } from '../common/shell-channel.ts';
import { installAppMenu } from './app-menu.ts';
import { watchDeepLinks } from './deep-links.ts';
import { applyTheme, createDesktopShell, storedTheme } from './desktop-shell.ts';
import { KafkaSettingsStore } from '../../engine/kafka/kafka-settings.ts';
import { registerEngineIpc } from './ipc.ts';
import { createMainWindow } from './main-window.ts';
import { createSecretStore } from './safe-storage-secret-store.ts';
import { hardenSession, hardenWebContents } from './security.ts';
import { shellEventQueue } from './shell-event-queue.ts';
import { registerShellIpc } from './shell-ipc.ts';
import { parseWindowState, restoreWindowState, WINDOW_STATE_KEY } from './window-state.ts';

/** Injected by the build from package.json (`define`); absent when this file is not bundled. */
declare const __FLINK_OPS_VERSION__: string | undefined;
declare const __FLINK_OPS_HOMEPAGE__: string | undefined;

/** electron/dist, where the bundle runs from: the repository (or app.asar) root is two folders up. */
const DIST_DIR = __dirname;
const ROOT_DIR = path.resolve(DIST_DIR, '..', '..');
const PAGE_FILE = path.join(ROOT_DIR, 'renderer', 'dist', 'index.html');
const PRELOAD_FILE = path.join(DIST_DIR, 'preload.cjs');
const ENGINE_BIN = path.join(DIST_DIR, 'engine', 'flink-ops.cjs');
const WINDOW_ICON = path.join(ROOT_DIR, 'resources', 'icons', 'png', '512x512.png');
const README_FILE = path.join(ROOT_DIR, 'README.md');
/** The README's section about the desktop app (its heading's anchor). */
const HELP_SECTION = 'the-desktop-app';
/** The window's colour before the page paints (the themes' --bg). */
const BACKGROUND = { dark: '#0d1117', light: '#f6f8fa' } as const;

// Launched as `electron electron/dist/main.cjs` there is no package.json beside the script, so
// Electron would call the app "Electron" and keep its data (and single-instance lock) there.
app.setName(PRODUCT_NAME);
// `flink-ops app --data-dir D` (or the same switch on the app's own command line) moves every store there; the
// single-instance lock goes with it, so two data folders are two independent apps.
const launch = parseDesktopLaunch(process.argv);
app.setPath('userData', launch.dataDir ? path.resolve(launch.dataDir) : path.join(app.getPath('appData'), USER_DATA_FOLDER));
// Windows shows notifications only for an app with an AppUserModelID (the installer's appId).
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
app.enableSandbox();

if (app.requestSingleInstanceLock()) {
  start();
} else {
  // The running instance gets this launch's arguments (and so its deep link) in 'second-instance'.
  app.quit();
}

function start(): void {
  const development = !app.isPackaged;
  let mainWindow: BrowserWindow | null = null;
  const events = shellEventQueue((event: ShellEvent) => mainWindow?.webContents.send(SHELL_EVENT_CHANNEL, event));
  const focusWindow = (): void => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  };

  // Registered before `ready`: macOS delivers a link that launched the app with 'open-url' early.
  let pendingLink: string | null = watchDeepLinks(app, (hash) => {
    if (mainWindow) {
      events.send({ type: 'open-link', hash });
      focusWindow();
    } else {
      pendingLink = hash;
    }
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('second-instance', focusWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let localEngine: LocalEngineProcess | undefined;
  let engine: Engine | undefined;
  app.on('will-quit', () => {
    void localEngine?.stop();
    void engine?.close();
  });

  app
    .whenReady()
    .then(async () => {
      if (!existsSync(PAGE_FILE)) {
        throw new Error(`The console's page is missing at ${PAGE_FILE}. Run \`npm run build\` first.`);
      }
      hardenSession(session.defaultSession);

      const version = typeof __FLINK_OPS_VERSION__ === 'string' ? __FLINK_OPS_VERSION__ : app.getVersion();
      const store = new ElectronStore<Record<string, unknown>>({ name: 'config' });
      // electron-store answers `sendSync('electron-store-get-data')` for use from renderers; this app
      // never reads the store outside main, so its own channels stay the only IPC entry points.
      ipcMain.removeAllListeners('electron-store-get-data');
      const backend: KeyValueBackend = {
        get: (key) => store.get(key),
        set: (key, value) => store.set(key, value),
      };
      applyTheme(storedTheme(backend));

      // The bundled local engine runs in its own process (Electron's binary as Node), like any cluster.
      localEngine = launch.localEngine
        ? await startLocalEngineProcess({
            binPath: ENGINE_BIN,
            nodePath: process.execPath,
            env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
            port: launch.enginePort,
            args: localEngineArgs(app.getPath('userData'), launch.engineScenario).args,
          }).catch((error: unknown) => {
            dialog.showErrorBox(PRODUCT_NAME, `The local engine did not start; remote clusters still work.\n\n${String(error)}`);
            return undefined;
          })
        : undefined;
      engine = createEngine({
        clusterStore: new ClusterStore(backend),
        kafkaSettings: new KafkaSettingsStore(backend),
        secretStore: createSecretStore(backend, safeStorage),
        history: HistoryStore.open(path.join(app.getPath('userData'), 'history')),
        mode: 'electron',
        version,
        builtInClusters: localEngine ? [localEngineCluster(localEngine.url, localEngine.token)] : [],
      });
      const pageUrl = pathToFileURL(PAGE_FILE).href;
      registerEngineIpc(engine, pageUrl);
      registerShellIpc(
        createDesktopShell({ window: () => mainWindow, store: backend, defaultFolder: () => app.getPath('downloads'), logFiles: engine.logFiles }),
        pageUrl,
      );

      installAppMenu({
        version,
        development,
        commands: {
          reloadData: () => events.send({ type: 'refresh-data' }),
          showShortcuts: () => events.send({ type: 'show-shortcuts' }),
          openHelp: () => void openHelp(),
        },
      });

      const openWindow = (): void => {
        const display = screen.getPrimaryDisplay();
        const { window, loaded } = createMainWindow({
          preloadFile: PRELOAD_FILE,
          pageFile: PAGE_FILE,
          hash: pendingLink ?? undefined,
          state: restoreWindowState(
            parseWindowState(backend.get(WINDOW_STATE_KEY)),
            screen.getAllDisplays().map((d) => d.workArea),
            display.workArea,
          ),
          backgroundColor: nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light,
          development,
          icon: process.platform === 'linux' && existsSync(WINDOW_ICON) ? WINDOW_ICON : undefined,
          saveState: (state) => backend.set(WINDOW_STATE_KEY, state),
        });
        pendingLink = null;
        mainWindow = window;
        window.on('closed', () => {
          mainWindow = null;
          events.pageGone();
        });
        loaded.catch(failToStart);
        window.webContents.on('did-start-loading', () => events.pageGone());
        window.webContents.on('did-finish-load', () => events.pageReady());
      };
      openWindow();
      // macOS: clicking the dock icon with no window open opens one again.
      app.on('activate', () => {
        if (!mainWindow) openWindow();
      });
    })
    .catch(failToStart);
}

/** The README's desktop section: online when the package names a homepage, else the copy shipped with the app. */
async function openHelp(): Promise<void> {
  const homepage = typeof __FLINK_OPS_HOMEPAGE__ === 'string' ? __FLINK_OPS_HOMEPAGE__ : '';
  if (/^https:\/\//.test(homepage)) {
    await shell.openExternal(`${homepage.replace(/#.*$/, '')}#${HELP_SECTION}`);
    return;
  }
  const problem = await shell.openPath(README_FILE);
  if (problem) dialog.showErrorBox(PRODUCT_NAME, `The help could not be opened: ${problem}`);
}

function failToStart(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox(`${PRODUCT_NAME} could not start`, message);
  app.exit(1);
}
