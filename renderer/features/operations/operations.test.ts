import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../engine/contracts/operations';
import { joinArguments, newTriggerId, parseHotKeys, splitArguments, summary } from './operations';

describe('operations helpers', () => {
  it('makes 32-hex trigger ids', () => {
    expect(newTriggerId((b) => b.fill(171))).toBe('ab'.repeat(16));
    expect(newTriggerId()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('splits program arguments as a shell would for simple quoting, and joins them back', () => {
    expect(splitArguments('--rate 200  --name "two words" --x \'y z\'')).toEqual(['--rate', '200', '--name', 'two words', '--x', 'y z']);
    expect(joinArguments(['--name', 'two words', '--rate', '200'])).toBe("--name 'two words' --rate 200");
    expect(splitArguments(joinArguments(['a b', 'c']))).toEqual(['a b', 'c']);
  });

  it('reads hot keys one per line and names the line it cannot read', () => {
    expect(parseHotKeys('acme 400\nglobex=12.5\n\n')).toEqual({ keys: [{ key: 'acme', recordsPerSecond: 400 }, { key: 'globex', recordsPerSecond: 12.5 }], errors: [] });
    expect(parseHotKeys('acme\nx 1').errors).toEqual(['Line 1 ("acme"): write the key, then its records per second, e.g. acme 400.']);
  });

  it('summarises an entry by its outcome', () => {
    const base = { state: 'succeeded', resultPath: null, newJobId: null, failure: null, progress: null } as unknown as JournalEntry;
    expect(summary({ ...base, resultPath: 's3://sp/1' })).toBe('s3://sp/1');
    expect(summary({ ...base, resultPath: 's3://sp/1', newJobId: 'b'.repeat(32) })).toBe(`Savepoint s3://sp/1; now runs as job ${'b'.repeat(32)}.`);
    expect(summary({ ...base, state: 'failed', failure: 'The savepoint timed out.' })).toBe('The savepoint timed out.');
    expect(summary({ ...base, state: 'in-progress', progress: 'Savepoint in progress.' })).toBe('Savepoint in progress.');
  });
});
