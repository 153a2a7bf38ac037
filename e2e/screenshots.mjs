#!/usr/bin/env node
// `npm run screenshots`: refreshes the README's pictures in resources/screenshots/. The specs that take them write
// only under test-results/screenshots/ (tests never change the tree); this copies them over, when asked.
// job-graph.png needs a real Flink: start one with `npm run flink:up` first, else it is left as it is.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flinkVersion = process.env.FLINK_VERSION ?? '2.2.1';
const shots = [
  { file: 'local-engine-hot-tenant.png', project: 'web', grep: 'hot-tenant scenario' },
  {
    file: 'job-graph.png',
    project: 'flink',
    grep: 'from adding the cluster',
    skip: existsSync(path.join(root, '.cache/flink', flinkVersion, 'cluster.json')) ? null : 'no real Flink is up (npm run flink:up)',
  },
];

let failed = false;
for (const shot of shots) {
  if (shot.skip) {
    console.log(`screenshots: ${shot.file} left as it is: ${shot.skip}.`);
    continue;
  }
  const started = Date.now();
  const run = spawnSync('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts', `--project=${shot.project}`, '-g', shot.grep], {
    cwd: root,
    stdio: 'inherit',
  });
  const taken = path.join(root, 'test-results/screenshots', shot.file);
  if (run.status !== 0 || !existsSync(taken) || statSync(taken).mtimeMs < started) {
    console.error(`screenshots: ${shot.file} was not taken (the spec failed).`);
    failed = true;
    continue;
  }
  mkdirSync(path.join(root, 'resources/screenshots'), { recursive: true });
  copyFileSync(taken, path.join(root, 'resources/screenshots', shot.file));
  console.log(`screenshots: resources/screenshots/${shot.file} refreshed.`);
}
process.exitCode = failed ? 1 : 0;
