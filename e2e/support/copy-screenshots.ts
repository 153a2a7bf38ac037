/**
 * `npm run screenshots`, last step: copies the README's screenshots that the e2e tests just wrote into
 * test-results/screenshots (an ignored folder) to resources/screenshots. Tests never write to the tree themselves.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

const from = path.join(ROOT, 'test-results/screenshots');
const to = path.join(ROOT, 'resources/screenshots');
const readmeShots = new Set(readdirSync(to).filter((f) => f.endsWith('.png')));
// The README's own pictures, plus the ones the history views add.
for (const name of ['checkpoints-tab.png', 'checkpoint-detail.png', 'metrics-over-time.png']) readmeShots.add(name);
mkdirSync(to, { recursive: true });
let copied = 0;
for (const name of readmeShots) {
  if (!existsSync(path.join(from, name))) continue;
  copyFileSync(path.join(from, name), path.join(to, name));
  process.stdout.write(`resources/screenshots/${name}\n`);
  copied += 1;
}
if (copied === 0) {
  process.stderr.write('No screenshots in test-results/screenshots: run the e2e tests first.\n');
  process.exitCode = 1;
}
