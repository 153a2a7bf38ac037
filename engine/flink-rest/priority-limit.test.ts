import { describe, expect, it } from 'vitest';
import { PriorityLimit, type RequestPriority } from './priority-limit.ts';

/** A task that runs until released by the test: the order tasks start in is the order of `started`. */
function harness(limit: PriorityLimit) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const submit = (name: string, priority: RequestPriority) =>
    limit.run(priority, () => {
      started.push(name);
      return new Promise<string>((resolve) => release.set(name, () => resolve(name)));
    });
  const finish = async (name: string) => {
    release.get(name)!();
    // Let the finished task's slot pass to the next one.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { started, submit, finish };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('PriorityLimit', () => {
  it('sends a page request before every background request still waiting, and never exceeds its slots', async () => {
    const limit = new PriorityLimit(4);
    const { started, submit, finish } = harness(limit);
    for (let i = 0; i < 10; i++) void submit(`bg${i}`, 'background');
    await settle();
    // Background work leaves one slot for a page.
    expect(started).toEqual(['bg0', 'bg1', 'bg2']);
    void submit('page0', 'page');
    void submit('page1', 'page');
    await settle();
    expect(started).toEqual(['bg0', 'bg1', 'bg2', 'page0']);
    await finish('bg0');
    // The freed slot goes to the waiting page request, not to bg3.
    expect(started.at(-1)).toBe('page1');
    expect(limit.pending.active).toBe(4);
    await finish('page0');
    await finish('page1');
    // Back to background work, which again leaves one slot free.
    expect(started).toEqual(['bg0', 'bg1', 'bg2', 'page0', 'page1', 'bg3']);
    expect(limit.pending).toEqual({ active: 3, page: 0, background: 6 });
  });

  it('runs page requests in the order they came, all slots theirs', async () => {
    const limit = new PriorityLimit(2);
    const { started, submit, finish } = harness(limit);
    for (let i = 0; i < 4; i++) void submit(`p${i}`, 'page');
    await settle();
    expect(started).toEqual(['p0', 'p1']);
    await finish('p1');
    expect(started).toEqual(['p0', 'p1', 'p2']);
    await finish('p0');
    expect(started).toEqual(['p0', 'p1', 'p2', 'p3']);
  });

  it('with one slot, background work waits for an idle moment, and a failure frees its slot', async () => {
    const limit = new PriorityLimit(1);
    const failing = limit.run('background', () => Promise.reject(new Error('500')));
    await expect(failing).rejects.toThrow('500');
    const { started, submit, finish } = harness(limit);
    void submit('bg', 'background');
    void submit('page', 'page');
    await settle();
    expect(started).toEqual(['bg']);
    await finish('bg');
    expect(started).toEqual(['bg', 'page']);
    expect(limit.pending).toEqual({ active: 1, page: 0, background: 0 });
  });
});
