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
