import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flink-ops.mjs');

describe('flink-ops with no command', () => {
  it('prints the help on stdout and exits 0, with nothing on stderr', { timeout: 60_000 }, async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN], { timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: flink-ops \[options\] \[command\]\n/);
    for (const command of ['clusters', 'jobs', 'graph', 'exceptions', 'app', 'engine']) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Exit codes: /);
  });
});
