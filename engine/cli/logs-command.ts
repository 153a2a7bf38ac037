import type { Command } from 'commander';
import { MAX_LOG_PAGE_BYTES, type LogFileList, type LogFileRef, type LogLine, type LogPage, type LogSearchResult, type ThreadDumpView } from '../contracts/logs.ts';
import type { FlinkRestClient } from '../flink-rest/client.ts';
import { fetchThreadDump } from '../logs/fetch-thread-dump.ts';
import { saveLogFile } from '../logs/log-download.ts';
import { listLogs, readLogPage, searchLog } from '../logs/log-files.ts';
import { CliError, EXIT } from './cli-error.ts';
import { attach, withConnection, type ConnectionOptions } from './cluster-commands.ts';
import { formatTable } from './format-table.ts';
import { escapedForTerminal, printable, printableLines, terminalJson } from './terminal-text.ts';
import { checkWritable, writeFailure } from './write-output.ts';

interface ProcessOptions extends ConnectionOptions {
  jobmanager?: boolean;
  taskmanager?: string;
  json?: boolean;
}

interface LogsOptions extends ProcessOptions {
  file?: string;
  list?: boolean;
  grep?: string;
  task?: string;
  tail: string;
  follow?: boolean;
  interval: string;
  download?: string;
}

/** How often `--follow` asks for what was written since. */
const DEFAULT_FOLLOW_INTERVAL_MS = 2000;

/**
 * `flink-ops logs --url U (--jobmanager | --taskmanager ID)`: the last lines of a process's log (or of `--file`), its
 * files (`--list`), the lines with a text or of a task (`--grep`, `--task`), what is written next (`--follow`), and the
 * whole file saved (`--download`). Files are read in pages or streamed to disk, never whole into memory; every line
 * printed has its control characters made visible.
 */
