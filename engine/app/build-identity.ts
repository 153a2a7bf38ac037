import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT as ROOT } from '../project-root.ts';

/** Which console this is: its version (package.json) and when `npm run build` built it. */
export interface BuildIdentity {
  version: string;
  /** ISO time of the build; null when run from sources that were never built. */
  builtAt: string | null;
}

/** The app's version, from package.json. */
export function appVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `renderer/dist/build-info.json`, written by the build (renderer/vite.config.ts); unreadable = not built. */
export function readBuildIdentity(root = ROOT): BuildIdentity {
  const file = path.join(root, 'renderer/dist/build-info.json');
  let builtAt: string | null = null;
  if (existsSync(file)) {
    try {
      const info = JSON.parse(readFileSync(file, 'utf8')) as { builtAt?: unknown };
      if (typeof info.builtAt === 'string' && !Number.isNaN(Date.parse(info.builtAt))) builtAt = info.builtAt;
    } catch {
      // A torn or hand-edited file: the identity says "not built" rather than failing the start.
    }
  }
  return { version: appVersion(), builtAt };
}
