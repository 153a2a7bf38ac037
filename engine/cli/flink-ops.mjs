#!/usr/bin/env node
// The `flink-ops` command. The engine is TypeScript run as-is through tsx: no build step between edit and run.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./main.ts');
process.exitCode = await runCli(process.argv);
