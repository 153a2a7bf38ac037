import { describe, expect, it } from 'vitest';
import { bytesInIecUnits } from './format-bytes.ts';

describe('bytesInIecUnits', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023.4, '1023 B'],
    [1536, '1.5 KiB'],
    [1024 * 1024 * 3.2, '3.2 MiB'],
    [1024 * 1024 * 23.4, '23.4 MiB'],
    [1024 * 1024 * 41, '41 MiB'],
    [1024 ** 3 * 512, '512 GiB'],
    [1024 ** 3 * 1023.6, '1 TiB'],
    [1024 ** 5 * 2, '2 PiB'],
  ])('%d bytes read %s', (n, text) => {
    expect(bytesInIecUnits(n)).toBe(text);
  });

  it('has no words for a size that is not one', () => {
    for (const n of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(bytesInIecUnits(n)).toBeNull();
  });
});
