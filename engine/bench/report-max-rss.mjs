// `node --import ./report-max-rss.mjs …`: prints the process's peak RSS (KiB) on stderr as it exits, as the last line
// `max-rss <KiB>` (startup-cost.ts: the same measure for the CLI and its floor, without a tool outside Node).
process.on('exit', () => process.stderr.write(`\nmax-rss ${process.resourceUsage().maxRSS}\n`));
