import { Command, CommanderError } from 'commander';
import { registerAppCommand } from './app-command.ts';
import { CliError, EXIT, exitCodeOf } from './cli-error.ts';
import { registerClusterCommands } from './cluster-commands.ts';
import { registerEngineCommand } from './engine-command.ts';
import { registerEngineKillTmCommand } from '../local/cli/engine-kill-tm-command.ts';
import { registerOperationCommands } from './operation-commands.ts';

/** Runs `flink-ops` and returns the exit code; errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('flink-ops')
    .description('Flink Ops Console: inspect and operate Apache Flink clusters over their REST API.')
    .addHelpText('after', '\nExit codes: 0 ok, 1 failure, 2 bad arguments, 3 cluster unreachable or not Flink, 4 job not found.')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(false);
  registerClusterCommands(program);
  registerAppCommand(program);
  registerEngineCommand(program);
  registerEngineKillTmCommand(program);
  registerOperationCommands(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      process.stderr.write(`flink-ops: ${error.message.replace(/^error: /, '')}\n`);
      return EXIT.badArguments;
    }
    const { code, message } = exitCodeOf(error);
    process.stderr.write(`flink-ops: ${message}\n`);
    return code;
  }
}

export { CliError };
