import { describe, expect, it } from 'vitest';
import type { ShellEvent } from '../../engine/contracts/shell-api.ts';
import { shellEventQueue } from './shell-event-queue.ts';

describe('shellEventQueue', () => {
  it('holds events while the page loads and delivers them in order once it has', () => {
    const delivered: ShellEvent[] = [];
    const queue = shellEventQueue((e) => delivered.push(e));
    queue.send({ type: 'open-link', hash: '#/cluster/a/job/x' });
    queue.send({ type: 'refresh-data' });
    expect(delivered).toEqual([]);
    queue.pageReady();
    expect(delivered).toEqual([{ type: 'open-link', hash: '#/cluster/a/job/x' }, { type: 'refresh-data' }]);
    queue.send({ type: 'show-shortcuts' });
    expect(delivered).toHaveLength(3);
    queue.pageGone();
    queue.send({ type: 'refresh-data' });
    expect(delivered).toHaveLength(3);
  });

  it('keeps only the latest events of a page that never loads', () => {
    const delivered: ShellEvent[] = [];
    const queue = shellEventQueue((e) => delivered.push(e));
    for (let i = 0; i < 100; i++) queue.send({ type: 'open-link', hash: `#${i}` });
    queue.pageReady();
    expect(delivered).toHaveLength(20);
    expect(delivered.at(-1)).toEqual({ type: 'open-link', hash: '#99' });
  });
});
