import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../components/format';
import { notRunningNotice } from './notRunning';

describe('notRunningNotice', () => {
  const end = 1_767_225_612_000;

  it('says nothing about a running job', () => {
    expect(notRunningNotice('RUNNING', null)).toBeNull();
  });

  it('a failed job: its state and when, no rates, and where to read why', () => {
    expect(notRunningNotice('FAILED', end)).toEqual({
      headline: `This job FAILED at ${formatTimestamp(end)}.`,
      detail: 'It processes nothing any more: the graph shows no rates.',
      seeExceptions: true,
    });
  });

  it.each([
    ['CANCELED', `This job was CANCELED at ${formatTimestamp(end)}.`, false],
    ['FINISHED', `This job FINISHED at ${formatTimestamp(end)}.`, false],
  ] as const)('%s', (state, headline, seeExceptions) => {
    expect(notRunningNotice(state, end)).toMatchObject({ headline, seeExceptions });
  });

  it('a restarting job: no rates until it runs, and the exceptions say why', () => {
    expect(notRunningNotice('RESTARTING', null)).toEqual({
      headline: 'This job is RESTARTING.',
      detail: 'It processes nothing now: the graph shows no rates until it runs.',
      seeExceptions: true,
    });
    expect(notRunningNotice('INITIALIZING', null)).toMatchObject({ headline: 'This job is INITIALIZING.', seeExceptions: false });
  });
});
