import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, resetElectronDouble } from './testing/electron-double.ts';
import type { WindowState } from './window-state.ts';

vi.mock('electron', () => import('./testing/electron-double.ts'));
const { createMainWindow } = await import('./main-window.ts');

beforeEach(() => resetElectronDouble());

const state: WindowState = { bounds: { x: 100, y: 50, width: 1300, height: 850 }, maximized: false, fullScreen: false };
const options = (patch: Partial<Parameters<typeof createMainWindow>[0]> = {}) => ({
  preloadFile: '/app/electron/dist/preload.cjs',
  pageFile: '/app/renderer/dist/index.html',
  state,
  backgroundColor: '#0d1117',
  development: false,
  saveState: vi.fn(),
  ...patch,
});

describe('createMainWindow', () => {
  it('locks the page down: isolated, sandboxed, no Node, no webviews, no devtools in a release', () => {
    createMainWindow(options());
    const [window] = BrowserWindow.instances;
    expect(window.options).toMatchObject({
      x: 100,
      y: 50,
      width: 1300,
      height: 850,
      show: false,
      backgroundColor: '#0d1117',
      webPreferences: {
        preload: '/app/electron/dist/preload.cjs',
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
        devTools: false,
        disableBlinkFeatures: 'Auxclick',
      },
    });
    expect(window.options).not.toHaveProperty('icon');
  });

  it('has developer tools in development only', () => {
    createMainWindow(options({ development: true }));
    expect(BrowserWindow.instances[0].options.webPreferences).toMatchObject({ devTools: true });
  });

  it('shows itself once painted, and reopens maximised and full screen as it was', () => {
    createMainWindow(options({ state: { ...state, maximized: true, fullScreen: true } }));
    const [window] = BrowserWindow.instances;
    expect(window.maximize).toHaveBeenCalledOnce();
    expect(window.setFullScreen).toHaveBeenCalledWith(true);
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledOnce();
  });

  it('opens the page, at a deep link when given one', () => {
    createMainWindow(options({ hash: '#/cluster/prod/job/0123456789abcdef0123456789abcdef' }));
    expect(BrowserWindow.instances[0].loadFile).toHaveBeenCalledWith('/app/renderer/dist/index.html', {
      hash: '/cluster/prod/job/0123456789abcdef0123456789abcdef',
    });
  });

  it('remembers its normal bounds and maximised state when it closes', () => {
    const saveState = vi.fn();
    createMainWindow(options({ saveState }));
    const [window] = BrowserWindow.instances;
    window.maximized = true;
    window.emit('close');
    expect(saveState).toHaveBeenCalledWith({ bounds: { x: 10, y: 20, width: 1200, height: 800 }, maximized: true, fullScreen: false });
  });
});
