// `node engine/cli/testing/modules-loaded.mjs <out-file> <flink-ops args…>`: runs the CLI from its sources and writes
// every file it resolved, one URL per line, to <out-file> (command-table.test.ts: what `--help` really loads).
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

const [out, ...args] = process.argv.slice(2);
registerTsx();
// Registered after tsx, so it runs first and sees what tsx resolved.
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        if (result.url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, result.url + '\\n');
        return result;
      }`),
);
const { runCli } = await import('../main.ts');
process.exitCode = await runCli([process.argv[0], 'flink-ops', ...args]);
