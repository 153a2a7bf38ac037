import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { MAX_PROFILE_SECONDS, PROFILING_MODES, type ProfileEntry, type ProfileResult, type ProfilingMode } from '../contracts/profiler.ts';
import { REAL_CLOCK } from '../operations/driver-context.ts';
import { fetchProfiles, openProfile, startProfile, unavailableSentence } from '../profiler/profiler-service.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attachChecked, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { flameLines } from './format-flame.ts';
import { formatTable } from './format-table.ts';
import { printable, printableLines, terminalJson } from './terminal-text.ts';

interface ProfileCommandOptions extends ConnectionOptions {
  jobmanager?: boolean;
  taskmanager?: string;
  mode: string;
  duration: string;
  list?: boolean;
  open?: string;
  out?: string;
  json?: boolean;
}

export const PROFILE_DESCRIPTION = "Profile the JobManager or a TaskManager with Flink's profiler (async-profiler, 1.19+): start one and show where its time went, list them, or open one";

/** A finished profile's file is asked for this long after its duration at most. */
const FINISH_GRACE_MS = 30_000;

/**
 * `flink-ops profile --url U (--jobmanager | --taskmanager ID) [--mode ITIMER] [--duration 10]`: starts a profile,
 * waits for it (its duration, then one request a second), opens its file and prints the hot frames; `--out` saves the
 * HTML Flink wrote. `--list` lists the process's profiles, `--open FILE` opens one. Without a profiler: one line, exit 1.
 */
export function registerProfileCommand(program: Command): void {
  withConnection(program.command('profile').description(PROFILE_DESCRIPTION))
    .option('--jobmanager', 'profile the JobManager')
    .option('--taskmanager <id>', 'profile this TaskManager (its id, as `flink-ops` lists TaskManagers)')
    .option('--mode <mode>', `async-profiler's mode: ${PROFILING_MODES.join(', ')}`, 'ITIMER')
    .option('--duration <seconds>', 'how long to profile, 1 to 300 s', '10')
    .option('--list', "list the process's profiles instead of starting one")
    .option('--open <file>', 'open a finished profile by its file name instead of starting one')
    .option('--out <file>', "save the profile's HTML (async-profiler's flame graph) to this file")
    .option('--json', 'print JSON')
    .action(async (options: ProfileCommandOptions) => {
      if (Boolean(options.jobmanager) === (options.taskmanager !== undefined)) throw new CliError(EXIT.badArguments, 'Give --jobmanager or --taskmanager ID (one of them).');
      const processId = options.jobmanager ? 'jobmanager' : options.taskmanager!;
      const mode = options.mode.toUpperCase();
      if (!(PROFILING_MODES as readonly string[]).includes(mode)) throw new CliError(EXIT.badArguments, `--mode must be one of ${PROFILING_MODES.join(', ')}, not "${printable(options.mode)}".`);
      const duration = Number(options.duration);
      if (!/^\d{1,3}$/.test(options.duration) || duration < 1 || duration > MAX_PROFILE_SECONDS) throw new CliError(EXIT.badArguments, `--duration must be 1 to ${MAX_PROFILE_SECONDS} seconds, not "${printable(options.duration)}".`);
      const { client, check } = await attachChecked(options);
      const view = await fetchProfiles(client, options.url, processId, async (id) => unavailableSentence(check.flinkVersion, id));
      if (!view.available) throw new CliError(EXIT.failure, view.unavailable!);
      if (options.list) return void process.stdout.write(options.json ? terminalJson(view) : `${printableLines(formatProfiles(view.profiles))}\n`);
      const fileName = options.open ?? (await finishedFile(await startProfile(client, processId, { mode: mode as ProfilingMode, durationSeconds: duration }), () => fetchProfiles(client, options.url, processId, async () => '')));
      const result = await openProfile(client, options.url, processId, fileName);
      if (options.out) writeFileSync(options.out, result.html);
      if (options.json) return void process.stdout.write(terminalJson({ ...result, html: undefined }));
      process.stdout.write(`${printableLines(formatProfile(result, options.out))}\n`);
    });
}

/** Waits out the profile's duration, then asks each second until Flink says it finished (or failed, or is late). */
async function finishedFile(started: ProfileEntry, list: () => Promise<{ profiles: ProfileEntry[] }>): Promise<string> {
  if (started.status === 'FAILED') throw new CliError(EXIT.failure, `Flink's profiler failed: ${printable(started.message ?? 'no reason given')}.`);
  process.stderr.write(`Profiling (${started.mode}, ${started.durationSeconds} s)...\n`);
  await REAL_CLOCK.sleep(started.durationSeconds * 1000);
  const giveUpAt = REAL_CLOCK.now() + FINISH_GRACE_MS;
  for (;;) {
    const entry = (await list()).profiles.find((p) => p.triggeredAt === started.triggeredAt && p.mode === started.mode);
    if (entry?.status === 'FINISHED' && entry.fileName) return entry.fileName;
    if (entry?.status === 'FAILED') throw new CliError(EXIT.failure, `Flink's profiler failed: ${printable(entry.message ?? 'no reason given')}.`);
    if (REAL_CLOCK.now() > giveUpAt) throw new CliError(EXIT.failure, `The profile had not finished ${FINISH_GRACE_MS / 1000} s after its duration: see --list later.`);
    await REAL_CLOCK.sleep(1000);
  }
}

/** Pure: a process's profiles as a table, newest first. */
export function formatProfiles(profiles: ProfileEntry[]): string {
  if (profiles.length === 0) return 'No profiles yet.';
  return formatTable(
    ['STATUS', 'MODE', 'STARTED', 'SECONDS', 'FILE OR MESSAGE'],
    profiles.map((p) => [p.status, printable(p.mode), new Date(p.triggeredAt).toISOString(), String(p.durationSeconds), printable(p.fileName ?? p.message ?? '')]),
  ).trimEnd();
}

/** Pure: an opened profile as the terminal shows it. */
export function formatProfile(result: ProfileResult, savedTo: string | undefined): string {
  const processName = result.processId === 'jobmanager' ? 'the JobManager' : `TaskManager ${printable(result.processId)}`;
  return [`Profile ${printable(result.fileName)} of ${processName}`, printable(result.sentence), ...(savedTo ? [`Saved to ${printable(savedTo)}.`] : []), '', ...flameLines(result)].join('\n');
}
