import { REDACTED_VALUE, type ConfigEntry } from '../contracts/inspect.ts';

/** Pure: key/value pairs → entries sorted by key, each marked redacted where Flink hid its value. */
export function configEntries(pairs: Iterable<readonly [string, unknown]>): ConfigEntry[] {
  return [...pairs]
    .map(([key, value]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
      return { key, value: text, redacted: text === REDACTED_VALUE };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Pure: a settings object one level deep (`externalization: {enabled}`) → dotted keys (`externalization.enabled`). */
export function flattenSettings(settings: Readonly<Record<string, unknown>>): Array<[string, unknown]> {
  return Object.entries(settings).flatMap(([key, value]): Array<[string, unknown]> =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>).map(([inner, v]) => [`${key}.${inner}`, v])
      : [[key, value]],
  );
}
