import { Command, CommanderError, Help } from 'commander';
import { appVersion } from '../app/build-identity.ts';
import { CliError, EXIT, exitCodeOf } from './cli-error.ts';
import { COMMANDS, commandNamed } from './command-table.ts';
import { printable } from './terminal-text.ts';

/** Runs `flink-ops` and returns the exit code; errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('flink-ops')
    .description('Flink Ops Console: inspect and operate Apache Flink clusters over their REST API.')
    .addHelpText('after', '\nExit codes: 0 ok, 1 failure, 2 bad arguments, 3 cluster unreachable or not Flink, 4 job not found.')
    .version(appVersion(), '-V, --version', 'the console\'s version')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(false);
  // Only the module of the command that runs is loaded; for the help (or a name that is no command), the table.
  const entry = commandNamed(argv[2] === 'help' ? argv[3] : argv[2]);
  if (entry) {
    (await entry.load())(program);
  } else {
    const terms = new Map(COMMANDS.map((c) => [c.name, c.term]));
    program.configureHelp({ subcommandTerm: (command) => terms.get(command.name()) ?? new Help().subcommandTerm(command) });
    for (const command of COMMANDS) program.command(command.name).description(command.description);
  }
  // No command at all: the help is the answer, on stdout, and that is a success (Commander would call it an error).
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      process.stderr.write(`flink-ops: ${printable(error.message.replace(/^error: /, ''))}\n`);
      return EXIT.badArguments;
    }
    const { code, message } = exitCodeOf(error);
    process.stderr.write(`flink-ops: ${printable(message)}\n`);
    return code;
  }
}

export { CliError };
