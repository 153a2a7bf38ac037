/**
 * Hash functions Flink uses where an operator can see the result:
 * - `murmurHash`: `org.apache.flink.util.MathUtils#murmurHash(int)`, which spreads a key's hashCode over key groups;
 * - `murmur3x64_128Hex`: Guava's `Hashing.murmur3_128(0).hashString(s, UTF_8)`, which Flink's `StreamGraphHasherV2`
 *   uses to turn an operator `uid` into its operator ID (and so the job vertex ID of the chain it heads).
 */

/** `MathUtils.murmurHash(int)`: MurmurHash3 x86_32 of the int's 4 little-endian bytes, seed 0, made non-negative. */
export function murmurHash(code: number): number {
  let h = Math.imul(code | 0, 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  h = Math.imul(h, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  h ^= 4;
  // fmix32
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  h |= 0;
  if (h >= 0) return h;
  if (h !== -2147483648) return -h;
  return 0;
}

const MASK64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

function rotl64(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK64;
}

function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK64;
  k ^= k >> 33n;
  return k;
}

function readLong(bytes: Uint8Array, at: number, length: number): bigint {
  let v = 0n;
  for (let i = length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]);
  return v;
}

/** MurmurHash3 x64_128 of `bytes` with `seed`, as Guava's `HashCode.asBytes()` (h1 then h2, each little-endian). */
export function murmur3x64_128(bytes: Uint8Array, seed = 0): Uint8Array {
  let h1 = BigInt(seed >>> 0);
  let h2 = h1;
  const blocks = Math.floor(bytes.length / 16);
  for (let i = 0; i < blocks; i++) {
    let k1 = readLong(bytes, i * 16, 8);
    let k2 = readLong(bytes, i * 16 + 8, 8);
    k1 = (k1 * C1) & MASK64;
    k1 = rotl64(k1, 31n);
    k1 = (k1 * C2) & MASK64;
    h1 ^= k1;
    h1 = rotl64(h1, 27n);
    h1 = (h1 + h2) & MASK64;
    h1 = (h1 * 5n + 0x52dce729n) & MASK64;
    k2 = (k2 * C2) & MASK64;
    k2 = rotl64(k2, 33n);
    k2 = (k2 * C1) & MASK64;
    h2 ^= k2;
    h2 = rotl64(h2, 31n);
    h2 = (h2 + h1) & MASK64;
    h2 = (h2 * 5n + 0x38495ab5n) & MASK64;
  }
  const tail = blocks * 16;
  const rest = bytes.length - tail;
  if (rest > 0) {
    let k1 = readLong(bytes, tail, Math.min(rest, 8));
    let k2 = rest > 8 ? readLong(bytes, tail + 8, rest - 8) : 0n;
    if (rest > 8) {
      k2 = (k2 * C2) & MASK64;
      k2 = rotl64(k2, 33n);
      k2 = (k2 * C1) & MASK64;
      h2 ^= k2;
    }
    k1 = (k1 * C1) & MASK64;
    k1 = rotl64(k1, 31n);
    k1 = (k1 * C2) & MASK64;
    h1 ^= k1;
  }
  const len = BigInt(bytes.length);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[i] = Number((h1 >> BigInt(8 * i)) & 0xffn);
    out[8 + i] = Number((h2 >> BigInt(8 * i)) & 0xffn);
  }
  return out;
}

/** Lower-case hex of Guava's `murmur3_128(0).hashString(text, UTF_8)`: Flink's operator ID for a `uid`. */
export function murmur3x64_128Hex(text: string): string {
  return Buffer.from(murmur3x64_128(new TextEncoder().encode(text))).toString('hex');
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** `java.util.zip.CRC32` over the UTF-8 bytes of `text`, as an unsigned value (what `CRC32#getValue()` returns). */
export function crc32Utf8(text: string): number {
  let crc = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      crc = CRC_TABLE[(crc ^ c) & 0xff] ^ (crc >>> 8);
      continue;
    }
    // Not ASCII: fall back to the exact UTF-8 encoding of the rest.
    const bytes = new TextEncoder().encode(text.slice(i));
    for (const b of bytes) crc = CRC_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
    return (crc ^ -1) >>> 0;
  }
  return (crc ^ -1) >>> 0;
}
