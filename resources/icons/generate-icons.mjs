#!/usr/bin/env node
// Renders resources/icons/icon.svg into every icon the installers need (`npm run icons`):
//   png/<n>x<n>.png  Linux (AppImage, deb) and the window icon, 16 to 1024 px
//   icon.icns        macOS (dmg), from the 1024 px rendering
//   icon.ico         Windows (nsis), 16 to 256 px
// The outputs are committed; edit the SVG, run this, commit both.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';

const dir = path.dirname(fileURLToPath(import.meta.url));
const svg = readFileSync(path.join(dir, 'icon.svg'));
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

/** The SVG at `size` px square, as PNG bytes. */
function render(size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

mkdirSync(path.join(dir, 'png'), { recursive: true });
const pngs = new Map(PNG_SIZES.map((size) => [size, render(size)]));
for (const [size, png] of pngs) writeFileSync(path.join(dir, 'png', `${size}x${size}.png`), png);

png2icons.setLogger(() => undefined);
const icns = png2icons.createICNS(pngs.get(1024), png2icons.BICUBIC, 0);
// PNG-compressed entries, sized for Windows executables (16-256 px).
const ico = png2icons.createICO(pngs.get(1024), png2icons.BICUBIC, 0, true, true);
if (!icns || !ico) {
  console.error('png2icons could not convert the 1024 px rendering.');
  process.exit(1);
}
writeFileSync(path.join(dir, 'icon.icns'), icns);
writeFileSync(path.join(dir, 'icon.ico'), ico);
