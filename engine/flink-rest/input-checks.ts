import { EngineError } from './errors.ts';

/**
 * What a service checks of its arguments beyond their types (the bridge checks those): the meaning, with a sentence
 * the operator can act on. The CLI and tests call the services directly, so these hold without the bridge too.
 */

/** Flink ids are 32 hex characters; anything else would only produce a confusing 404. */
export function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{32}$/.test(value)) {
    throw new EngineError('invalid-input', `"${String(value)}" is not a Flink ${what} id (32 hex characters).`);
  }
  return value;
}

export function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new EngineError('invalid-input', `The ${what} is missing.`);
  return value;
}

export function requireWhole(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EngineError('invalid-input', `The ${what} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return value;
}
