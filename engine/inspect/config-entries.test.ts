import { describe, expect, it } from 'vitest';
import { configEntries, flattenSettings } from './config-entries.ts';

describe('configEntries', () => {
  it('marks the values Flink redacted, and only those', () => {
    const entries = configEntries([
      ['s3.secret-key', '******'],
      ['blob.server.port', '43975'],
      ['note', 'password: ****** (a value that mentions the mask is not redacted)'],
    ]);
    expect(entries).toEqual([
      { key: 'blob.server.port', value: '43975', redacted: false },
      { key: 'note', value: 'password: ****** (a value that mentions the mask is not redacted)', redacted: false },
      { key: 's3.secret-key', value: '******', redacted: true },
    ]);
  });

  it('writes non-text values as JSON', () => {
    expect(configEntries([['interval', 10000], ['enabled', true], ['none', null]]).map((e) => e.value)).toEqual(['true', '10000', 'null']);
  });
});

describe('flattenSettings', () => {
  it('names nested settings with dotted keys, as the checkpoint configuration nests externalization', () => {
    expect(flattenSettings({ interval: 10000, externalization: { enabled: true, delete_on_cancellation: false } })).toEqual([
      ['interval', 10000],
      ['externalization.enabled', true],
      ['externalization.delete_on_cancellation', false],
    ]);
  });
});
