import type { ErrorKind } from '../contracts/errors.ts';
import { EngineError } from '../flink-rest/engine-error.ts';

/** The CLI's exit codes, documented in `flink-ops --help`. */
export const EXIT = {
  failure: 1,
  badArguments: 2,
  clusterUnavailable: 3,
  jobNotFound: 4,
} as const;

const UNAVAILABLE: ErrorKind[] = [
  'dns', 'refused', 'tls', 'timeout', 'not-flink', 'unauthorized', 'forbidden',
  'server-error', 'malformed-response', 'unexpected-response', 'network', 'unsupported-version',
  'redirect-refused',
];

export class CliError extends Error {
  constructor(readonly exitCode: number, message: string) {
    super(message);
  }
}

/** One readable line and an exit code for anything thrown by a command. */
export function exitCodeOf(error: unknown): { code: number; message: string } {
  if (error instanceof CliError) return { code: error.exitCode, message: error.message };
  if (error instanceof EngineError) {
    const { kind, message } = error.info;
    if (kind === 'invalid-url' || kind === 'invalid-input') return { code: EXIT.badArguments, message };
    if (UNAVAILABLE.includes(kind)) return { code: EXIT.clusterUnavailable, message };
    return { code: EXIT.failure, message };
  }
  return { code: EXIT.failure, message: error instanceof Error ? error.message : String(error) };
}
