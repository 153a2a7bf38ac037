import { describe, expect, it } from 'vitest';
import themeCss from './theme.css?raw';
import { readPreference, resolveTheme } from './theme';

/** The custom properties of one rule of theme.css, by its selector. */
function tokens(selector: string): Record<string, string> {
  const start = themeCss.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`theme.css has no rule "${selector}"`);
  const body = themeCss.slice(start, themeCss.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

const dark = tokens(':root');
const light = { ...dark, ...tokens(":root[data-theme='light']") };

type Rgba = [number, number, number, number];

function parseColor(value: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16)).concat(1) as Rgba;
  const rgba = /^rgba?\(([^)]+)\)$/.exec(value);
  if (rgba) {
    const [r, g, b, a = '1'] = rgba[1].split(',').map((p) => p.trim());
    return [Number(r), Number(g), Number(b), Number(a)];
  }
  throw new Error(`Not a colour: ${value}`);
}

/** A translucent colour as drawn on its background. */
function over([r, g, b, a]: Rgba, [br, bg, bb]: Rgba): Rgba {
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio of a foreground on a background. */
function contrast(theme: Record<string, string>, fg: string, bg: string): number {
  const background = parseColor(theme[bg] ?? bg);
  const foreground = over(parseColor(theme[fg] ?? fg), background);
  const [l1, l2] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (l1 + 0.05) / (l2 + 0.05);
}

/** Text: WCAG AA 4.5:1. */
const TEXT: Array<[string, string]> = [
  ['--text', '--bg'],
  ['--text', '--bg-panel'],
  ['--text', '--bg-raised'],
  ['--text', '--bg-hover'],
  ['--text', '--bg-input'],
  ['--text', '--button-bg'],
  ['--text', '--topbar-bg'],
  ['--text', '--confirm-bg'],
  ['--text', '--toast-bg'],
  ['--text-muted', '--bg'],
  ['--text-muted', '--bg-panel'],
  ['--text-muted', '--topbar-bg'],
  ['--accent', '--bg'],
  ['--accent', '--bg-panel'],
  ['--on-accent', '--accent-strong'],
  ['--on-accent', '--accent-strong-hover'],
  ['--on-accent', '--danger-strong'],
  ['--text-danger', '--bg-panel'],
  ['--text-danger-strong', '--bg-panel'],
  ['--text-warn', '--bg-panel'],
  ['--ok', '--bg-panel'],
  ['--warn', '--bg-panel'],
  ['--danger', '--bg-panel'],
  ['--running', '--bg-panel'],
  ['--finished', '--bg-panel'],
  ['--cancelled', '--bg-panel'],
  ['--failed', '--bg-panel'],
  ['--pending', '--bg-panel'],
  ['--edge-label-text', '--edge-label-bg'],
  ['--edge-label-hash', '--edge-label-bg'],
  ['--edge-label-rescale', '--edge-label-bg'],
  ['--edge-label-broadcast', '--edge-label-bg'],
  ['--graph-attribution', '--graph-bg'],
  ['--chart-axis', '--bg-panel'],
];

/** Lines, shapes and marks that carry meaning: WCAG 1.4.11, 3:1. */
const GRAPHICS: Array<[string, string]> = [
  ['--graph-edge', '--graph-bg'],
  ['--vertex-selected-ring', '--graph-bg'],
  ['--accent', '--bg-input'],
  ['--chart-1', '--bg-panel'],
  ['--chart-2', '--bg-panel'],
  ['--chart-3', '--bg-panel'],
  ['--chart-4', '--bg-panel'],
  ['--chart-5', '--bg-panel'],
  ['--heatmap-high', '--heatmap-low'],
];

describe.each([
  ['dark', dark],
  ['light', light],
])('the %s theme', (_name, theme) => {
  it.each(TEXT)('%s on %s is readable text (≥ 4.5:1)', (fg, bg) => {
    expect(contrast(theme, fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(GRAPHICS)('%s on %s stands out (≥ 3:1)', (fg, bg) => {
    expect(contrast(theme, fg, bg)).toBeGreaterThanOrEqual(3);
  });

  it('badge text stays readable on its tinted background', () => {
    // .badge--<state>: the state colour at 10-12% over the panel, text in the state colour.
    for (const state of ['--running', '--finished', '--cancelled', '--failed', '--pending', '--warn']) {
      const tint = parseColor(theme[state]);
      tint[3] = 0.12;
      const badge = over(tint, parseColor(theme['--bg-panel']));
      const ratio = contrast({ ...theme, badge: `rgba(${badge.slice(0, 3).join(', ')}, 1)` }, state, 'badge');
      expect(ratio, state).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('both themes', () => {
  it('define the same tokens, so no colour falls back to the dark one by accident', () => {
    expect(Object.keys(tokens(":root[data-theme='light']")).sort()).toEqual(Object.keys(dark).sort());
  });
});

describe('resolveTheme', () => {
  it('follows the system unless the user chose', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('reads only a known stored choice', () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(readPreference(storage('light'))).toBe('light');
    expect(readPreference(storage('purple'))).toBe('system');
    expect(readPreference(storage(null))).toBe('system');
    expect(readPreference({ getItem: () => { throw new Error('denied'); } })).toBe('system');
  });
});
