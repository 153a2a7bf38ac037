import type { z } from 'zod';
import { JournalFilterSchema, OperationRequestSchema, ResubmitPlanRequestSchema } from '../contracts/operations-calls.ts';
import type { JournalFilter, OperationRequest, ResubmitPlanRequest } from '../contracts/operations.ts';
import { EngineError } from '../flink-rest/errors.ts';

/**
 * The operations' requests checked with the schemas the bridge checks them with (contracts/operations-calls.ts), for
 * the engine's own callers: anything else is refused with a sentence that names the field.
 */

function check<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.length ? `\`${issue.path.join('.')}\`` : 'the input';
  throw new EngineError('invalid-input', `${what}: ${field} ${issue.message.replace(/^Invalid input: /, '').toLowerCase()}.`);
}

export function parseOperationRequest(input: unknown): OperationRequest {
  return check(OperationRequestSchema, input, 'Operation request') as OperationRequest;
}

export function parseResubmitPlanRequest(input: unknown): ResubmitPlanRequest {
  return check(ResubmitPlanRequestSchema, input, 'Resubmit plan request');
}

export function parseJournalFilter(input: unknown): JournalFilter {
  return input === undefined || input === null ? {} : check(JournalFilterSchema, input, 'Journal filter');
}
