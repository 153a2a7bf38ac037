import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test helpers: the real Flink 2.2.1 bodies in this folder, and a key-order-aware comparison. */

const HERE = path.dirname(fileURLToPath(import.meta.url));

export function realBody<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(path.join(HERE, 'real-2.2.1', file), 'utf8')) as T;
}

export function recordedBody<T = unknown>(version: '2.3.0' | '2.2.1' | '1.20.3', file: string): T {
  return JSON.parse(readFileSync(path.resolve(HERE, '../../../../e2e/flink/recorded', version, file), 'utf8')) as T;
}

/** Every key path of a JSON value in document order (`a.b`, `a.list[0].c`), to compare field order too. */
export function keyPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...keyPaths(v, `${at}.${k}`)]);
}

/** The value as it crosses the wire (JSON round trip). */
export function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
