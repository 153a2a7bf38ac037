/**
 * The Chromium that the benchmarks and the e2e tests drive (never `npx playwright install`): Debian's by default,
 * another with `CHROMIUM_PATH=/path/to/chromium`.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** No sandbox (containers run as root), no GPU, and none of Chromium's own traffic beside the page's. */
export const CHROMIUM_ARGS: string[] = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
