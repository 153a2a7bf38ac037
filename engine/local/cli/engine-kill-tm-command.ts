import type { Command } from 'commander';
import { CliError, EXIT } from '../../cli/cli-error.ts';
import { printable } from '../../cli/terminal-text.ts';
import { FlinkRestClient } from '../../flink-rest/client.ts';
import { EngineError } from '../../flink-rest/errors.ts';
import { killTaskManagerAndReport } from '../../operations/kill-taskmanager.ts';

/** Kinds of failure that mean nothing (or nothing like a local engine) answers at that address. */
const UNREACHABLE = new Set(['refused', 'dns', 'timeout', 'network', 'tls']);

/**
 * `flink-ops engine-kill-tm --url URL --tm ID`: kills a TaskManager of a running local engine (its engine-only
 * endpoint `POST /local-engine/v1/taskmanagers/:tmid/kill`), as `kill -9` of a TaskManager process would on a real
 * cluster, and says what each job on it does next, from its restart strategy (the same words as the app's).
 * Register it beside `flink-ops engine`.
 */
export function registerEngineKillTmCommand(program: Command): void {
  program
    .command('engine-kill-tm')
    .description('Kill a TaskManager of a local engine (engine only): its jobs fail over as on Flink.')
    .requiredOption('--url <url>', 'the local engine, e.g. http://127.0.0.1:8081')
    .requiredOption('--tm <id>', 'the TaskManager ID (GET /taskmanagers)')
    .addHelpText('after', '\nAn engine started with a token (every engine the app starts) needs it in FLINK_OPS_TOKEN.')
    .action(async (options: { url: string; tm: string }) => {
      let client: FlinkRestClient;
      const token = process.env.FLINK_OPS_TOKEN;
      try {
        client = new FlinkRestClient({ baseUrl: options.url, auth: token ? { kind: 'bearer', token } : { kind: 'none' } });
      } catch {
        throw new CliError(EXIT.badArguments, `--url "${options.url}" is not a URL; pass the engine's address, e.g. http://127.0.0.1:8081.`);
      }
      const origin = new URL(client.baseUrl).origin;
      try {
        const { message } = await killTaskManagerAndReport(client, options.tm, (at) => new Date(at).toISOString());
        process.stdout.write(`${printable(message)}\n`);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        const { kind, endpoint, message } = error.info;
        if (kind === 'unauthorized') {
          throw new CliError(EXIT.clusterUnavailable, `The local engine at ${origin} needs its token: set FLINK_OPS_TOKEN (the engine printed how).`);
        }
        if (kind === 'not-found' && endpoint?.startsWith('POST /local-engine/') && message.includes('Could not find TaskExecutor')) {
          throw new CliError(EXIT.failure, `No TaskManager ${options.tm} in the engine at ${origin} (see GET /taskmanagers).`);
        }
        if (UNREACHABLE.has(kind)) throw new CliError(EXIT.clusterUnavailable, `Cannot reach the local engine at ${origin}: ${message}`);
        if (endpoint?.startsWith('POST /local-engine/')) {
          throw new CliError(EXIT.clusterUnavailable, `${origin} is not a local engine (POST /local-engine/v1/taskmanagers/:taskmanagerid/kill: ${message})`);
        }
        throw error;
      }
    });
}
