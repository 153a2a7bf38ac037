import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../local/testing/engine-test-kit.ts';
import { appVersion, readBuildIdentity } from './build-identity.ts';

const dirs = tempDirs('build-identity-');
afterAll(() => dirs.removeAll());

function rootWith(buildInfo?: string): string {
  const root = dirs.make();
  if (buildInfo !== undefined) {
    mkdirSync(path.join(root, 'renderer/dist'), { recursive: true });
    writeFileSync(path.join(root, 'renderer/dist/build-info.json'), buildInfo);
  }
  return root;
}

describe('readBuildIdentity', () => {
  it('the app version and the time of the build that wrote renderer/dist/build-info.json', () => {
    expect(readBuildIdentity(rootWith('{"version":"0.1.0","builtAt":"2026-11-30T16:30:19.913Z"}\n'))).toEqual({
      version: appVersion(),
      builtAt: '2026-11-30T16:30:19.913Z',
    });
  });

  it('never built, or a damaged file: no date, and no failure', () => {
    expect(readBuildIdentity(rootWith()).builtAt).toBeNull();
    expect(readBuildIdentity(rootWith('{"builtAt": "yesterday"')).builtAt).toBeNull();
    expect(readBuildIdentity(rootWith('{"builtAt": "not a date"}')).builtAt).toBeNull();
  });
});
