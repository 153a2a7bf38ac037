import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalEngine, type LocalEngineHandle } from '../start-local-engine.ts';
import { ManualClock } from '../time/clock.ts';
import { registerEngineKillTmCommand } from './engine-kill-tm-command.ts';

let handle: LocalEngineHandle;
beforeAll(async () => {
  handle = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), restartStrategy: 'none' });
  handle.engine.advance(2_000);
});
afterAll(() => handle.close());

async function run(args: string[]): Promise<{ out: string; error?: { exitCode: number; message: string } }> {
  const program = new Command('flink-ops').exitOverride();
  registerEngineKillTmCommand(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'flink-ops', 'engine-kill-tm', ...args]);
    return { out };
  } catch (error) {
    return { out, error: error as { exitCode: number; message: string } };
  } finally {
    spy.mockRestore();
  }
}

describe('flink-ops engine-kill-tm', () => {
  it('kills the TaskManager: its job fails over (restart strategy none: FAILED)', async () => {
    const [job] = handle.engine.cluster.jobs.values();
    const tm = handle.engine.cluster.taskManagers.find((t) => t.slots.includes(job.jobId))!;
    const { out, error } = await run(['--url', handle.url, '--tm', tm.id]);
    expect(error).toBeUndefined();
    expect(out).toMatch(new RegExp(`^TaskManager ${tm.id} killed; jobs failing over: ${job.jobId}; a new TaskManager registers at 20`));
    expect(job.status).toBe('FAILED');
  });

  it('says what is wrong: unknown TaskManager, bad URL, nothing listening', async () => {
    expect((await run(['--url', handle.url, '--tm', 'nope'])).error).toMatchObject({ exitCode: 1, message: expect.stringContaining('No TaskManager nope') });
    expect((await run(['--url', 'not a url', '--tm', 'x'])).error).toMatchObject({ exitCode: 2 });
    expect((await run(['--url', 'http://127.0.0.1:1', '--tm', 'x'])).error).toMatchObject({ exitCode: 3, message: expect.stringContaining('Cannot reach the local engine') });
  });
});
