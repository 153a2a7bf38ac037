import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEEP_LINK_SCHEME } from '../engine/contracts/deep-link.ts';
import { INCIDENT_BUNDLE } from '../engine/contracts/incident-bundle.ts';
import config, { APP_MAIN } from './electron-builder.config.ts';

/**
 * The installers' configuration, checked without Electron: every target, every icon each needs, the
 * link scheme and the incident bundle's file association. The packaged app's contents are checked by
 * electron/packaging.package.test.ts (`npm run test:package`, after a build).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const file = (relative: string) => readFileSync(path.join(ROOT, relative));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  it('builds AppImage and deb for Linux, dmg for macOS, nsis for Windows', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('runs the bundled main, and registers the link scheme and the incident bundle', () => {
    expect(config.extraMetadata).toEqual({ main: APP_MAIN });
    expect(config.protocols).toEqual([expect.objectContaining({ schemes: [DEEP_LINK_SCHEME] })]);
    expect(config.fileAssociations).toEqual([
      expect.objectContaining({ ext: INCIDENT_BUNDLE.extension, mimeType: INCIDENT_BUNDLE.mimeType, name: INCIDENT_BUNDLE.description }),
    ]);
  });

  it('never rebuilds native modules (none ship) and closes the Electron fuses it can', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.electronFuses).toMatchObject({
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
  });

  it('has a Linux icon at every size from 16 to 1024 px, square, named as electron-builder expects', () => {
    const dir = config.linux!.icon!;
    const sizes = readdirSync(path.join(ROOT, dir))
      .map((name) => {
        const { width, height } = pngSize(file(path.join(dir, name)));
        expect(name).toBe(`${width}x${height}.png`);
        expect(width).toBe(height);
        return width;
      })
      .sort((a, b) => a - b);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024]);
  });

  it('has a Windows .ico with the sizes Explorer and the installer use (16-256 px)', () => {
    const ico = file(config.win!.icon!);
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    // Each directory entry: width at 0 (0 means 256), height at 1.
    const sizes = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256).sort((a, b) => a - b);
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 256]));
  });

  it('has a macOS .icns up to 1024 px (Retina 512@2x)', () => {
    const icns = file(config.mac!.icon!);
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) types.push(icns.subarray(at, at + 4).toString('latin1'));
    // ic10: 1024 px (512@2x), ic09: 512, ic08: 256, ic07: 128, and the small ones.
    expect(types).toEqual(expect.arrayContaining(['ic10', 'ic09', 'ic08', 'ic07']));
  });

  it('takes every icon from the one SVG (the script that renders them is committed beside it)', () => {
    expect(file('resources/icons/icon.svg').toString()).toContain('<svg');
    expect(file('resources/icons/generate-icons.mjs').toString()).toContain('icon.svg');
  });
});
