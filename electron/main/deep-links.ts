import path from 'node:path';
import type { App } from 'electron';
import { DEEP_LINK_SCHEME, deepLinkFromArgv, deepLinkHash, parseDeepLink } from '../../engine/contracts/deep-link.ts';

/**
 * `flink-ops://cluster/<name>/job/<id>` links from outside: on a first launch (argv), from a second
 * launch (handed over by the single-instance lock), or from macOS (`open-url`). Every link goes through
 * the shared parser; a hostile one is dropped. `open` gets the page hash to show, e.g. `#/cluster/prod/job/…`.
 */
export function watchDeepLinks(app: Pick<App, 'on' | 'setAsDefaultProtocolClient'>, open: (hash: string) => void): string | null {
  // Run from source (`electron path/to/main.cjs`), the OS must start Electron with this script.
  if (process.defaultApp && process.argv.length >= 2) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [path.resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const target = parseDeepLink(url);
    if (target) open(deepLinkHash(target));
  });
  app.on('second-instance', (_event, argv) => {
    const target = deepLinkFromArgv(argv);
    // Focusing the running window happens in main's own second-instance handler.
    if (target) open(deepLinkHash(target));
  });
  const first = deepLinkFromArgv(process.argv);
  return first ? deepLinkHash(first) : null;
}
