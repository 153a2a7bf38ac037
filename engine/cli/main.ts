import { Command, CommanderError } from 'commander';
import { appVersion } from '../app/build-identity.ts';
import { registerAppCommand } from './app-command.ts';
import { registerApplicationCommands } from './application-commands.ts';
import { registerCheckpointsCommand } from './checkpoints-command.ts';
import { registerConfigCommand } from './config-command.ts';
import { CliError, EXIT, exitCodeOf } from './cli-error.ts';
import { registerClusterCommands } from './cluster-commands.ts';
import { registerEngineCommand } from './engine-command.ts';
import { printable } from './terminal-text.ts';
import { registerEngineKillTmCommand } from '../local/cli/engine-kill-tm-command.ts';
import { registerKafkaCommands } from './kafka-commands.ts';
import { registerProduceCommand } from '../local/cli/produce-command.ts';
import { registerDiagnoseCommand } from './diagnose-command.ts';
import { registerOperationCommands } from './operation-commands.ts';
import { registerReportCommands } from './report-command.ts';
import { registerOpenBundleCommand } from './open-bundle-command.ts';
import { registerStateCommand } from './state-command.ts';

/** Runs `flink-ops` and returns the exit code; errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('flink-ops')
    .description('Flink Ops Console: inspect and operate Apache Flink clusters over their REST API.')
    .addHelpText('after', '\nExit codes: 0 ok, 1 failure, 2 bad arguments, 3 cluster unreachable or not Flink, 4 job not found.')
    .version(appVersion(), '-V, --version', 'the console\'s version')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(false);
  registerClusterCommands(program);
  registerApplicationCommands(program);
  registerAppCommand(program);
  registerEngineCommand(program);
  registerEngineKillTmCommand(program);
  registerKafkaCommands(program);
  registerProduceCommand(program);
  registerCheckpointsCommand(program);
  registerConfigCommand(program);
  registerDiagnoseCommand(program);
  registerStateCommand(program);
  registerOperationCommands(program);
  registerReportCommands(program);
  registerOpenBundleCommand(program);
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
