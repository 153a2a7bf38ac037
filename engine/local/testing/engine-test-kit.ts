import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalEngineHandle } from '../start-local-engine.ts';

/** Temporary folders for one test file; `removeAll` in its afterAll. */
export function tempDirs(prefix: string): { make(): string; removeAll(): void } {
  const dirs: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One REST call to a running engine, the body parsed when there is one. */
export async function call(handle: LocalEngineHandle, method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${handle.url}${url}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
