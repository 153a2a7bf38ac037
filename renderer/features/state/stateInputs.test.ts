import { describe, expect, it } from 'vitest';
import { parseCapacity, parseKeyCount } from './stateInputs';

describe('parseCapacity', () => {
  it('reads IEC and SI sizes and bare bytes; empty is not set', () => {
    expect(parseCapacity('8GiB')).toEqual({ ok: true, value: 8 * 1024 ** 3 });
    expect(parseCapacity(' 500 MiB ')).toEqual({ ok: true, value: 500 * 1024 ** 2 });
    expect(parseCapacity('1.5GB')).toEqual({ ok: true, value: 1.5e9 });
    expect(parseCapacity('1048576')).toEqual({ ok: true, value: 1048576 });
    expect(parseCapacity('  ')).toEqual({ ok: true, value: null });
  });

  it('says why a size cannot be read', () => {
    for (const raw of ['8 apples', '-1GiB', '0', 'GiB', '1e3']) {
      const parsed = parseCapacity(raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain(`not "${raw.trim()}"`);
    }
  });
});

describe('parseKeyCount', () => {
  it('reads whole numbers with separators; empty is not set', () => {
    expect(parseKeyCount('2000000')).toEqual({ ok: true, value: 2_000_000 });
    expect(parseKeyCount('2,000,000')).toEqual({ ok: true, value: 2_000_000 });
    expect(parseKeyCount('2_000')).toEqual({ ok: true, value: 2_000 });
    expect(parseKeyCount('')).toEqual({ ok: true, value: null });
  });

  it('refuses fractions, zero, negatives and words', () => {
    for (const raw of ['1.5', '0', '-3', 'many', ',']) expect(parseKeyCount(raw).ok, raw).toBe(false);
  });
});
