import type { Command } from 'commander';
import type { ApplicationSummary } from '../contracts/applications.ts';
import { fetchApplications } from '../applications/cluster-applications.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { formatDuration, formatTable } from './format-table.ts';
import { printable, terminalJson } from './terminal-text.ts';

/** `applications`: Flink 2.3's applications of a cluster (every job belongs to one); before 2.3, says there are none. */
export function registerApplicationCommands(program: Command): void {
  withConnection(program.command('applications').description('List the applications of a cluster (Flink 2.3+): state, jobs by state, times'))
    .option('--json', 'print the applications as JSON')
    .action(async (options: ConnectionOptions & { json?: boolean }) => {
      const client = await attach(options);
      const list = await fetchApplications(client, client.baseUrl);
      if (options.json) {
        process.stdout.write(terminalJson(list));
        return;
      }
      if (!list.supported) {
        process.stdout.write(`${list.unsupported}\n`);
        return;
      }
      process.stdout.write(
        list.applications.length === 0
          ? 'No applications on this cluster.\n'
          : formatTable(
              ['ID', 'STATE', 'DURATION', 'JOBS', 'NAME'],
              list.applications.map((a) => [a.id, a.state, formatDuration(a.durationMs), formatJobCounts(a.jobCounts), a.name]),
            ),
      );
    });
}

export function formatJobCounts(counts: Record<string, number>): string {
  return Object.entries(counts).map(([state, n]) => `${state}:${n}`).join(' ') || '-';
}

/** An application by its id, or by its name when exactly one that has not ended has it. */
export async function resolveApplication(client: FlinkRestClient, idOrName: string): Promise<ApplicationSummary> {
  const list = await fetchApplications(client, client.baseUrl);
  if (!list.supported) throw new CliError(EXIT.failure, list.unsupported!);
  const byId = list.applications.find((a) => a.id === idOrName);
  if (byId) return byId;
  const named = list.applications.filter((a) => a.name === idOrName && a.endTime === null);
  if (named.length > 1) throw new CliError(EXIT.badArguments, printable(`${named.length} running applications are named "${idOrName}": give the id (${named.map((a) => a.id).join(', ')}).`));
  if (named.length === 0) throw new CliError(EXIT.jobNotFound, printable(`No application with id or name "${idOrName}" on this cluster (see \`flink-ops applications\`).`));
  return named[0];
}
