import { describe, expect, it, vi } from 'vitest';
import { shellEventHub } from './shell-events.ts';

describe('shellEventHub', () => {
  it('keeps events that arrive before the page subscribes, and hands them over', () => {
    const hub = shellEventHub();
    hub.receive({ type: 'open-link', hash: '#/cluster/prod/job/x' });
    const listener = vi.fn();
    hub.subscribe(listener);
    hub.receive({ type: 'refresh-data' });
    expect(listener.mock.calls).toEqual([[{ type: 'open-link', hash: '#/cluster/prod/job/x' }], [{ type: 'refresh-data' }]]);
  });

  it('passes only the contract\'s event shapes', () => {
    const hub = shellEventHub();
    const listener = vi.fn();
    hub.subscribe(listener);
    for (const bad of [null, 'refresh-data', { type: 'open-link' }, { type: 'open-link', hash: 7 }, { type: 'eval', code: 'x' }]) hub.receive(bad);
    expect(listener).not.toHaveBeenCalled();
  });

  it('stops delivering after unsubscribe', () => {
    const hub = shellEventHub();
    const listener = vi.fn();
    const unsubscribe = hub.subscribe(listener);
    unsubscribe();
    hub.receive({ type: 'refresh-data' });
    expect(listener).not.toHaveBeenCalled();
  });
});
