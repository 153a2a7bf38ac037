/**
 * Deterministic pseudo-random numbers for everything the engine generates from a seed (traffic, ids in tests).
 * `mulberry32`: a small, fast 32-bit generator; good enough for simulation, not for cryptography.
 */
export type Random = () => number;

/** A generator of floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed derived from a base seed and a label (stream per source subtask, per purpose). */
export function deriveSeed(seed: number, label: string): number {
  let h = seed | 0;
  for (let i = 0; i < label.length; i++) h = (Math.imul(h ^ label.charCodeAt(i), 0x5bd1e995) + 0x9e3779b9) | 0;
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
}

/** An int in [min, max] (inclusive). */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** A UUID v4 string from the generator (deterministic for a seed). */
export function randomUuid(random: Random): string {
  const hex = (n: number, width: number) => Math.floor(n).toString(16).padStart(width, '0');
  const a = hex(random() * 0x100000000, 8);
  const b = hex(random() * 0x10000, 4);
  const c = hex(0x4000 | (random() * 0x1000), 4);
  const d = hex(0x8000 | (random() * 0x4000), 4);
  const e = hex(random() * 0x1000000, 6) + hex(random() * 0x1000000, 6);
  return `${a}-${b}-${c}-${d}-${e}`;
}
