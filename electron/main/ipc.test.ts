import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINE_CHANNEL } from '../common/engine-channel.ts';
import { SHELL_CHANNEL } from '../common/shell-channel.ts';
import type { EngineApi } from '../../engine/contracts/engine-api.ts';
import type { ShellApi } from '../../engine/contracts/shell-api.ts';
import { ipcEvent, ipcMain, resetElectronDouble } from './testing/electron-double.ts';

vi.mock('electron', () => import('./testing/electron-double.ts'));
const { registerEngineIpc } = await import('./ipc.ts');
const { registerShellIpc } = await import('./shell-ipc.ts');

const PAGE = 'file:///opt/Flink%20Ops%20Console/resources/app.asar/renderer/dist/index.html';

beforeEach(() => resetElectronDouble());

function engineSpy() {
  const listJobs = vi.fn(async (clusterId: string) => [{ id: 'j1', clusterId }]);
  return { engine: { jobs: { list: listJobs } } as unknown as EngineApi, listJobs };
}

const call = (channel: string, event: unknown, ...args: unknown[]) => ipcMain.handlers.get(channel)!(event, ...args);

describe('the engine channel', () => {
  it('passes a valid call from the app page to the engine', async () => {
    const { engine, listJobs } = engineSpy();
    registerEngineIpc(engine, PAGE);
    await expect(call(ENGINE_CHANNEL, ipcEvent(`${PAGE}#/clusters/c1`), 'jobs.list', ['c1'])).resolves.toEqual({ ok: true, value: [{ id: 'j1', clusterId: 'c1' }] });
    expect(listJobs).toHaveBeenCalledOnce();
  });

  it('refuses invalid payloads before they reach the engine', async () => {
    const { engine, listJobs } = engineSpy();
    registerEngineIpc(engine, PAGE);
    const event = ipcEvent(PAGE);
    for (const [method, args] of [
      ['jobs.list', 'c1'],
      ['jobs.list', { 0: 'c1' }],
      ['jobs.list', null],
      ['jobs.list', []],
      ['jobs.list', [42]],
      ['jobs.list', ['c1', 'c2']],
      ['listJobs', ['c1']],
      ['jobs.constructor', []],
      ['constructor', []],
      ['__proto__', []],
      [42, []],
      [undefined, undefined],
    ] as const) {
      await expect(call(ENGINE_CHANNEL, event, method, args)).resolves.toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
    expect(listJobs).not.toHaveBeenCalled();
  });

  it('refuses calls from anything but the app\'s top-level page', async () => {
    const { engine, listJobs } = engineSpy();
    registerEngineIpc(engine, PAGE);
    for (const event of [
      ipcEvent('https://evil.example/'),
      ipcEvent('file:///tmp/index.html'),
      ipcEvent(PAGE, { mainFrame: false }),
      ipcEvent(PAGE, { detached: true }),
      {},
    ]) {
      await expect(call(ENGINE_CHANNEL, event, 'jobs.list', ['c1'])).resolves.toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    }
    expect(listJobs).not.toHaveBeenCalled();
  });
});

describe('the shell channel', () => {
  function shellSpy() {
    const shell = {
      notify: vi.fn(async () => true),
      saveFile: vi.fn(async () => ({ saved: false as const })),
      saveLogFile: vi.fn(async () => ({ saved: false as const })),
      setTheme: vi.fn(async () => undefined),
    } satisfies ShellApi;
    registerShellIpc(shell, PAGE);
    return shell;
  }

  it('passes valid calls', async () => {
    const shell = shellSpy();
    const event = ipcEvent(PAGE);
    await expect(call(SHELL_CHANNEL, event, 'notify', [{ title: 'Savepoint finished' }])).resolves.toEqual({ ok: true, value: true });
    await call(SHELL_CHANNEL, event, 'saveFile', [{ suggestedName: 'report 03:12.csv', content: 'a,b\n', mime: 'text/csv' }]);
    await call(SHELL_CHANNEL, event, 'saveFile', [{ suggestedName: 'bundle.flinkops-bundle', content: new Uint8Array([1, 2]), mime: 'application/x-flinkops-bundle' }]);
    await call(SHELL_CHANNEL, event, 'saveLogFile', [{ suggestedName: 'taskmanager-tm-1.log', clusterId: 'c1', processId: 'tm-1', file: { kind: 'log' } }]);
    await call(SHELL_CHANNEL, event, 'setTheme', ['dark']);
    expect(shell.notify).toHaveBeenCalledWith({ title: 'Savepoint finished' });
    expect(shell.saveLogFile).toHaveBeenCalledWith({ suggestedName: 'taskmanager-tm-1.log', clusterId: 'c1', processId: 'tm-1', file: { kind: 'log' } });
    expect(shell.saveFile).toHaveBeenCalledTimes(2);
    expect(shell.setTheme).toHaveBeenCalledWith('dark');
  });

  it('refuses payloads that are not valid before the shell sees them', async () => {
    const shell = shellSpy();
    const event = ipcEvent(PAGE);
    const file = { suggestedName: 'a.csv', content: 'x', mime: 'text/csv' };
    const log = { suggestedName: 'a.log', clusterId: 'c1', processId: 'tm-1', file: { kind: 'log' } };
    for (const [method, args] of [
      ['notify', [{ title: 42 }]],
      ['notify', [{ title: '' }]],
      ['notify', [{ title: 'x'.repeat(201) }]],
      ['notify', [{ title: 'ok', onclick: 'alert(1)' }]],
      ['notify', []],
      ['saveFile', [{ ...file, suggestedName: '../../.bashrc' }]],
      ['saveFile', [{ ...file, suggestedName: 'C:\\Windows\\evil.dll' }]],
      ['saveFile', [{ ...file, suggestedName: '..' }]],
      ['saveFile', [{ ...file, suggestedName: 'a\u0000.csv' }]],
      ['saveFile', [{ ...file, mime: 'text/csv; charset=utf-8\r\nX: y' }]],
      ['saveFile', [{ ...file, content: { length: 1 } }]],
      ['saveFile', [{ ...file, content: 'x'.repeat(64 * 1024 * 1024 + 1) }]],
      ['saveFile', [{ ...file, path: '/etc/passwd' }]],
      ['saveLogFile', [{ ...log, suggestedName: '../../.bashrc' }]],
      ['saveLogFile', [{ ...log, file: { kind: 'path', name: '/etc/passwd' } }]],
      ['saveLogFile', [{ ...log, processId: 'x'.repeat(257) }]],
      ['saveLogFile', [{ ...log, target: '/etc/passwd' }]],
      ['setTheme', ['purple']],
      ['setTheme', 'dark'],
      ['openExternal', ['https://evil.example']],
      ['toString', []],
    ] as const) {
      const response = await call(SHELL_CHANNEL, event, method, args);
      expect(response, `${method} ${JSON.stringify(args).slice(0, 80)}`).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
    expect(shell.notify).not.toHaveBeenCalled();
    expect(shell.saveFile).not.toHaveBeenCalled();
    expect(shell.saveLogFile).not.toHaveBeenCalled();
    expect(shell.setTheme).not.toHaveBeenCalled();
  });

  it('refuses calls from other pages', async () => {
    const shell = shellSpy();
    await expect(call(SHELL_CHANNEL, ipcEvent('https://evil.example/'), 'setTheme', ['dark'])).resolves.toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(shell.setTheme).not.toHaveBeenCalled();
  });

  it('reports a failing shell as data', async () => {
    registerShellIpc({ notify: async () => { throw new Error('no notification daemon'); }, saveFile: vi.fn(), saveLogFile: vi.fn(), setTheme: vi.fn() }, PAGE);
    await expect(call(SHELL_CHANNEL, ipcEvent(PAGE), 'notify', [{ title: 't' }])).resolves.toEqual({ ok: false, error: { kind: 'internal', message: 'no notification daemon' } });
  });
});
