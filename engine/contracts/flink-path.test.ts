import { describe, expect, it } from 'vitest';
import { flinkSpelling } from './flink-path';

describe('flinkSpelling', () => {
  it('spells a local folder as Flink answers with it: file:/…, whether typed file:/// or file:/', () => {
    expect(flinkSpelling('file:///data/savepoints')).toBe('file:/data/savepoints');
    expect(flinkSpelling('file:/data/savepoints')).toBe('file:/data/savepoints');
    expect(flinkSpelling('  file:///data/savepoints/  ')).toBe('file:/data/savepoints');
  });

  it('as Flink normalises a path: repeated slashes once, no trailing slash (but the root stays)', () => {
    expect(flinkSpelling('file:///data//savepoints///')).toBe('file:/data/savepoints');
    expect(flinkSpelling('s3://bucket/a//b/')).toBe('s3://bucket/a/b');
    expect(flinkSpelling('file:///')).toBe('file:/');
    expect(flinkSpelling('/data/savepoints/')).toBe('/data/savepoints');
  });

  it('keeps an authority, and anything it does not understand, as it is', () => {
    expect(flinkSpelling('hdfs://namenode:8020/flink/savepoints')).toBe('hdfs://namenode:8020/flink/savepoints');
    expect(flinkSpelling('file://host/data')).toBe('file://host/data');
    expect(flinkSpelling('s3://bucket')).toBe('s3://bucket');
    expect(flinkSpelling('')).toBe('');
  });
});
