import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';
import type { Command } from 'commander';
import { appVersion } from '../app/build-identity.ts';
import { createEngine } from '../app/create-engine.ts';
import { desktopLaunchArgs, type DesktopLaunch } from '../app/desktop-launch.ts';
import { localEngineCluster } from '../app/local-engine-cluster.ts';
import { localEngineArgs, startLocalEngineProcess } from '../app/local-engine-process.ts';
import { startWebServer } from '../app/web-server.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import { isScenarioFile } from '../local/scenarios/scenario.ts';
import { CliError, EXIT } from './cli-error.ts';
import { appDataDir, openClusterStore, openKafkaSettingsStore } from './data-dir.ts';
import { openHistoryStore } from './open-history-store.ts';

const ROOT = PROJECT_ROOT;
const BIN = path.join(ROOT, 'engine/cli/flink-ops.mjs');

/** `flink-ops app`: the desktop app where Electron is installed, else the same UI in a browser (web mode). */
export function registerAppCommand(program: Command): void {
  program
    .command('app')
    .description('Start the console: Electron when its binary is installed, else web mode on 127.0.0.1')
    .option('--web', 'serve the UI to a browser even if Electron is available')
    .option('--port <port>', 'web mode port (0 = any free port)', '0')
    .option('--data-dir <dir>', 'folder of the saved cluster list, the history and the local engine\'s checkpoints (default: the app\'s own)')
    .option('--engine-scenario <name>', 'scenario of the bundled local engine', 'hot-tenant')
    .option('--engine-port <port>', 'REST port of the bundled local engine on 127.0.0.1 (0 = any free port)', '0')
    .option('--no-local-engine', 'do not start the bundled local engine')
    .action(async (options: AppOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(EXIT.badArguments, `--port must be 0-65535, not "${options.port}".`);
      const enginePort = Number(options.enginePort);
      if (!/^\d+$/.test(options.enginePort) || enginePort > 65535) throw new CliError(EXIT.badArguments, `--engine-port must be 0-65535, not "${options.enginePort}".`);
      const electron = options.web ? null : electronBinary();
      if (electron) {
        // The desktop shell starts its own engine and stores (electron/main): it gets the same choices.
        // Paths resolved here: the shell runs from the app's folder, not from this command's.
        const dataDir = options.dataDir ? path.resolve(options.dataDir) : null;
        const engineScenario = isScenarioFile(options.engineScenario) ? path.resolve(options.engineScenario) : options.engineScenario;
        await runElectron(electron, { dataDir, engineScenario, enginePort, localEngine: options.localEngine });
        return;
      }
      if (!options.web) process.stdout.write('Electron is not installed here (no binary): starting web mode instead.\n');
      await runWebMode(port, enginePort, options);
    });
}

/** The Electron binary's path, or null when the package was installed without it (ELECTRON_SKIP_BINARY_DOWNLOAD). */
function electronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

async function runElectron(binary: string, launch: DesktopLaunch): Promise<void> {
  const distDir = path.join(ROOT, 'electron/dist');
  const main = existsSync(distDir) ? readdirSync(distDir).find((f) => /^main\.(c|m)?js$/.test(f)) : undefined;
  if (!main) throw new CliError(EXIT.failure, 'The Electron shell is not built: run `npm run build`.');
  const child = spawn(binary, [path.join(distDir, main), ...desktopLaunchArgs(launch)], { stdio: 'inherit', cwd: ROOT });
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
}

interface AppOptions {
  web?: boolean;
  port: string;
  dataDir?: string;
  engineScenario: string;
  enginePort: string;
  localEngine: boolean;
}

async function runWebMode(port: number, enginePort: number, options: AppOptions): Promise<void> {
  // The local engine takes checkpoints into the app's data folder, so the Checkpoints tab has data out of the box.
  const engineRun = options.localEngine ? localEngineArgs(appDataDir(options.dataDir), options.engineScenario) : undefined;
  const localEngine = engineRun
    ? await startLocalEngineProcess({ binPath: BIN, port: enginePort, args: engineRun.args }).catch((error: unknown) => {
        throw new CliError(EXIT.failure, (error as Error).message);
      })
    : undefined;
  const engine = createEngine({
    clusterStore: openClusterStore(options.dataDir),
    kafkaSettings: openKafkaSettingsStore(options.dataDir),
    secretStore: new MemorySecretStore(),
    history: openHistoryStore(options.dataDir),
    mode: 'web',
    version: appVersion(),
    builtInClusters: localEngine ? [localEngineCluster(localEngine.url, localEngine.token)] : [],
  });
  const server = await startWebServer({ engine, logFiles: engine.logFiles, staticDir: path.join(ROOT, 'renderer/dist'), port });
  // The banner, in one write: where to open the console, and where the local engine's Flink REST API answers (with
  // its per-launch token, printed for this terminal only, like the console's own URL).
  const banner = [
    `Flink Ops Console (web mode): ${server.url}`,
    ...(localEngine
      ? [
          `Local engine (scenario ${options.engineScenario}): ${localEngine.url}`,
          `  Flink's REST API, e.g. FLINK_OPS_TOKEN=<the token below> npx flink-ops jobs --url ${localEngine.url}`,
          `Local engine token (send "Authorization: Bearer <token>"; FLINK_OPS_TOKEN for the CLI): ${localEngine.token}`,
        ]
      : []),
  ];
  process.stdout.write(`${banner.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    const stop = () =>
      void Promise.all([server.close(), engine.close(), localEngine?.stop()]).then(() => {
        if (engineRun) rmSync(engineRun.checkpointDir, { recursive: true, force: true });
        resolve();
      });
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
