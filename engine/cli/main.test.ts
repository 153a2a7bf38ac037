import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.ts';

describe('flink-ops with no command', () => {
  it('prints the help on stdout and exits 0, with nothing on stderr', { timeout: 60_000 }, async () => {
    const result = await runCli([]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: flink-ops \[options\] \[command\]\n/);
    for (const command of ['clusters', 'jobs', 'graph', 'exceptions', 'app', 'engine']) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Exit codes: /);
  });
});

describe('flink-ops --version', () => {
  it('prints the version of package.json and exits 0', { timeout: 60_000 }, async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
