import type { Command } from 'commander';
import type { ConfigEntry, ConfigurationView } from '../contracts/inspect.ts';
import { fetchConfiguration } from '../inspect/fetch-configuration.ts';
import { fetchJobs } from '../sampling/cluster-views.ts';
import { attach, resolveJob, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { formatTable } from './format-table.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

interface ConfigOptions extends ConnectionOptions {
  job?: string;
  json?: boolean;
}

/**
 * `flink-ops config --url U [--job J]`: the JobManager's configuration and environment, and with a job its execution
 * config, user parameters and checkpoint configuration (2 requests, 4 with a job, and 1 to find the job by name).
 * Values Flink redacted are printed as `****** (redacted by Flink)`: the console never had them.
 */
export function registerConfigCommand(program: Command): void {
  withConnection(program.command('config').description('Show the JobManager\'s configuration and environment, and a job\'s configuration, user parameters and checkpoint configuration'))
    .option('--job <id|name>', 'job id (32 hex) or job name')
    .option('--json', 'print the configuration as JSON')
    .action(async (options: ConfigOptions) => {
      const client = await attach(options);
      const job = options.job === undefined ? null : resolveJob(await fetchJobs(client), options.job);
      const view = await fetchConfiguration(client, options.url, job?.id ?? null);
      process.stdout.write(options.json ? terminalJson(view) : printableLines(formatConfiguration(view)));
    });
}

/** Pure: the configuration as the terminal shows it, section by section. Every cluster-sent string is made printable. */
export function formatConfiguration(view: ConfigurationView): string {
  const sections: string[] = [];
  if (view.job) {
    const j = view.job;
    sections.push(
      [
        `Job ${printable(j.name ?? view.jobId ?? '')} (${view.jobId})`,
        `  parallelism: ${j.parallelism ?? 'not sent'}`,
        `  restart strategy: ${printable(j.restartStrategy ?? 'not sent')}`,
        `  object reuse: ${j.objectReuse === null ? 'not sent' : j.objectReuse ? 'on' : 'off'}`,
      ].join('\n'),
    );
    sections.push(`User parameters (${j.userConfig.length})\n${entriesTable(j.userConfig, 'none')}`);
    sections.push(`Checkpoint configuration\n${view.checkpoints === null ? '  The job does not checkpoint (the cluster has no checkpoint configuration for it).' : entriesTable(view.checkpoints, 'none')}`);
  }
  sections.push(`JobManager configuration (${view.jobManager.length})\n${entriesTable(view.jobManager, 'none')}`);
  const env = view.environment;
  sections.push(
    env === null
      ? 'JobManager environment\n  Not served by this cluster (GET /jobmanager/environment is Flink 1.17+).'
      : [
          'JobManager environment',
          `  JVM: ${printable(env.jvmVersion ?? 'not sent')} (${printable(env.arch ?? '?')})`,
          `  JVM options (${env.options.length}):`,
          ...env.options.map((o) => `    ${printable(o)}`),
          `  classpath: ${env.classpath.length} entries`,
        ].join('\n'),
  );
  const redacted = [...view.jobManager, ...(view.job?.userConfig ?? [])].filter((e) => e.redacted).length;
  if (redacted > 0) sections.push(`${redacted} value${redacted === 1 ? '' : 's'} redacted by Flink (keys that name a password, secret, token or key): the console never receives them.`);
  return `${sections.join('\n\n')}\n`;
}

function entriesTable(entries: ConfigEntry[], none: string): string {
  if (entries.length === 0) return `  ${none}`;
  return formatTable(['key', 'value'], entries.map((e) => [e.key, e.redacted ? `${e.value} (redacted by Flink)` : e.value])).trimEnd();
}
