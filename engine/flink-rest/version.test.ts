import { describe, expect, it } from 'vitest';
import { isSupportedVersion, parseFlinkVersion } from './version.ts';

describe('Flink versions', () => {
  it('parses release and snapshot versions', () => {
    expect(parseFlinkVersion('2.2.1')).toMatchObject({ major: 2, minor: 2, patch: 1 });
    expect(parseFlinkVersion('1.20-SNAPSHOT')).toMatchObject({ major: 1, minor: 20, patch: 0 });
    expect(parseFlinkVersion('<unknown>')).toBeNull();
  });

  it('supports 1.18 through 2.x', () => {
    const supported = (v: string) => isSupportedVersion(parseFlinkVersion(v));
    expect(['1.18.1', '1.19.0', '1.20.5', '2.0.0', '2.2.1', '2.3.0'].map(supported)).toEqual([true, true, true, true, true, true]);
    expect(['1.17.2', '3.0.0', 'x'].map(supported)).toEqual([false, false, false]);
  });
});
