import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../local/time/random.ts';
import { assignKeyToParallelOperator } from './key-group-range-assignment.ts';
import { murmur3x64_128Hex } from './murmur.ts';

/**
 * Key-group placement parity with the REAL Flink of `npm run flink:up`: a tiny Java program calls
 * `KeyGroupRangeAssignment.assignKeyToParallelOperator(key, 128, p)` from Flink's own jars for 1,000 seeded random
 * keys, and Guava's murmur3_128 (Flink's uid → operator ID hash) for the built-in jobs' uids.
 * Run by `npm run test:flink`, not by the unit tests.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const VERSION = process.env.FLINK_VERSION ?? '2.2.1';
const LIB = path.join(ROOT, `.cache/flink/${VERSION}/py/pyflink/lib`);
const PARALLELISMS = [1, 3, 4, 32];
const UIDS = ['gateway-events', 'parse', 'assemble', 'tenant-cost', 'tenant-cost-partial', 'late-parts', 'usd-sink', ''];

/** 1,000 keys from a fixed seed: ASCII ids, UUID-like, non-Latin, astral (surrogate pairs), empty and long strings. */
export function parityKeys(seed = 20240601, count = 1000): string[] {
  const random = mulberry32(seed);
  const pick = (chars: string) => chars[Math.floor(random() * chars.length)];
  const keys = ['', 'hello', 'user-42', 'flink', '😀', 'acme', 'polygenelubricants'];
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz0123456789-_#',
    '0123456789abcdef',
    'äöüßéèñçøåæ漢字かなカナ한국어',
  ];
  while (keys.length < count) {
    const kind = Math.floor(random() * 5);
    const length = kind === 4 ? 64 + Math.floor(random() * 200) : 1 + Math.floor(random() * 40);
    let key = '';
    for (let i = 0; i < length; i++) {
      if (kind === 3 && random() < 0.3) key += String.fromCodePoint(0x1f300 + Math.floor(random() * 0x300));
      else key += pick(alphabets[kind % alphabets.length]);
    }
    keys.push(key);
  }
  return keys;
}

let work: string;
let lines: string[] = [];

beforeAll(() => {
  if (!existsSync(LIB) || !readdirSync(LIB).some((f) => f.startsWith('flink-dist'))) {
    throw new Error(`The real Flink ${VERSION} is not provisioned (${LIB} has no flink-dist jar): run \`npm run flink:up\` first.`);
  }
  work = mkdtempSync(path.join(os.tmpdir(), 'kg-parity-'));
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  writeFileSync(path.join(work, 'keys.txt'), parityKeys().map(b64).join('\n') + '\n');
  writeFileSync(path.join(work, 'uids.txt'), UIDS.map(b64).join('\n') + '\n');
  const classpath = `${path.join(LIB, '*')}`;
  execFileSync('javac', ['-d', work, '-cp', classpath, path.join(HERE, 'KeyGroupParity.java')], { stdio: 'pipe' });
  const output = execFileSync(
    'java',
    ['-cp', `${work}${path.delimiter}${classpath}`, 'KeyGroupParity', path.join(work, 'keys.txt'), PARALLELISMS.join(','), path.join(work, 'uids.txt')],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  lines = output.trim().split('\n');
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`key-group placement equals the real Flink ${VERSION}'s`, () => {
  it('for 1,000 random keys at parallelisms 1, 3, 4 and 32 (max parallelism 128)', () => {
    const keys = parityKeys();
    const flink = lines.filter((l) => l.startsWith('K ')).map((l) => l.slice(2).split(',').map(Number));
    expect(flink).toHaveLength(keys.length);
    const mismatches: string[] = [];
    keys.forEach((key, i) => {
      PARALLELISMS.forEach((p, j) => {
        const ours = assignKeyToParallelOperator(key, 128, p);
        if (ours !== flink[i][j]) mismatches.push(`${JSON.stringify(key)} @p=${p}: flink ${flink[i][j]}, ours ${ours}`);
      });
    });
    expect(mismatches).toEqual([]);
  });

  it("gives every operator uid the same ID as Flink's murmur3_128 (so vertex IDs match a real cluster)", () => {
    const flink = lines.filter((l) => l.startsWith('U ')).map((l) => l.slice(2));
    expect(flink).toEqual(UIDS.map((uid) => murmur3x64_128Hex(uid)));
  });
});
