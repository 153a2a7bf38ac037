import { describe, expect, it } from 'vitest';
import { KeyPathError, parseKeyPath, readKeyPath } from './key-path.ts';

describe('key paths', () => {
  it('parses fields, nested fields, indexes, a leading $ and quoted names', () => {
    expect(parseKeyPath('tenant_id')).toEqual(['tenant_id']);
    expect(parseKeyPath(' user.id ')).toEqual(['user', 'id']);
    expect(parseKeyPath('items[0].sku')).toEqual(['items', 0, 'sku']);
    expect(parseKeyPath('$.tenant_id')).toEqual(['tenant_id']);
    expect(parseKeyPath('$["odd.name"][2]')).toEqual(['odd.name', 2]);
    expect(parseKeyPath("meta['a b']")).toEqual(['meta', 'a b']);
  });

  it('refuses what it cannot read, saying where', () => {
    expect(() => parseKeyPath('')).toThrow(KeyPathError);
    expect(() => parseKeyPath('a..b')).toThrow(/position 3/);
    expect(() => parseKeyPath('a[x]')).toThrow(/use \[0\]/);
    expect(() => parseKeyPath('$')).toThrow(/names no field/);
  });

  it('reads values and answers undefined for anything missing', () => {
    const record = { tenant_id: 'acme', user: { id: 7 }, items: [{ sku: 'x' }], nothing: null };
    expect(readKeyPath(record, parseKeyPath('tenant_id'))).toBe('acme');
    expect(readKeyPath(record, parseKeyPath('user.id'))).toBe(7);
    expect(readKeyPath(record, parseKeyPath('items[0].sku'))).toBe('x');
    expect(readKeyPath(record, parseKeyPath('items[3].sku'))).toBeUndefined();
    expect(readKeyPath(record, parseKeyPath('nothing.deeper'))).toBeUndefined();
    expect(readKeyPath(record, parseKeyPath('user[0]'))).toBeUndefined();
    expect(readKeyPath('a string', parseKeyPath('length'))).toBeUndefined();
    expect(readKeyPath({}, parseKeyPath('toString'))).toBeUndefined();
  });
});