export function registerLogsCommands(program: Command): void {
  withProcess(withConnection(program.command('logs').description('Show the log of the JobManager or a TaskManager: its files, the last lines, a search, follow')))
    .option('--file <name>', 'a file of the log list (default: the current log; `stdout` for the stdout)')
    .option('--list', 'list the log files (name, size, modified)')
    .option('--grep <text>', 'only the lines containing this text (case-insensitive), with their line numbers')
    .option('--task <name>', "only the lines of this task, as Flink names it: 'tenant-cost (13/32)#0'")
    .option('--tail <lines>', 'how many of the last lines to print', '100')
    .option('--follow', 'keep printing the lines written after, until interrupted')
    .option('--interval <ms>', 'how often --follow asks', String(DEFAULT_FOLLOW_INTERVAL_MS))
    .option('--download <path>', 'save the whole file (--file, default the current log) to this path, streamed as it comes, whole or not at all')
    .option('--json', 'print the data as JSON (with --follow: one JSON line per log line)')
    .action(async (options: LogsOptions) => {
      const processId = processOf(options);
      const file = fileOf(options.file);
      const tail = wholeNumber(options.tail, '--tail', 1, 100_000);
      const interval = wholeNumber(options.interval, '--interval', 100, 3_600_000);
      if (options.list && (options.grep !== undefined || options.task !== undefined || options.follow)) throw new CliError(EXIT.badArguments, '--list lists the files: leave out --grep, --task and --follow.');
      if (options.follow && (options.grep !== undefined || options.task !== undefined)) throw new CliError(EXIT.badArguments, '--follow prints every new line: leave out --grep and --task.');
      if (options.download !== undefined && (options.list || options.grep !== undefined || options.task !== undefined || options.follow)) {
        throw new CliError(EXIT.badArguments, '--download saves the whole file: leave out --list, --grep, --task and --follow.');
      }
      if (options.download !== undefined) checkWritable(options.download);
      const client = await attach(options);
      if (options.download !== undefined) {
        const target = options.download;
        const { bytes } = await saveLogFile(client, processId, file, target).catch((error: unknown) => {
          throw writeFailure(target, error);
        });
        if (options.json) process.stdout.write(terminalJson({ saved: target, bytes }));
        else process.stderr.write(printableLines(`Saved ${processId === 'jobmanager' ? "the JobManager's" : `TaskManager ${processId}'s`} ${describeFile(file)} (${bytes} bytes) to ${target}.\n`));
        return;
      }
      if (options.list) {
        const list = await listLogs(client, options.url, processId);
        process.stdout.write(options.json ? terminalJson(list) : printableLines(formatLogList(list)));
        return;
      }
      if (options.grep !== undefined || options.task !== undefined) {
        const result = await searchLog(client, options.url, processId, { file, text: options.grep ?? null, task: options.task ?? null });
        process.stdout.write(options.json ? terminalJson(result) : printableLines(formatSearch(result)));
        return;
      }
      const page = await lastLines(client, options.url, processId, file, tail);
      if (!options.follow) {
        process.stdout.write(options.json ? terminalJson(page) : printableLines(formatLines(page.lines)));
        return;
      }
      await follow(client, options.url, processId, file, page, interval, options.json === true);
    });

  withProcess(withConnection(program.command('thread-dump').description('Take a thread dump of the JobManager or a TaskManager, grouped by state, task threads marked')))
    .option('--json', 'print the thread dump as JSON')
    .action(async (options: ProcessOptions) => {
      const processId = processOf(options);
      const client = await attach(options);
      const dump = await fetchThreadDump(client, options.url, processId, null);
      process.stdout.write(options.json ? terminalJson(dump) : printableLines(formatThreadDump(dump)));
    });
}

function withProcess(command: Command): Command {
  return command.option('--jobmanager', 'the JobManager').option('--taskmanager <id>', "a TaskManager's resource id (see `flink-ops graph` or the Web UI)");
}

function processOf(options: ProcessOptions): string {
  if (options.jobmanager && options.taskmanager !== undefined) throw new CliError(EXIT.badArguments, 'Give either --jobmanager or --taskmanager <id>, not both.');
  if (options.jobmanager) return 'jobmanager';
  if (options.taskmanager !== undefined) return options.taskmanager;
  throw new CliError(EXIT.badArguments, 'Say whose log: --jobmanager or --taskmanager <id>.');
}

function fileOf(name: string | undefined): LogFileRef {
  if (name === undefined || name === 'log') return { kind: 'log' };
  if (name === 'stdout') return { kind: 'stdout' };
  return { kind: 'file', name };
}

function describeFile(file: LogFileRef): string {
  return file.kind === 'file' ? `log file ${file.name}` : file.kind === 'log' ? 'log' : 'stdout';
}

function wholeNumber(raw: string, option: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new CliError(EXIT.badArguments, `${option} must be a whole number from ${min} to ${max}, not "${printable(raw)}".`);
  return n;
}

/** The last `count` lines: the tail page grows until it holds them, or the file's start, or the page cap. */
export async function lastLines(client: FlinkRestClient, clusterId: string, processId: string, file: LogFileRef, count: number): Promise<LogPage> {
  let length = Math.min(MAX_LOG_PAGE_BYTES, Math.max(64 * 1024, count * 256));
  for (;;) {
    const page = await readLogPage(client, clusterId, processId, { file, offset: null, length });
    const atStart = page.lines.length > 0 && page.lines[0].number === 1;
    if (page.lines.length >= count || atStart || length >= MAX_LOG_PAGE_BYTES || page.fileBytes === null || page.fileBytes <= length) {
      return { ...page, lines: page.lines.slice(-count) };
    }
    length = Math.min(MAX_LOG_PAGE_BYTES, length * 4);
  }
}

/** Prints what is written after `from`, page by page, until interrupted; a file that shrank (rolled over) starts again. */
async function follow(client: FlinkRestClient, clusterId: string, processId: string, file: LogFileRef, from: LogPage, intervalMs: number, json: boolean): Promise<void> {
  const print = (lines: LogLine[]) => {
    if (lines.length === 0) return;
    process.stdout.write(json ? lines.map((l) => `${escapedForTerminal(JSON.stringify(l))}\n`).join('') : printableLines(formatLines(lines)));
  };
  print(from.lines);
  let offset = from.nextOffset;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  while (!stopped) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    if (stopped) break;
    const page = await readLogPage(client, clusterId, processId, { file, offset, length: MAX_LOG_PAGE_BYTES });
    if (page.fileBytes !== null && page.fileBytes < offset) {
      process.stderr.write(`The file is now smaller than before (${page.fileBytes} < ${offset} bytes): it rolled over; following from its start.\n`);
      offset = 0;
      continue;
    }
    print(page.lines);
    offset = page.nextOffset;
  }
}

/** Pure: the files as a table. */
export function formatLogList(list: LogFileList): string {
  if (list.files.length === 0) return 'No log files (the process logs to no file the REST API can serve).\n';
  return formatTable(
    ['FILE', 'SIZE', 'MODIFIED'],
    list.files.map((f) => [printable(f.name), String(f.size), f.modifiedAt === null ? 'not sent' : new Date(f.modifiedAt).toISOString()]),
  );
}

export function formatLines(lines: LogLine[]): string {
  return lines.map((l) => `${printable(l.text)}\n`).join('');
}

/** Pure: the matching lines, numbered as `grep -n` numbers them, and whether the scan read the whole file. */
export function formatSearch(result: LogSearchResult): string {
  const lines = result.matches.map((m) => `${m.number}:${printable(m.text)}\n`).join('');
  const end = result.complete
    ? `${result.matches.length} matching line${result.matches.length === 1 ? '' : 's'} of ${result.scannedLines}.\n`
    : `${result.matches.length} matching lines in the first ${result.scannedBytes} bytes (${result.scannedLines} lines): the search stopped there. Download the file to search it all.\n`;
  return lines + end;
}

/** Pure: the threads by state, task threads marked with their subtask, each with its stack. */
export function formatThreadDump(dump: ThreadDumpView): string {
  const helpers = dump.groups.reduce((n, g) => n + g.threads.filter((t) => t.task?.role === 'helper').length, 0);
  const out: string[] = [`${dump.threadCount} threads: ${dump.taskThreadCount} task threads${helpers > 0 ? `, ${helpers} of their helpers` : ''}.`];
  if (dump.note) out.push(printable(dump.note));
  for (const group of dump.groups) {
    out.push('', `${group.state} (${group.threads.length})`);
    for (const t of group.threads) {
      const task = t.task ? ` [${t.task.role === 'task' ? 'task' : 'helper of task'}: ${printable(t.task.vertexName)}, subtask ${t.task.subtaskIndex} of ${t.task.parallelism}, attempt ${t.task.attempt}]` : '';
      const lock = t.lockName ? ` on ${printable(t.lockName)}` : '';
      out.push(`  "${printable(t.name)}"${lock}${task}`);
      for (const line of t.stack.split('\n').slice(1)) if (line.trim() !== '') out.push(`    ${printable(line.trim())}`);
    }
  }
  return `${out.join('\n')}\n`;
}
