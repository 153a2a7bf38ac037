/**
 * The Java `hashCode` of the key types the local engine supports, bit for bit, because Flink places a key by its
 * Java hash (`KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism)` calls `key.hashCode()`).
 */

/**
 * `java.lang.String#hashCode`: `h = 31·h + c` over the UTF-16 code units, in signed 32-bit arithmetic.
 * JS strings are already UTF-16 code units, so characters outside the BMP count as two units, exactly as in Java.
 */
export function javaStringHashCode(value: string): number {
  let h = 0;
  for (let i = 0; i < value.length; i++) {
    h = (Math.imul(31, h) + value.charCodeAt(i)) | 0;
  }
  return h;
}

/** `java.lang.Integer#hashCode`: the value itself. Throws for a number that is not a Java int. */
export function javaIntHashCode(value: number): number {
  if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
    throw new RangeError(`${value} is not a Java int (a whole number in [-2^31, 2^31-1]).`);
  }
  return value | 0;
}

/** `java.lang.Long#hashCode`: `(int) (v ^ (v >>> 32))`. */
export function javaLongHashCode(value: bigint): number {
  const v = BigInt.asUintN(64, value);
  return Number(BigInt.asIntN(32, (v ^ (v >> 32n)) & 0xffffffffn));
}

/** `java.lang.Boolean#hashCode`: 1231 for true, 1237 for false. */
export function javaBooleanHashCode(value: boolean): number {
  return value ? 1231 : 1237;
}

/** A key the engine can place: what a `KeySelector` of a built-in job returns. */
export type JavaKey = string | number | bigint | boolean;

/**
 * The Java hash of a key as Flink would compute it for the equivalent boxed Java type:
 * `string` → String, `number` → Integer (must be a Java int), `bigint` → Long, `boolean` → Boolean.
 */
export function javaHashCode(key: JavaKey): number {
  switch (typeof key) {
    case 'string':
      return javaStringHashCode(key);
    case 'number':
      return javaIntHashCode(key);
    case 'bigint':
      return javaLongHashCode(key);
    case 'boolean':
      return javaBooleanHashCode(key);
    default:
      throw new TypeError(`Unsupported key type ${typeof key}: a key must be a string, an int, a bigint or a boolean.`);
  }
}
