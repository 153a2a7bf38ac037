/**
 * Metric values travel as strings made by Java's `String.valueOf`: a `Long` prints as digits, a `Double` always
 * has a fraction (`1000.0`) and switches to `1.0E7` notation outside [1e-3, 1e7). Clients parse these, so the
 * local engine prints them the same way.
 */

export const LONG_MIN_VALUE_STRING = '-9223372036854775808';
export const LONG_MAX_VALUE_STRING = '9223372036854775807';
/** 2^63, exactly representable as a double: the magnitude of Long.MIN_VALUE. */
const TWO_POW_63 = 2 ** 63;

/** `Long.toString` of a whole number; ±Infinity stand for Long.MIN_VALUE / Long.MAX_VALUE (watermarks). */
export function javaLongToString(value: number): string {
  if (value <= -TWO_POW_63) return LONG_MIN_VALUE_STRING;
  if (value >= TWO_POW_63) return LONG_MAX_VALUE_STRING;
  return Math.trunc(value).toString();
}

/** `Double.toString`. */
export function javaDoubleToString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${Number(exponent)}`;
}
