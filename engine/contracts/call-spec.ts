import { z } from 'zod';

/**
 * How a call's arguments are described at the bridge: each argument by name and schema, in order. Both edges (the
 * preload, and the engine's side of IPC and web mode) check a call against its spec before anything runs, so a
 * malformed call is refused with a sentence naming the call and the argument, not a confusing failure deep inside.
 */

export interface ArgSpec<T> {
  name: string;
  schema: z.ZodType<T>;
  optional: boolean;
}

/** The phantom `args` ties a spec to its method's parameters: the table does not compile if they disagree. */
export interface CallSpec<Args extends unknown[]> {
  readonly args: readonly ArgSpec<unknown>[];
  readonly __args?: Args;
}

export function arg<T>(name: string, schema: z.ZodType<T>): ArgSpec<T> {
  return { name, schema, optional: false };
}

/** May be left out (or sent as null: JSON carries a missing trailing argument so); the method sees undefined. */
export function optionalArg<T>(name: string, schema: z.ZodType<T>): ArgSpec<T | undefined> {
  return { name, schema: schema as z.ZodType<T | undefined>, optional: true };
}

type ArgsOf<A extends readonly ArgSpec<unknown>[]> = { -readonly [K in keyof A]: A[K] extends ArgSpec<infer T> ? T : never };

export function call<const A extends readonly ArgSpec<unknown>[]>(...args: A): CallSpec<ArgsOf<A>> {
  return { args };
}

/** One spec per method of a service's contract. */
export type ServiceCalls<Api> = { [M in keyof Api]: Api[M] extends (...args: infer P) => Promise<unknown> ? CallSpec<P> : never };

/** The arguments as the method gets them, or the sentence that refuses the call. */
export function checkArgs(callName: string, spec: CallSpec<unknown[]>, args: unknown): { ok: true; args: unknown[] } | { ok: false; message: string } {
  if (!Array.isArray(args)) return { ok: false, message: `The arguments of "${callName}" must be a list.` };
  const names = spec.args.map((a) => a.name);
  if (args.length > spec.args.length) {
    const takes = names.length === 0 ? 'no arguments' : `${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')})`;
    return { ok: false, message: `"${callName}" takes ${takes}, not ${args.length}.` };
  }
  const checked: unknown[] = [];
  for (const [i, spec1] of spec.args.entries()) {
    const value: unknown = args[i];
    if (value === undefined || (value === null && spec1.optional)) {
      if (spec1.optional) {
        checked.push(undefined);
        continue;
      }
      return { ok: false, message: `"${callName}" is missing its argument ${spec1.name}.` };
    }
    const parsed = spec1.schema.safeParse(value);
    if (!parsed.success) return { ok: false, message: `"${callName}", argument ${spec1.name}: ${describeIssue(parsed.error.issues[0])}.` };
    checked.push(parsed.data);
  }
  // Trailing optional arguments left out (or null) stay out: the method's defaults apply.
  while (checked.length > 0 && checked[checked.length - 1] === undefined) checked.pop();
  return { ok: true, args: checked };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? `\`${issue.path.map(String).join('.')}\` ` : '';
  return `${field}${issue.message.replace(/^Invalid input: /, '')}`;
}
