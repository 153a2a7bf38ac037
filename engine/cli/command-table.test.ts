import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './command-table.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

/** The repository's files the CLI resolved running `args`, relative to the root (node_modules by package name). */
async function modulesLoaded(args: string[]): Promise<{ engine: string[]; packages: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flink-ops-modules-'));
  try {
    const out = path.join(dir, 'loaded.txt');
    await promisify(execFile)(process.execPath, [path.join(HERE, 'testing/modules-loaded.mjs'), out, ...args], { timeout: 60_000 });
    const files = [...new Set(readFileSync(out, 'utf8').trim().split('\n').map((url) => path.relative(ROOT, fileURLToPath(url))))];
    return {
      engine: files.filter((f) => !f.startsWith('node_modules/')).sort(),
      packages: [...new Set(files.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/').slice(1, f.split('/')[1].startsWith('@') ? 3 : 2).join('/')))].sort(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the command table', () => {
  it('lists every command its modules define, with the description and the term the module gives it', async () => {
    const defined = new Map<string, Command>();
    for (const load of new Set(COMMANDS.map((c) => c.load))) {
      const program = new Command('flink-ops');
      (await load())(program);
      for (const command of program.commands) defined.set(command.name(), command);
    }
    expect([...defined.keys()].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const entry of COMMANDS) {
      const command = defined.get(entry.name)!;
      expect({ name: entry.name, description: entry.description, term: entry.term }).toEqual({ name: entry.name, description: command.description(), term: new Help().subcommandTerm(command) });
    }
  }, 60_000);
});

describe('flink-ops loads only the command that runs', () => {
  it('--help loads the table, not one command module', async () => {
    const { engine, packages } = await modulesLoaded(['--help']);
    expect(engine).toEqual([
      'engine/app/build-identity.ts',
      'engine/cli/cli-error.ts',
      'engine/cli/command-table.ts',
      'engine/cli/main.ts',
      'engine/cli/terminal-text.ts',
      'engine/flink-rest/engine-error.ts',
      'engine/project-root.ts',
    ]);
    expect(packages).toEqual(['commander']);
  }, 60_000);

  it('jobs loads the REST client and the cluster list, not the local engine, Kafka, LMDB, the web server or the reports', async () => {
    const { engine, packages } = await modulesLoaded(['jobs', '--help']);
    expect(engine.filter((f) => /^engine\/(local|history|exports|app\/web-server|operations)\//.test(f))).toEqual([]);
    expect(packages).toContain('axios');
    for (const heavy of ['lmdb', 'kafkajs', 'express', 'yaml']) expect(packages).not.toContain(heavy);
  }, 60_000);
});
