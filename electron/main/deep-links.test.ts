import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app, resetElectronDouble } from './testing/electron-double.ts';

vi.mock('electron', () => import('./testing/electron-double.ts'));
const { watchDeepLinks } = await import('./deep-links.ts');
type WatchedApp = Parameters<typeof watchDeepLinks>[0];

const JOB = '0123456789abcdef0123456789abcdef';
const argv = process.argv;
const defaultApp = process.defaultApp;
/** Electron sets it (read-only in its types) when run as `electron script.js`. */
const setDefaultApp = (value: boolean | undefined) => Object.defineProperty(process, 'defaultApp', { value, configurable: true, writable: true });

beforeEach(() => resetElectronDouble());
afterEach(() => {
  process.argv = argv;
  setDefaultApp(defaultApp);
});

function watch() {
  const opened: string[] = [];
  const first = watchDeepLinks(app as unknown as WatchedApp, (hash) => opened.push(hash));
  return { opened, first };
}

describe('watchDeepLinks', () => {
  it('registers the flink-ops scheme; run from source, with the script to start', () => {
    setDefaultApp(false);
    watch();
    expect(app.setAsDefaultProtocolClient).toHaveBeenLastCalledWith('flink-ops');
    setDefaultApp(true);
    process.argv = ['/usr/lib/electron/electron', 'electron/dist/main.cjs'];
    watch();
    expect(app.setAsDefaultProtocolClient).toHaveBeenLastCalledWith('flink-ops', process.execPath, [expect.stringMatching(/electron[/\\]dist[/\\]main\.cjs$/)]);
  });

  it('returns the link the app was launched with, as the page hash', () => {
    process.argv = ['/opt/Flink Ops Console/flink-ops-console', `flink-ops://cluster/prod%20eu/job/${JOB}`];
    expect(watch().first).toBe(`#/cluster/prod%20eu/job/${JOB}`);
    process.argv = ['/opt/Flink Ops Console/flink-ops-console'];
    expect(watch().first).toBeNull();
  });

  it('hands a second launch\'s link to the running instance, and drops hostile ones', () => {
    const { opened } = watch();
    app.emit('second-instance', {}, ['/app', `flink-ops://cluster/prod/job/${JOB}`], '/');
    app.emit('second-instance', {}, ['/app', `flink-ops://cluster/prod/job/${JOB}?x=<script>`], '/');
    app.emit('second-instance', {}, ['/app', 'flink-ops://cluster/%E2%80%AEprod/job/' + JOB], '/');
    app.emit('second-instance', {}, ['/app'], '/');
    expect(opened).toEqual([`#/cluster/prod/job/${JOB}`]);
  });

  it('takes macOS open-url events through the same parser', () => {
    const { opened } = watch();
    const good = { preventDefault: vi.fn() };
    app.emit('open-url', good, `flink-ops://cluster/prod/job/${JOB}`);
    app.emit('open-url', { preventDefault: vi.fn() }, 'flink-ops://cluster/prod/job/../../etc');
    app.emit('open-url', { preventDefault: vi.fn() }, `javascript://cluster/prod/job/${JOB}`);
    expect(good.preventDefault).toHaveBeenCalled();
    expect(opened).toEqual([`#/cluster/prod/job/${JOB}`]);
  });
});
