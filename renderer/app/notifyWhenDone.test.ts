import { describe, expect, it } from 'vitest';
import { notifyWhenDone, type NotifyDeps } from './notifyWhenDone';

function fakes(options: { background: boolean; systemShows: boolean | 'throws' }) {
  const notified: Array<{ title: string; body?: string }> = [];
  const toasts: Array<{ tone: string; title: string; body?: string }> = [];
  const deps: NotifyDeps = {
    inBackground: () => options.background,
    shell: {
      notify: async (request) => {
        if (options.systemShows === 'throws') throw new Error('no notification daemon');
        notified.push(request);
        return options.systemShows;
      },
    },
    toast: (toast) => toasts.push(toast),
  };
  return { deps, notified, toasts };
}

describe('notifyWhenDone', () => {
  it('uses a system notification while the console is in the background', async () => {
    const { deps, notified, toasts } = fakes({ background: true, systemShows: true });
    await expect(notifyWhenDone(Promise.resolve(3), 'Export of subtasks', { describe: (n) => `${n} rows` }, deps)).resolves.toBe(3);
    expect(notified).toEqual([{ title: 'Export of subtasks finished', body: '3 rows' }]);
    expect(toasts).toEqual([]);
  });

  it('shows a toast in the foreground', async () => {
    const { deps, notified, toasts } = fakes({ background: false, systemShows: true });
    await notifyWhenDone(Promise.resolve('ok'), 'Savepoint', {}, deps);
    expect(notified).toEqual([]);
    expect(toasts).toEqual([{ tone: 'success', title: 'Savepoint finished', body: undefined }]);
  });

  it('falls back to a toast when the system shows none (web mode without permission, no daemon)', async () => {
    for (const systemShows of [false, 'throws'] as const) {
      const { deps, toasts } = fakes({ background: true, systemShows });
      await notifyWhenDone(Promise.resolve(1), 'Rescale', {}, deps);
      expect(toasts.map((t) => t.title)).toEqual(['Rescale finished']);
    }
  });

  it('reports a failure with the engine\'s message and passes the rejection on', async () => {
    const { deps, notified } = fakes({ background: true, systemShows: true });
    const failure = new Error('Savepoint declined: the job is not running.');
    await expect(notifyWhenDone(Promise.reject(failure), 'Savepoint', {}, deps)).rejects.toBe(failure);
    expect(notified).toEqual([{ title: 'Savepoint failed', body: 'Savepoint declined: the job is not running.' }]);
  });
});
