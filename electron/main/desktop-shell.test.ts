import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlinkRestClient } from '../../engine/flink-rest/client.ts';
import { startLocalEngine, type LocalEngineHandle } from '../../engine/local/start-local-engine.ts';
import { ManualClock } from '../../engine/local/time/clock.ts';
import { saveLogFile } from '../../engine/logs/log-download.ts';
import { BrowserWindow, dialog, nativeTheme, Notification, resetElectronDouble } from './testing/electron-double.ts';

vi.mock('electron', () => import('./testing/electron-double.ts'));
const { createDesktopShell, portableFileName, saveDialogFilters, storedTheme, THEME_KEY } = await import('./desktop-shell.ts');
type Deps = Parameters<typeof createDesktopShell>[0];

let folder: string;
let client: FlinkRestClient | undefined;
const logClient = (): FlinkRestClient => client!;
beforeEach(() => {
  resetElectronDouble();
  folder = mkdtempSync(path.join(tmpdir(), 'flink-ops-save-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function shellWith(window: BrowserWindow | null = new BrowserWindow({})) {
  const stored = new Map<string, unknown>();
  const deps: Deps = {
    window: () => window as unknown as ReturnType<Deps['window']>,
    store: { get: (k) => stored.get(k), set: (k, v) => void stored.set(k, v) },
    defaultFolder: () => folder,
    logFiles: { save: (request, target) => saveLogFile(logClient(), request.processId, request.file, target) },
  };
  return { shell: createDesktopShell(deps), stored, window };
}

describe('saveFile', () => {
  it('asks where, starting in the downloads folder, and writes exactly the content', async () => {
    const { shell, window } = shellWith();
    const target = path.join(folder, 'chosen.csv');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await shell.saveFile({ suggestedName: 'skew 03:12.csv', content: 'vertex,skew\nassemble,23.5\n', mime: 'text/csv' });
    expect(result).toEqual({ saved: true, location: target });
    expect(readFileSync(target, 'utf8')).toBe('vertex,skew\nassemble,23.5\n');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(window, {
      defaultPath: path.join(folder, 'skew 03-12.csv'),
      filters: [{ name: 'CSV', extensions: ['csv'] }, { name: 'All Files', extensions: ['*'] }],
    });
  });

  it('writes bytes as bytes', async () => {
    const { shell } = shellWith(null);
    const target = path.join(folder, 'incident.flinkops-bundle');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    await shell.saveFile({ suggestedName: 'incident.flinkops-bundle', content: new Uint8Array([0, 255, 7]), mime: 'application/x-flinkops-bundle' });
    expect([...readFileSync(target)]).toEqual([0, 255, 7]);
  });

  it('writes nothing when the user cancels', async () => {
    const { shell } = shellWith();
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    await expect(shell.saveFile({ suggestedName: 'a.csv', content: 'x', mime: 'text/csv' })).resolves.toEqual({ saved: false });
    expect(existsSync(path.join(folder, 'a.csv'))).toBe(false);
  });

  it('offers the incident bundle filter for bundles', () => {
    expect(saveDialogFilters('application/x-flinkops-bundle')[0]).toEqual({ name: 'Flink Ops incident bundle', extensions: ['flinkops-bundle'] });
    expect(saveDialogFilters('application/octet-stream')).toEqual([{ name: 'All Files', extensions: ['*'] }]);
    expect(portableFileName('a<b>:c"d|e?f*g.csv')).toBe('a-b--c-d-e-f-g.csv');
  });
});

describe('saveLogFile', () => {
  let engine: LocalEngineHandle;
  beforeAll(async () => {
    engine = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), scenario: 'hot-tenant' });
    engine.engine.advance(5_000);
    client = new FlinkRestClient({ baseUrl: engine.url });
  }, 60_000);
  afterAll(() => engine.close());

  it('asks where, and the engine streams the whole log there, as the cluster serves it', async () => {
    const { shell, window } = shellWith();
    const tm = engine.engine.cluster.taskManagers[0].id;
    const target = path.join(folder, 'chosen.log');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await shell.saveLogFile({ suggestedName: 'taskmanager-tm.log', clusterId: 'local', processId: tm, file: { kind: 'log' } });
    expect(result).toEqual({ saved: true, location: target });
    const served = Buffer.from(await (await fetch(`${engine.url}/taskmanagers/${tm}/log`)).arrayBuffer());
    expect(served.length).toBeGreaterThan(0);
    expect(readFileSync(target)).toEqual(served);
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(window, { defaultPath: path.join(folder, 'taskmanager-tm.log'), filters: [{ name: 'Text', extensions: ['txt', 'log'] }, { name: 'All Files', extensions: ['*'] }] });
  });

  it('writes nothing when the user cancels, nor when the cluster has no such file', async () => {
    const { shell } = shellWith();
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    await expect(shell.saveLogFile({ suggestedName: 'a.log', clusterId: 'local', processId: 'jobmanager', file: { kind: 'log' } })).resolves.toEqual({ saved: false });
    const target = path.join(folder, 'gone.log');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    await expect(shell.saveLogFile({ suggestedName: 'gone.log', clusterId: 'local', processId: 'no-such-taskmanager', file: { kind: 'log' } })).rejects.toMatchObject({ info: { kind: 'not-found' } });
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('notify', () => {
  it('shows a system notification that brings the window back when clicked', async () => {
    const { shell, window } = shellWith();
    await expect(shell.notify({ title: 'Savepoint finished', body: 'gatewaymeter' })).resolves.toBe(true);
    expect(Notification.shown).toEqual([{ title: 'Savepoint finished', body: 'gatewaymeter' }]);
    expect(window!.focus).not.toHaveBeenCalled();
    Notification.instances[0].emit('click');
    expect(window!.focus).toHaveBeenCalledOnce();
  });

  it('says so when the system has no notifications, for the page to show a toast', async () => {
    Notification.supported = false;
    await expect(shellWith().shell.notify({ title: 't' })).resolves.toBe(false);
    expect(Notification.shown).toEqual([]);
  });
});

describe('setTheme', () => {
  it('makes native parts follow the page\'s choice and remembers it for the next launch', async () => {
    const { shell, stored } = shellWith();
    await shell.setTheme('light');
    expect(nativeTheme.themeSource).toBe('light');
    expect(stored.get(THEME_KEY)).toBe('light');
    expect(storedTheme({ get: () => 'light', set: () => undefined })).toBe('light');
    expect(storedTheme({ get: () => 'neon', set: () => undefined })).toBe('system');
  });
});
