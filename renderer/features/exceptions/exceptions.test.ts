import { describe, expect, it } from 'vitest';
import { shortClassName } from './exceptions';

describe('shortClassName', () => {
  it.each([
    ['org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException', 'ResourceManagerException'],
    ['org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException', 'RemoteTransportException'],
    ['java.lang.RuntimeException', 'RuntimeException'],
    ['Outer$Inner', 'Outer$Inner'],
    ['weird.', 'weird.'],
  ])('%s → %s', (full, short) => expect(shortClassName(full)).toBe(short));
});
