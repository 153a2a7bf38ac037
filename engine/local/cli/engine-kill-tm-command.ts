import type { Command } from 'commander';
import { CliError, EXIT } from '../../cli/cli-error.ts';
import { printable } from '../../cli/terminal-text.ts';

/**
 * `flink-ops engine-kill-tm --url URL --tm ID`: kills a TaskManager of a running local engine (its engine-only
 * endpoint `POST /local-engine/v1/taskmanagers/:tmid/kill`), as `kill -9` of a TaskManager process would on a real
 * cluster: the jobs with tasks on it fail over through their restart strategy. Register it beside `flink-ops engine`.
 */
export function registerEngineKillTmCommand(program: Command, fetchImpl: typeof fetch = fetch): void {
  program
    .command('engine-kill-tm')
    .description('Kill a TaskManager of a local engine (engine only): its jobs fail over as on Flink.')
    .requiredOption('--url <url>', 'the local engine, e.g. http://127.0.0.1:8081')
    .requiredOption('--tm <id>', 'the TaskManager ID (GET /taskmanagers)')
    .addHelpText('after', '\nAn engine started with a token: FLINK_OPS_TOKEN=<token> in the environment.')
    .action(async (options: { url: string; tm: string }) => {
      let base: URL;
      try {
        base = new URL(options.url);
      } catch {
        throw new CliError(EXIT.badArguments, `--url "${options.url}" is not a URL; pass the engine's address, e.g. http://127.0.0.1:8081.`);
      }
      const target = new URL(`local-engine/v1/taskmanagers/${encodeURIComponent(options.tm)}/kill`, base.href.endsWith('/') ? base.href : `${base.href}/`);
      let response: Response;
      try {
        const token = process.env.FLINK_OPS_TOKEN;
        response = await fetchImpl(target, {
          method: 'POST',
          // The engine admits JSON writes only, and a token when it was started with one.
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: '{}',
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new CliError(EXIT.clusterUnavailable, `Cannot reach the local engine at ${base.origin}: ${(error as Error).message}.`);
      }
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (response.status === 401) {
        throw new CliError(EXIT.clusterUnavailable, `The local engine at ${base.origin} needs its token: set FLINK_OPS_TOKEN (the engine printed how).`);
      }
      if (response.status === 404 && (body as { errors?: string[] })?.errors?.[0]?.includes('Could not find TaskExecutor')) {
        throw new CliError(EXIT.failure, `No TaskManager ${options.tm} in the engine at ${base.origin} (see GET /taskmanagers).`);
      }
      if (!response.ok || typeof body !== 'object' || body === null || !('killed' in body)) {
        throw new CliError(EXIT.clusterUnavailable, `${base.origin} is not a local engine (POST ${target.pathname} answered ${response.status}).`);
      }
      const result = body as { killed: string; failedJobs: string[]; restartsAt: number | null };
      const jobs = result.failedJobs.length > 0 ? `jobs failing over: ${result.failedJobs.join(', ')}` : 'it ran no job';
      const back = result.restartsAt !== null ? `; a new TaskManager registers at ${new Date(result.restartsAt).toISOString()}` : '';
      process.stdout.write(printable(`TaskManager ${result.killed} killed; ${jobs}${back}.`) + '\n');
    });
}
