#!/usr/bin/env node
// The `flink-ops` command. It runs the compiled CLI (dist/cli, built by `npm run build` and on install) while that
// is as new as every source it was built from; else the TypeScript sources through tsx (a development tool), so an
// edit runs at once.
import { readFileSync, statSync } from 'node:fs';

const COMPILED = new URL('../../dist/cli/', import.meta.url);

function compiledIsFresh() {
  try {
    const { builtAt, sources } = JSON.parse(readFileSync(new URL('inputs.json', COMPILED), 'utf8'));
    const root = new URL('../../', import.meta.url);
    return sources.length > 0 && sources.every((source) => statSync(new URL(source, root)).mtimeMs <= builtAt);
  } catch {
    return false; // not built, or a source gone
  }
}

async function fromSources() {
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

// `flink-ops … | head`: a reader that stops early ends the command quietly, as other command-line tools do.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const { runCli } = compiledIsFresh() ? await import(new URL('main.js', COMPILED).href) : await fromSources();
process.exitCode = await runCli(process.argv);
