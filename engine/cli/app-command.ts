import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { createEngine } from '../app/create-engine.ts';
import { startWebServer } from '../app/web-server.ts';
import { MemorySecretStore } from '../clusters/secret-store.ts';
import { CliError, EXIT } from './cli-error.ts';
import { openClusterStore } from './data-dir.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function appVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `flink-ops app`: the desktop app where Electron is installed, else the same UI in a browser (web mode). */
export function registerAppCommand(program: Command): void {
  program
    .command('app')
    .description('Start the console: Electron when its binary is installed, else web mode on 127.0.0.1')
    .option('--web', 'serve the UI to a browser even if Electron is available')
    .option('--port <port>', 'web mode port (0 = any free port)', '0')
    .option('--data-dir <dir>', 'folder of the saved cluster list (default: the app\'s own)')
    .action(async (options: { web?: boolean; port: string; dataDir?: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(EXIT.badArguments, `--port must be 0-65535, not "${options.port}".`);
      const electron = options.web ? null : electronBinary();
      if (electron) {
        await runElectron(electron);
        return;
      }
      if (!options.web) process.stdout.write('Electron is not installed here (no binary): starting web mode instead.\n');
      await runWebMode(port, options.dataDir);
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

async function runElectron(binary: string): Promise<void> {
  const distDir = path.join(ROOT, 'electron/dist');
  const main = existsSync(distDir) ? readdirSync(distDir).find((f) => /^main\.(c|m)?js$/.test(f)) : undefined;
  if (!main) throw new CliError(EXIT.failure, 'The Electron shell is not built: run `npm run build`.');
  const child = spawn(binary, [path.join(distDir, main)], { stdio: 'inherit', cwd: ROOT });
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
}

async function runWebMode(port: number, dataDir: string | undefined): Promise<void> {
  const engine = createEngine({
    clusterStore: openClusterStore(dataDir),
    secretStore: new MemorySecretStore(),
    mode: 'web',
    version: appVersion(),
  });
  const server = await startWebServer({ engine, staticDir: path.join(ROOT, 'renderer/dist'), port });
  process.stdout.write(`Flink Ops Console (web mode): ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
