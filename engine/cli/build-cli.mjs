#!/usr/bin/env node
// Compiles the `flink-ops` CLI once: engine/cli/main.ts -> dist/cli/main.js, ES modules split so each command's
// module stays its own chunk, loaded only when that command runs. Packages stay in node_modules (not bundled).
// dist/cli/inputs.json lists the sources it was built from: engine/cli/flink-ops.mjs runs the build only while none
// of them is newer, else the sources through tsx. Silent on success; a failed build exits 1.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outdir = path.join(root, 'dist/cli');

try {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const startedAt = Date.now();
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { main: 'engine/cli/main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
    charset: 'utf8',
  });
  const sources = Object.keys(metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
  // The time the build read its sources: a source saved during the build counts as newer.
  await writeFile(path.join(outdir, 'inputs.json'), JSON.stringify({ builtAt: startedAt, sources }, null, 1));
} catch {
  process.exit(1);
}
