import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractAll, extractFile, listPackage } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config, { APP_MAIN, LMDB_RUNTIME } from './electron-builder.config.ts';

/**
 * The app as the installers would package it, without the Electron binary: electron-builder runs for real
 * (Linux, unpacked) from the real configuration, over a stand-in for Electron's distribution, and the
 * resulting app.asar is checked. Needs `npm run build` first (`npm run test:package` does it).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let work: string;
let asarFile: string;
let files: string[];

beforeAll(async () => {
  for (const built of ['renderer/dist/index.html', 'electron/dist/main.cjs', 'electron/dist/preload.cjs', 'electron/dist/engine/flink-ops.cjs']) {
    if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm run test:package does).`);
  }
  work = mkdtempSync(path.join(tmpdir(), 'flink-ops-package-'));
  // electron-builder copies Electron's distribution and adds resources/app.asar; a stand-in binary is enough.
  const electronDist = path.join(work, 'electron-dist');
  mkdirSync(path.join(electronDist, 'resources'), { recursive: true });
  writeFileSync(path.join(electronDist, 'electron'), '#!/bin/sh\n', { mode: 0o755 });
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir'),
    config: {
      ...config,
      electronDist,
      electronVersion: '40.8.5',
      // Fuses are flipped inside the real binary; the stand-in has none.
      electronFuses: null,
      directories: { ...config.directories, output: path.join(work, 'out') },
    },
  });
  asarFile = path.join(work, 'out', 'linux-unpacked', 'resources', 'app.asar');
  files = listPackage(asarFile, { isPack: false }).map((f) => f.replaceAll('\\', '/').replace(/^\//, ''));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const read = (file: string) => extractFile(asarFile, file).toString('utf8');

describe('the packaged app', () => {
  it('names the bundled main in its package.json, and ships it', () => {
    const manifest = JSON.parse(read('package.json')) as { main: string; version: string; name: string };
    expect(manifest.main).toBe(APP_MAIN);
    expect(manifest.version).toBe((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    expect(files).toContain(APP_MAIN);
  });

  it('ships every entry point main names: preload, page, local engine, window icon, help', () => {
    for (const entry of ['electron/dist/preload.cjs', 'renderer/dist/index.html', 'electron/dist/engine/flink-ops.cjs', 'resources/icons/png/512x512.png', 'README.md']) {
      expect(files, entry).toContain(entry);
    }
    // Every script and stylesheet the page loads.
    const page = read('renderer/dist/index.html');
    const assets = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => `renderer/dist/${m[1]}`);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(files, asset).toContain(asset);
  });

  it('ships the local engine\'s scenarios', () => {
    for (const scenario of readdirSync(path.join(ROOT, 'resources/scenarios'))) expect(files).toContain(`resources/scenarios/${scenario}`);
  });

  it('ships no sources, tests, source maps, dev files or node_modules but LMDB\'s runtime', () => {
    const lmdbRuntime = new RegExp(`^node_modules/(${LMDB_RUNTIME.join('|')})(/|$)`);
    const unwanted = files.filter(
      (f) =>
        (/(^|\/)node_modules\//.test(f) && !lmdbRuntime.test(f)) ||
        /\.(ts|tsx|map)$/.test(f) ||
        /\.(test|spec)\.[cm]?js$/.test(f) ||
        /^(e2e|engine|test-results|playwright-report|\.cache|\.ci)(\/|$)/.test(f) ||
        /^(electron|renderer)\/(main|preload|common|features|components|app|api|dev)(\/|$)/.test(f) ||
        /(^|\/)(tsconfig|vitest|eslint|playwright)[^/]*$/.test(f) ||
        f.startsWith('resources/icons/') && f !== 'resources/icons' && f !== 'resources/icons/png' && f !== 'resources/icons/png/512x512.png',
    );
    expect(unwanted).toEqual([]);
  });

  it('needs nothing but Electron, Node built-ins and LMDB at run time (everything else is bundled)', () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const bundle of [APP_MAIN, 'electron/dist/preload.cjs', 'electron/dist/engine/flink-ops.cjs']) {
      // Real calls only: ajv keeps `require("ajv/...")` in strings for code it could generate.
      const required = [...read(bundle).matchAll(/(?<![\w'"`])require\("([^"]+)"\)/g)].map((m) => m[1]);
      expect(required.filter((m) => !builtins.has(m) && m !== 'electron' && m !== 'lmdb'), bundle).toEqual([]);
    }
  });

  it('ships LMDB with its native binary unpacked beside the asar, and the history store opens from the package', () => {
    const unpackedDir = `${asarFile}.unpacked`;
    const binary = path.join(unpackedDir, 'node_modules/@lmdb', `lmdb-${process.platform}-${process.arch}`);
    expect(readdirSync(binary).filter((f) => f.endsWith('.node')).length).toBeGreaterThan(0);
    const unpacked = path.join(work, 'with-lmdb');
    extractAll(asarFile, unpacked);
    const store = path.join(work, 'history');
    const script = `const { open } = require(${JSON.stringify(path.join(unpacked, 'node_modules/lmdb'))});
      const db = open({ path: ${JSON.stringify(store)}, compression: true });
      db.putSync('k', { v: 42 }); process.stdout.write(String(db.get('k').v));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('42');
  });

  it('runs its local engine from the package alone, compiled, without tsx, scenarios included', async () => {
    const unpacked = path.join(work, 'unpacked');
    extractAll(asarFile, unpacked);
    // Outside the repository nothing resolves tsx, and the hook refuses it anyway (engine/cli/testing/without-tsx.mjs).
    expect(() => createRequire(path.join(unpacked, 'electron/dist/engine/flink-ops.cjs')).resolve('tsx')).toThrow();
    const engine = spawn(process.execPath, [path.join(unpacked, 'electron/dist/engine/flink-ops.cjs'), 'engine', '--port', '0', '--scenario', 'hot-tenant'], {
      cwd: work,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import=${path.join(ROOT, 'engine/cli/testing/without-tsx.mjs')}` },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`No ready line within 60 s:\n${output}`)), 60_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const ready = /Local engine: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (ready) {
            clearTimeout(timer);
            resolve(ready[1]);
          }
        };
        engine.stdout.on('data', onData);
        engine.stderr.on('data', onData);
        engine.once('exit', (code) => reject(new Error(`The packaged local engine exited (${code}):\n${output}`)));
      });
      const overview = (await (await fetch(`${url}/overview`)).json()) as { taskmanagers: number };
      // hot-tenant.yaml runs 4 TaskManagers: the scenario file was found inside the package.
      expect(overview.taskmanagers).toBe(4);
    } finally {
      // An engine that already exited (the failure above says why) has nothing left to wait for.
      if (engine.exitCode === null && engine.signalCode === null) {
        const exited = new Promise((resolve) => engine.once('exit', resolve));
        engine.kill('SIGTERM');
        await exited;
      }
    }
  });
});
