import { describe, expect, it } from 'vitest';
import { DEFAULT_DESKTOP_LAUNCH, desktopLaunchArgs, parseDesktopLaunch, type DesktopLaunch } from './desktop-launch.ts';

/** Electron's command line: its binary, the main script, then what `flink-ops app` added (and maybe a deep link). */
const electronArgv = (...args: string[]) => ['/opt/electron/electron', '/app/electron/dist/main.cjs', ...args];

describe('the desktop launch switches', () => {
  it('survive the trip from `flink-ops app` to the shell', () => {
    const launch: DesktopLaunch = { dataDir: '/srv/flink ops/data', engineScenario: 'hot-key', enginePort: 18081, localEngine: false };
    expect(parseDesktopLaunch(electronArgv(...desktopLaunchArgs(launch)))).toEqual(launch);
    expect(parseDesktopLaunch(electronArgv(...desktopLaunchArgs(DEFAULT_DESKTOP_LAUNCH)))).toEqual(DEFAULT_DESKTOP_LAUNCH);
  });

  it('adds nothing for the defaults', () => {
    expect(desktopLaunchArgs(DEFAULT_DESKTOP_LAUNCH)).toEqual([]);
  });

  it('leave a deep link and Chromium switches alone, and ignore what is out of range', () => {
    const argv = electronArgv('--enable-logging', '--engine-port', '70000', 'flink-ops://cluster/prod/job/abc', '--data-dir', '/data');
    expect(parseDesktopLaunch(argv)).toEqual({ ...DEFAULT_DESKTOP_LAUNCH, dataDir: '/data' });
    expect(parseDesktopLaunch(electronArgv('--engine-port'))).toEqual(DEFAULT_DESKTOP_LAUNCH);
  });
});
