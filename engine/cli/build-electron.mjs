#!/usr/bin/env node
// Bundles the Electron shell: electron/main/main.ts -> electron/dist/main.cjs,
// electron/preload/preload.ts -> electron/dist/preload.cjs, and the `flink-ops` CLI the app runs the
// bundled local engine with -> electron/dist/engine/flink-ops.cjs. Silent on success; esbuild prints
// warnings and errors itself, and a failed build exits 1.
//
// Both outputs are CommonJS with everything bundled except `electron` (provided by the runtime):
// - the sandboxed preload can only `require('electron')` and a few built-ins, so it must be one CJS file;
// - main bundles the TypeScript engine and the ESM-only electron-store / conf (esbuild converts them:
//   neither uses import.meta nor top-level await), so electron/dist runs without node_modules and without
//   relying on Electron's ESM loader. `.cjs` keeps it CommonJS although package.json says "type": "module".
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { version, homepage } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

// A CJS bundle has no import.meta: engine code that reads it gets the bundle's own location instead of
// undefined. Engine modules find their files relative to themselves (resources/scenarios from
// engine/local/scenarios/), so each bundle sits as deep below the root as the modules it needs.
const importMetaAsBundle = {
  'import.meta.url': '__bundleUrl',
  'import.meta.dirname': '__dirname',
  'import.meta.filename': '__filename',
};
const bundleUrlBanner = { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' };

/** @type {import('esbuild').BuildOptions} */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  // Electron is the runtime's; LMDB (the history store) is a native N-API module, shipped in node_modules
  // (unpacked from the asar) and loaded from there, never bundled.
  external: ['electron', 'lmdb'],
  logLevel: 'warning',
  legalComments: 'none',
  charset: 'utf8',
};

try {
  await Promise.all([
    build({
      ...common,
      entryPoints: ['electron/main/main.ts'],
      outfile: 'electron/dist/main.cjs',
      platform: 'node',
      target: 'node22',
      define: {
        __FLINK_OPS_VERSION__: JSON.stringify(version),
        __FLINK_OPS_HOMEPAGE__: JSON.stringify(homepage ?? ''),
        // electron/dist: two levels below the root, like engine/<folder>/.
        ...importMetaAsBundle,
      },
      banner: bundleUrlBanner,
    }),
    // The desktop app's local engine: the CLI as one file, so an installed app needs neither TypeScript
    // nor node_modules. electron/dist/engine: three levels below the root, like engine/local/scenarios/.
    build({
      ...common,
      stdin: {
        contents: "import { runCli } from './engine/cli/main.ts';\nvoid runCli(process.argv).then((code) => { process.exitCode = code; });",
        resolveDir: root,
        sourcefile: 'flink-ops-entry.ts',
        loader: 'ts',
      },
      outfile: 'electron/dist/engine/flink-ops.cjs',
      platform: 'node',
      target: 'node22',
      define: importMetaAsBundle,
      banner: bundleUrlBanner,
    }),
    build({
      ...common,
      entryPoints: ['electron/preload/preload.ts'],
      outfile: 'electron/dist/preload.cjs',
      // The browser platform makes a stray Node built-in import a build error instead of a runtime one.
      platform: 'browser',
      target: 'chrome130',
    }),
  ]);
} catch {
  // esbuild has already printed the errors.
  process.exit(1);
}
