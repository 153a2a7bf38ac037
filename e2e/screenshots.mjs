#!/usr/bin/env node
// `npm run screenshots`: refreshes the README's pictures in resources/screenshots/. The specs that take them write
// only under test-results/screenshots/ (tests never change the tree); this runs them and copies the pictures over,
// when asked. Pictures of a real Flink need one up (`npm run flink:up`), else they are left as they are.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flinkVersion = process.env.FLINK_VERSION ?? '2.3.0';
const flinkUp = existsSync(path.join(root, '.cache/flink', flinkVersion, 'cluster.json'));

/** The README's pictures: the Playwright project and the test (by title) that takes each. */
const SHOTS = [
  { files: ['local-engine-hot-tenant.png'], project: 'web', grep: 'hot-tenant scenario' },
  { files: ['theme-dark.png', 'theme-light.png'], project: 'web', grep: 'the job graph in both themes' },
  { files: ['checkpoints-tab.png', 'checkpoint-detail.png', 'metrics-over-time.png'], project: 'web', grep: 'the Checkpoints tab of the hot-tenant job' },
  { files: ['job-graph.png'], project: 'flink', grep: 'from adding the cluster' },
  { files: ['big-job-zoomed-out.png', 'big-job-zoomed-in.png'], project: 'web', grep: '200-vertex job' },
  { files: ['skew-report-html.png'], project: 'web', grep: 'exports the HTML skew report' },
];

let failed = false;
for (const shot of SHOTS) {
  if (shot.project === 'flink' && !flinkUp) {
    console.log(`screenshots: ${shot.files.join(', ')} left as they are: no real Flink is up (npm run flink:up).`);
    continue;
  }
  const started = Date.now();
  const run = spawnSync('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts', `--project=${shot.project}`, '-g', shot.grep], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const file of shot.files) {
    const taken = path.join(root, 'test-results/screenshots', file);
    if (run.status !== 0 || !existsSync(taken) || statSync(taken).mtimeMs < started) {
      console.error(`screenshots: ${file} was not taken (the spec failed).`);
      failed = true;
      continue;
    }
    mkdirSync(path.join(root, 'resources/screenshots'), { recursive: true });
    copyFileSync(taken, path.join(root, 'resources/screenshots', file));
    console.log(`screenshots: resources/screenshots/${file} refreshed.`);
  }
}
process.exitCode = failed ? 1 : 0;
