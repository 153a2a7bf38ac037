import type { ErrorInfo } from '../../engine/contracts/errors';
import { EngineCallError } from '../api/engine-client';

/** Any thrown value as the engine's ErrorInfo, so every banner reads the same way. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof EngineCallError) return error.info;
  if (isErrorInfoCarrier(error)) return error.info;
  const message = error instanceof Error && error.message ? error.message : String(error);
  return { kind: 'internal', message: message || 'Something went wrong in the console.' };
}

function isErrorInfoCarrier(error: unknown): error is { info: ErrorInfo } {
  if (typeof error !== 'object' || error === null || !('info' in error)) return false;
  const info = (error as { info: unknown }).info;
  return typeof info === 'object' && info !== null && 'kind' in info && 'message' in info;
}

export function isNotFound(error: ErrorInfo | null | undefined): boolean {
  return error?.kind === 'not-found' || error?.status === 404;
}
