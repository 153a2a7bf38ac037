/**
 * A lossless JSON encoding for state values: what `JSON.stringify` drops or mangles is tagged.
 * - `Map` → `{"$map": [[k, v], ...]}` (MapState, window namespaces), `Set` → `{"$set": [...]}`,
 * - `bigint` → `{"$bigint": "123"}`, `NaN`/`±Infinity` → `{"$num": "NaN"}`, `undefined` → `{"$undef": 1}`,
 * - a plain object that itself has a key starting with `$` → `{"$obj": {...}}` so it is never mistaken for a tag.
 * Arrays and other plain objects stay as they are. Class instances other than Map/Set are encoded as plain objects
 * (their prototype is not restored): state values should be plain data, as Flink's serializers require.
 */

type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

export function encodeValue(value: unknown): Encoded {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : { $num: String(value) };
    case 'bigint':
      return { $bigint: value.toString() };
    case 'undefined':
      return { $undef: 1 };
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map(encodeValue);
      if (value instanceof Map) return { $map: [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]) };
      if (value instanceof Set) return { $set: [...value].map(encodeValue) };
      const out: Record<string, Encoded> = {};
      let tagged = false;
      for (const [k, v] of Object.entries(value)) {
        if (k.startsWith('$')) tagged = true;
        out[k] = encodeValue(v);
      }
      return tagged ? { $obj: out } : out;
    }
    default:
      throw new TypeError(`Cannot store a ${typeof value} in a checkpoint: state values must be plain data.`);
  }
}

export function decodeValue(encoded: unknown): unknown {
  if (encoded === null || typeof encoded !== 'object') return encoded;
  if (Array.isArray(encoded)) return encoded.map(decodeValue);
  const o = encoded as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1) {
    switch (keys[0]) {
      case '$map':
        return new Map((o.$map as Array<[unknown, unknown]>).map(([k, v]) => [decodeValue(k), decodeValue(v)]));
      case '$set':
        return new Set((o.$set as unknown[]).map(decodeValue));
      case '$bigint':
        return BigInt(o.$bigint as string);
      case '$num':
        return Number(o.$num);
      case '$undef':
        return undefined;
      case '$obj': {
        const inner = o.$obj as Record<string, unknown>;
        return Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, decodeValue(v)]));
      }
      default:
    }
  }
  return Object.fromEntries(keys.map((k) => [k, decodeValue(o[k])]));
}
