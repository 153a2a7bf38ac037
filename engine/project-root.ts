import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's root: the nearest folder up with a package.json. Found, not counted: the engine runs from its sources
 * (engine/…), compiled into dist/cli/ (the `flink-ops` bin) and bundled into electron/dist/ or electron/dist/engine/
 * (the desktop app and its local engine), each at another depth below the root.
 */
export const PROJECT_ROOT = rootOf(path.dirname(fileURLToPath(import.meta.url)));

function rootOf(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(start, '..');
  }
}
