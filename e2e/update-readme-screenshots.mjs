#!/usr/bin/env node
// `npm run screenshots`: refreshes the README's screenshots. The e2e specs write screenshots into
// test-results/screenshots/ (ignored) on every run; this runs the web specs that take the README's, then
// copies those into resources/screenshots/ (committed). `npm test` never touches resources/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shots = path.join(root, 'test-results', 'screenshots');

/** The README's screenshots and the spec that takes each. */
const README_SCREENSHOTS = [
  { file: 'local-engine-hot-tenant.png', spec: 'e2e/specs/web/local-engine.spec.ts' },
  { file: 'theme-dark.png', spec: 'e2e/specs/web/desktop-touches.spec.ts' },
  { file: 'theme-light.png', spec: 'e2e/specs/web/desktop-touches.spec.ts' },
  // Needs a real Flink: taken by `npm run test:flink`; copied when that has run.
  { file: 'job-graph.png', spec: null },
];

const started = Date.now();
const specs = [...new Set(README_SCREENSHOTS.map((s) => s.spec).filter(Boolean))];
const run = spawnSync('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts', '--project=web', ...specs], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

mkdirSync(path.join(root, 'resources', 'screenshots'), { recursive: true });
for (const { file, spec } of README_SCREENSHOTS) {
  const source = path.join(shots, file);
  if (!existsSync(source) || (spec && statSync(source).mtimeMs < started)) {
    console.log(`kept    resources/screenshots/${file} (no fresh one in test-results/screenshots${spec ? '' : ': run `npm run test:flink` first'})`);
    continue;
  }
  copyFileSync(source, path.join(root, 'resources', 'screenshots', file));
  console.log(`updated resources/screenshots/${file}`);
}
