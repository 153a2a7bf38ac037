import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../testing/engine-test-kit.ts';
import { startLocalEngine, type LocalEngineHandle, type StartLocalEngineOptions } from '../start-local-engine.ts';
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
  it('kills the TaskManager and says the job fails for good (restart strategy none: FAILED)', async () => {
    const [job] = handle.engine.cluster.jobs.values();
    const tm = handle.engine.cluster.taskManagers.find((t) => t.slots.includes(job.jobId))!;
    const { out, error } = await run(['--url', handle.url, '--tm', tm.id]);
    expect(error).toBeUndefined();
    expect(out).toMatch(
      new RegExp(
        `^TaskManager ${tm.id} killed\\. Job gatewaymeter \\(${job.jobId}\\) fails for good: its restart strategy is none \\(restart deactivated\\)\\. ` +
          'A new TaskManager registers at 20\\d\\d-',
      ),
    );
    expect(job.status).toBe('FAILED');
  });

  it('says what is wrong: unknown TaskManager, bad URL, nothing listening', async () => {
    expect((await run(['--url', handle.url, '--tm', 'nope'])).error).toMatchObject({ exitCode: 1, message: expect.stringContaining('No TaskManager nope') });
    expect((await run(['--url', 'not a url', '--tm', 'x'])).error).toMatchObject({ exitCode: 2 });
    expect((await run(['--url', 'http://127.0.0.1:1', '--tm', 'x'])).error).toMatchObject({ exitCode: 3, message: expect.stringContaining('Cannot reach the local engine') });
  });
});

describe('flink-ops engine-kill-tm: the message follows the job\'s restart strategy, read from its configuration', { timeout: 60_000 }, () => {
  const dirs = tempDirs('kill-tm-');
  afterAll(() => dirs.removeAll());

  it.each<[string, () => StartLocalEngineOptions, RegExp, string]>([
    ['fixed-delay', () => ({ restartStrategy: 'fixed-delay', restartAttempts: 3, restartDelayMs: 1500 }), /restarts in 1\.5 s \(fixed-delay, restart 1 of 3\)/, 'RESTARTING'],
    ['checkpoints, no strategy set (exponential-delay, as Flink 2.x)', () => ({ checkpointDir: dirs.make() }), /restarts in about 1 s \(exponential-delay: 1 s at first, ×1\.5 per failure, at most 1 min\)/, 'RESTARTING'],
    ['fixed-delay, no restarts left', () => ({ restartStrategy: 'fixed-delay', restartAttempts: 0 }), /fails for good: all 0 restarts of its strategy are used/, 'FAILED'],
  ])('%s', async (_name, options, says, state) => {
    const engine = await startLocalEngine({ port: 0, time: 'manual', clock: new ManualClock(1_767_225_600_000), ...options() });
    try {
      engine.engine.advance(2_000);
      const [job] = engine.engine.cluster.jobs.values();
      const tm = engine.engine.cluster.taskManagers.find((t) => t.slots.includes(job.jobId))!;
      const { out, error } = await run(['--url', engine.url, '--tm', tm.id]);
      expect(error).toBeUndefined();
      expect(out).toMatch(says);
      expect(job.status).toBe(state);
    } finally {
      await engine.close();
    }
  });
});
