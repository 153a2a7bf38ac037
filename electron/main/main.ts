/**
 * Electron composition root: creates the store, the secret store and the engine, wires the one IPC
 * channel and opens the window. No business logic lives here; the engine does the work.
 * Bundled by engine/cli/build-electron.mjs into electron/dist/main.cjs (this folder's files and
 * everything they import, except `electron` itself).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session } from 'electron';
import ElectronStore from 'electron-store';
import { createEngine } from '../../engine/app/create-engine.ts';
import { localEngineCluster } from '../../engine/app/local-engine-cluster.ts';
import { localEngineArgs, startLocalEngineProcess, type LocalEngineProcess } from '../../engine/app/local-engine-process.ts';
import { ClusterStore, type KeyValueBackend } from '../../engine/clusters/cluster-store.ts';
import { HistoryStore } from '../../engine/history/history-store.ts';
import { registerEngineIpc } from './ipc.ts';
import { createSecretStore } from './safe-storage-secret-store.ts';
import { hardenSession, hardenWebContents } from './security.ts';

/** Injected by the build from package.json (`define`); absent when this file is not bundled. */
declare const __FLINK_OPS_VERSION__: string | undefined;

const PRODUCT_NAME = 'Flink Ops Console';
/** Folder name under the OS app-data folder. Fixed: renaming it would lose saved clusters. */
const USER_DATA_FOLDER = 'flink-ops-console';

/** electron/dist, where the bundle runs from: the repository root is two folders up. */
const DIST_DIR = __dirname;
const ROOT_DIR = path.resolve(DIST_DIR, '..', '..');
const PAGE_FILE = path.join(ROOT_DIR, 'renderer', 'dist', 'index.html');
const PRELOAD_FILE = path.join(DIST_DIR, 'preload.cjs');

// Launched as `electron electron/dist/main.cjs` there is no package.json beside the script, so
// Electron would call the app "Electron" and keep its data (and single-instance lock) there.
app.setName(PRODUCT_NAME);
app.setPath('userData', path.join(app.getPath('appData'), USER_DATA_FOLDER));
app.enableSandbox();

if (app.requestSingleInstanceLock()) {
  start();
} else {
  app.quit();
}

function start(): void {
  let mainWindow: BrowserWindow | null = null;
  const openWindow = (): void => {
    const window = createMainWindow();
    window.on('closed', () => {
      mainWindow = null;
    });
    mainWindow = window;
  };

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let localEngine: LocalEngineProcess | undefined;
  app.on('will-quit', () => void localEngine?.stop());

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
      // never reads the store outside main, so the engine channel stays the only IPC entry point.
      ipcMain.removeAllListeners('electron-store-get-data');
      const backend: KeyValueBackend = {
        get: (key) => store.get(key),
        set: (key, value) => store.set(key, value),
      };

      // The bundled local engine runs in its own Node process (Electron's binary as Node), like any cluster.
      localEngine = await startLocalEngineProcess({
        binPath: path.join(ROOT_DIR, 'engine', 'cli', 'flink-ops.mjs'),
        nodePath: process.execPath,
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        args: localEngineArgs(app.getPath('userData'), 'hot-tenant').args,
      }).catch((error: unknown) => {
        dialog.showErrorBox(PRODUCT_NAME, `The local engine did not start; remote clusters still work.\n\n${String(error)}`);
        return undefined;
      });
      const engine = createEngine({
        clusterStore: new ClusterStore(backend),
        secretStore: createSecretStore(backend, safeStorage),
        history: HistoryStore.open(path.join(app.getPath('userData'), 'history')),
        mode: 'electron',
        version,
        builtInClusters: localEngine ? [localEngineCluster(localEngine.url)] : [],
      });
      registerEngineIpc(engine, pathToFileURL(PAGE_FILE).href);

      openWindow();
      // macOS: clicking the dock icon with no window open opens one again.
      app.on('activate', () => {
        if (!mainWindow) openWindow();
      });
    })
    .catch(failToStart);
}

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    title: PRODUCT_NAME,
    width: 1400,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    webPreferences: {
      preload: PRELOAD_FILE,
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
    },
  });
  window.once('ready-to-show', () => window.show());
  window.loadFile(PAGE_FILE).catch(failToStart);
  return window;
}

function failToStart(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox(`${PRODUCT_NAME} could not start`, message);
  app.exit(1);
}
