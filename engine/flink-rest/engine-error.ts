import type { ErrorInfo, ErrorKind } from '../contracts/errors.ts';

/** Every failure the engine reports: a kind the UI can branch on and one sentence a person can act on. */
export class EngineError extends Error {
  readonly info: ErrorInfo;

  constructor(kind: ErrorKind, message: string, details: { endpoint?: string; status?: number; field?: string } = {}) {
    super(message);
    this.name = 'EngineError';
    this.info = { kind, message, ...details };
  }
}
