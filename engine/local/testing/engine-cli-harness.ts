/**
 * `flink-ops engine` as the CLI runs it (commander + the CLI's error handling), for tests that start the engine in
 * its own process. Usage: node --import tsx engine/local/testing/engine-cli-harness.ts engine [options].
 */
import { Command, CommanderError } from 'commander';
import { exitCodeOf } from '../../cli/cli-error.ts';
import { registerEngineCommand } from '../../cli/engine-command.ts';

const program = new Command('flink-ops').exitOverride().configureOutput({ outputError: () => {} });
registerEngineCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.stderr.write(`flink-ops: ${error.message.replace(/^error: /, '')}\n`);
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const { code, message } = exitCodeOf(error);
    process.stderr.write(`flink-ops: ${message}\n`);
    process.exitCode = code;
  }
}
