/**
 * A path into a JSON value, the way operators name a key field: `tenant_id`, `user.id`, `items[0].sku`, `$.tenant_id`,
 * `["odd.name"]`. Parsed once, then applied to every record.
 */
export type KeyPath = ReadonlyArray<string | number>;

export class KeyPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyPathError';
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*/;

/** Parses a key path; throws {@link KeyPathError} with the position of what it cannot read. */
export function parseKeyPath(text: string): KeyPath {
  const source = text.trim();
  if (source === '') throw new KeyPathError('The key path is empty: name a field of the JSON value, e.g. tenant_id.');
  let rest = source.startsWith('$') ? source.slice(1) : source;
  const steps: Array<string | number> = [];
  let first = !source.startsWith('$');
  while (rest.length > 0) {
    const at = source.length - rest.length;
    if (rest.startsWith('[')) {
      const index = /^\[(\d+)\]/.exec(rest);
      const quoted = /^\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\]/.exec(rest);
      if (index) {
        steps.push(Number(index[1]));
        rest = rest.slice(index[0].length);
      } else if (quoted) {
        const raw = quoted[1];
        steps.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.slice(1, -1).replace(/\\(.)/g, '$1'));
        rest = rest.slice(quoted[0].length);
      } else {
        throw new KeyPathError(`Key path "${source}": cannot read "${rest}" at position ${at + 1} (use [0] or ["name"]).`);
      }
    } else {
      if (!first) {
        if (!rest.startsWith('.')) throw new KeyPathError(`Key path "${source}": expected "." or "[" at position ${at + 1}.`);
        rest = rest.slice(1);
      }
      const name = IDENTIFIER.exec(rest);
      if (!name) throw new KeyPathError(`Key path "${source}": expected a field name at position ${source.length - rest.length + 1}.`);
      steps.push(name[0]);
      rest = rest.slice(name[0].length);
    }
    first = false;
  }
  if (steps.length === 0) throw new KeyPathError(`Key path "${source}" names no field.`);
  return steps;
}

/** The value at `path` in `value`, or undefined when a step is missing. */
export function readKeyPath(value: unknown, path: KeyPath): unknown {
  let current: unknown = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (Array.isArray(current) || !Object.prototype.hasOwnProperty.call(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}
