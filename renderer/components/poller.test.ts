import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../api/engine-client';
import { Poller, type PollState, type PollerEnv } from './poller';

/** A hand-cranked clock: timers fire only when the test advances time. */
class FakeEnv implements PollerEnv {
  time = 0;
  hidden = false;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;
  private listeners = new Set<() => void>();

  now = (): number => this.time;
  setTimer = (callback: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  };
  clearTimer = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };
  isHidden = (): boolean => this.hidden;
  onVisibilityChange = (callback: () => void): (() => void) => {
    this.listeners.add(callback);
    return () => this.listeners.delete(callback);
  };

  get pendingTimers(): number {
    return this.timers.size;
  }

  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
      await flush();
    }
    this.time = end;
    await flush();
  }

  setHidden(hidden: boolean): void {
    this.hidden = hidden;
    for (const listener of this.listeners) listener();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(intervalMs: number | null = 1000, paused = false) {
  const env = new FakeEnv();
  let calls = 0;
  const states: PollState<number>[] = [];
  const poller = new Poller<number>(
    async () => {
      calls += 1;
      return calls;
    },
    { intervalMs, paused },
    env,
    (s) => states.push(s),
  );
  return { env, poller, states, calls: () => calls };
}

describe('Poller', () => {
  it('fetches at once, then once per interval', async () => {
    const { env, poller, calls } = setup(1000);
    poller.start();
    await flush();
    expect(calls()).toBe(1);
    expect(poller.current.data).toBe(1);
    await env.advance(999);
    expect(calls()).toBe(1);
    await env.advance(1);
    expect(calls()).toBe(2);
    await env.advance(3000);
    expect(calls()).toBe(5);
    poller.stop();
  });

  it('never overlaps calls: a tick during a slow call is skipped', async () => {
    const env = new FakeEnv();
    const pending: Array<ReturnType<typeof deferred<number>>> = [];
    const poller = new Poller<number>(
      () => {
        const d = deferred<number>();
        pending.push(d);
        return d.promise;
      },
      { intervalMs: 1000, paused: false },
      env,
      () => {},
    );
    poller.start();
    await env.advance(3500);
    expect(pending).toHaveLength(1);
    pending[0].resolve(1);
    await flush();
    await env.advance(1000);
    expect(pending).toHaveLength(2);
    poller.stop();
  });

  it('stops polling while hidden and catches up when shown again', async () => {
    const { env, poller, calls } = setup(1000);
    poller.start();
    await flush();
    env.setHidden(true);
    await env.advance(10_000);
    expect(calls()).toBe(1);
    expect(env.pendingTimers).toBe(0);
    env.setHidden(false);
    await flush();
    expect(calls()).toBe(2);
    poller.stop();
  });

  it('does not start while hidden', async () => {
    const { env, poller, calls } = setup(1000);
    env.hidden = true;
    poller.start();
    await env.advance(5000);
    expect(calls()).toBe(0);
    poller.stop();
  });

  it('holds while paused, resumes when unpaused, and still refreshes on demand', async () => {
    const { env, poller, calls } = setup(1000, true);
    poller.start();
    await flush();
    expect(calls()).toBe(1);
    await env.advance(5000);
    expect(calls()).toBe(1);
    poller.refresh();
    await flush();
    expect(calls()).toBe(2);
    // Unpausing right after a manual refresh waits one interval from that refresh.
    poller.update({ intervalMs: 1000, paused: false });
    await env.advance(999);
    expect(calls()).toBe(2);
    await env.advance(1);
    expect(calls()).toBe(3);
    poller.stop();
  });

  it('with no interval fetches once and waits', async () => {
    const { env, poller, calls } = setup(null);
    poller.start();
    await env.advance(60_000);
    expect(calls()).toBe(1);
    poller.update({ intervalMs: 1000, paused: false });
    await env.advance(1000);
    expect(calls()).toBeGreaterThanOrEqual(2);
    poller.stop();
  });

  it('applies a longer interval from the previous start', async () => {
    const { env, poller, calls } = setup(1000);
    poller.start();
    await flush();
    await env.advance(500);
    poller.update({ intervalMs: 5000, paused: false });
    await env.advance(4000);
    expect(calls()).toBe(1);
    await env.advance(500);
    expect(calls()).toBe(2);
    poller.stop();
  });

  it('keeps the last good data and marks it stale when a refresh fails', async () => {
    const env = new FakeEnv();
    let fail = false;
    const poller = new Poller<string>(
      async () => {
        if (fail) throw new EngineCallError({ kind: 'refused', message: 'Connection refused.', endpoint: 'GET /overview' });
        return 'good';
      },
      { intervalMs: 1000, paused: false },
      env,
      () => {},
    );
    poller.start();
    await flush();
    fail = true;
    await env.advance(1000);
    expect(poller.current).toMatchObject({ data: 'good', stale: true, error: { kind: 'refused', endpoint: 'GET /overview' } });
    fail = false;
    await env.advance(1000);
    expect(poller.current).toMatchObject({ data: 'good', stale: false, error: null });
    poller.stop();
  });

  it('halts for good on an error the page says is final', async () => {
    const env = new FakeEnv();
    let calls = 0;
    const poller = new Poller<string>(
      async () => {
        calls += 1;
        throw new EngineCallError({ kind: 'not-found', message: 'Job gone.', status: 404 });
      },
      { intervalMs: 1000, paused: false, stopWhen: (e) => e.kind === 'not-found' },
      env,
      () => {},
    );
    poller.start();
    await env.advance(10_000);
    expect(calls).toBe(1);
    expect(poller.current.halted).toBe(true);
    poller.stop();
  });

  it('ignores answers that arrive after stop()', async () => {
    const env = new FakeEnv();
    const d = deferred<number>();
    const states: PollState<number>[] = [];
    const poller = new Poller<number>(() => d.promise, { intervalMs: 1000, paused: false }, env, (s) => states.push(s));
    poller.start();
    poller.stop();
    const before = states.length;
    d.resolve(42);
    await flush();
    expect(states.length).toBe(before);
    expect(env.pendingTimers).toBe(0);
  });
});
