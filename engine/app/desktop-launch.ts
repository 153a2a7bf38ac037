import { parseArgs } from 'node:util';

/**
 * What `flink-ops app` hands on to the desktop shell: the choices web mode takes from the same options. The shell reads
 * them from its own command line, beside whatever else is there (a deep link, Chromium's switches).
 */
export interface DesktopLaunch {
  /** The app's data folder (clusters, history, the local engine's checkpoints); null: the desktop app's own. */
  dataDir: string | null;
  engineScenario: string;
  /** REST port of the bundled local engine on 127.0.0.1; 0: any free port. */
  enginePort: number;
  localEngine: boolean;
}

export const DEFAULT_DESKTOP_LAUNCH: DesktopLaunch = { dataDir: null, engineScenario: 'hot-tenant', enginePort: 0, localEngine: true };

/** The switches for `launch`, after the shell's main script; defaults are left out. */
export function desktopLaunchArgs(launch: DesktopLaunch): string[] {
  return [
    ...(launch.dataDir ? ['--data-dir', launch.dataDir] : []),
    ...(launch.engineScenario !== DEFAULT_DESKTOP_LAUNCH.engineScenario ? ['--engine-scenario', launch.engineScenario] : []),
    ...(launch.enginePort !== 0 ? ['--engine-port', String(launch.enginePort)] : []),
    ...(launch.localEngine ? [] : ['--no-local-engine']),
  ];
}

/** Reads the switches back from a whole command line; anything else on it, or a value out of range, is ignored. */
export function parseDesktopLaunch(argv: readonly string[]): DesktopLaunch {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      'engine-scenario': { type: 'string' },
      'engine-port': { type: 'string' },
      'no-local-engine': { type: 'boolean' },
    },
  });
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  const port = Number(text(values['engine-port']) ?? NaN);
  return {
    dataDir: text(values['data-dir']),
    engineScenario: text(values['engine-scenario']) ?? DEFAULT_DESKTOP_LAUNCH.engineScenario,
    enginePort: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : DEFAULT_DESKTOP_LAUNCH.enginePort,
    localEngine: values['no-local-engine'] !== true,
  };
}
