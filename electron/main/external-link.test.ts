import { describe, expect, it } from 'vitest';
import { toExternalLink } from './external-link.ts';

describe('toExternalLink', () => {
  it('passes plain http(s) links', () => {
    expect(toExternalLink('https://flink.example:8081/#/job/abc/overview')).toBe('https://flink.example:8081/#/job/abc/overview');
    expect(toExternalLink('http://127.0.0.1:8081')).toBe('http://127.0.0.1:8081/');
  });

  it('drops other schemes, credentials and garbage', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-settings:',
      'https://user:secret@flink.example/',
      'https://user@flink.example/',
      'not a url',
      '',
    ]) {
      expect(toExternalLink(url), url).toBeNull();
    }
  });
});
