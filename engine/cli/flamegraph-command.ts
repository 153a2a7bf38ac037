import type { Command } from 'commander';
import { foldedStacks } from '../analysis/flame-graph.ts';
import { FLAME_GRAPH_TYPES, type FlameGraphType, type FlameGraphView } from '../contracts/flame-graph.ts';
import { endpoints } from '../flink-rest/endpoints.ts';
import { fetchFlameGraph } from '../inspect/fetch-flame-graph.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { flameLines } from './format-flame.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

interface FlameGraphCommandOptions extends ConnectionOptions {
  job: string;
  vertex: string;
  subtask?: string;
  type: string;
  folded?: boolean;
  json?: boolean;
}

export const FLAMEGRAPH_DESCRIPTION = "Sample a vertex's (or one subtask's) threads as Flink does and show where the time goes: hot frames, the heaviest stack, or folded stacks";

/**
 * `flink-ops flamegraph --url U --job J --vertex V [--subtask N] [--type on-cpu]`: Flink's flame graph of a vertex
 * (1 request to find the job by name, 1 for its vertices, then 1 a second while Flink samples, about 5 s). Without a
 * graph (flame graphs off, the vertex finished) it says why in one line and exits 1; `--json` prints the view, whatever it says.
 */
export function registerFlameGraphCommand(program: Command): void {
  withConnection(program.command('flamegraph').description(FLAMEGRAPH_DESCRIPTION))
    .requiredOption('--job <id|name>', 'job id (32 hex) or job name')
    .requiredOption('--vertex <id|name>', 'vertex id (32 hex), its name, or the name of one of its chained operators')
    .option('--subtask <n>', 'only this subtask (Flink 1.17+)')
    .option('--type <type>', `${FLAME_GRAPH_TYPES.join(', ')}: every thread state, running threads, or waiting ones`, 'full')
    .option('--folded', 'print folded stacks (frame;frame;frame samples), for flamegraph.pl, speedscope or inferno')
    .option('--json', 'print the flame graph as JSON')
    .action(async (options: FlameGraphCommandOptions) => {
      const type = flameGraphType(options.type);
      const subtask = options.subtask === undefined ? null : subtaskIndex(options.subtask);
      const client = await attach(options);
      const job = resolveJob(await fetchJobs(client), options.job);
      const details = await client.request(endpoints.jobDetails, { jobid: job.id });
      const vertex = resolveVertex(details.vertices, options.vertex);
      if (subtask !== null && subtask >= vertex.parallelism) {
        throw new CliError(EXIT.badArguments, `${printable(vertex.name)} has subtasks 0 to ${vertex.parallelism - 1}, not ${subtask}.`);
      }
      const view = await fetchFlameGraph(client, options.url, job.id, vertex.id, { type, subtask });
      if (options.json) return void process.stdout.write(terminalJson(view));
      if (view.status !== 'ready') throw new CliError(EXIT.failure, view.sentence);
      if (!view.root) throw new CliError(EXIT.failure, 'Flink said the flame graph is ready but sent no frames.');
      process.stdout.write(`${printableLines(options.folded ? foldedStacks(view.root).join('\n') : formatFlameGraph(view, vertex.name))}\n`);
    });
}

function flameGraphType(raw: string): FlameGraphType {
  if ((FLAME_GRAPH_TYPES as readonly string[]).includes(raw)) return raw as FlameGraphType;
  throw new CliError(EXIT.badArguments, `--type must be one of ${FLAME_GRAPH_TYPES.join(', ')}, not "${printable(raw)}".`);
}

function subtaskIndex(raw: string): number {
  if (!/^\d{1,6}$/.test(raw.trim())) throw new CliError(EXIT.badArguments, `--subtask must be a subtask index (0, 1, ...), not "${printable(raw)}".`);
  return Number(raw.trim());
}

/** A vertex by id, by its name, or by one of its chained operators' names (`tenant-cost` of `tenant-cost -> Sink: usd-sink`). */
export function resolveVertex<V extends { id: string; name: string }>(vertices: readonly V[], idOrName: string): V {
  const exact = vertices.find((v) => v.id === idOrName || v.name === idOrName);
  if (exact) return exact;
  const chained = vertices.filter((v) => v.name.split(' -> ').some((operator) => operator === idOrName));
  if (chained.length === 1) return chained[0];
  const names = vertices.map((v) => printable(v.name)).join(', ');
  throw new CliError(EXIT.badArguments, `${chained.length > 1 ? 'More than one vertex chains' : 'The job has no vertex'} "${printable(idOrName)}": give its id. Its vertices: ${names}.`);
}

/** Pure: the graph as the terminal shows it. Frame names are the cluster's: made printable. */
export function formatFlameGraph(view: FlameGraphView, vertexName: string): string {
  const what = view.subtask === null ? `${printable(vertexName)} (all subtasks)` : `${printable(vertexName)} subtask ${view.subtask}`;
  return [`Flame graph (${view.type}) of ${what}`, printable(view.sentence), '', ...flameLines(view)].join('\n');
}
