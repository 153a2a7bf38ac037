import { describe, expect, it } from 'vitest';
import { createShortcutMatcher, SEQUENCE_TIMEOUT_MS, type KeyInput } from './shortcuts';

const key = (k: string, timeMs = 0, patch: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  inTextField: false,
  timeMs,
  ...patch,
});

describe('createShortcutMatcher', () => {
  it('matches single keys', () => {
    const match = createShortcutMatcher();
    expect(match(key('/'))).toBe('focus-job-filter');
    expect(match(key('?'))).toBe('show-shortcuts');
    expect(match(key('Escape'))).toBe('close-panel');
    expect(match(key('x'))).toBeNull();
  });

  it('matches g then j within the timeout, and only then', () => {
    const match = createShortcutMatcher();
    expect(match(key('g', 0))).toBeNull();
    expect(match(key('j', 400))).toBe('go-to-jobs');
    expect(match(key('j', 500))).toBeNull();
    expect(match(key('g', 1_000))).toBeNull();
    expect(match(key('j', 1_000 + SEQUENCE_TIMEOUT_MS + 1))).toBeNull();
    expect(match(key('g', 5_000))).toBeNull();
    expect(match(key('x', 5_100))).toBeNull();
    expect(match(key('j', 5_200))).toBeNull();
  });

  it('leaves typing in text fields and browser shortcuts alone', () => {
    const match = createShortcutMatcher();
    expect(match(key('/', 0, { inTextField: true }))).toBeNull();
    expect(match(key('Escape', 0, { inTextField: true }))).toBeNull();
    expect(match(key('/', 0, { ctrlKey: true }))).toBeNull();
    expect(match(key('g', 0))).toBeNull();
    expect(match(key('j', 10, { metaKey: true }))).toBeNull();
    expect(match(key('j', 20))).toBeNull();
  });
});
