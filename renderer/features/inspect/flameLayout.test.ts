import { describe, expect, it } from 'vitest';
import { flameBars } from './flameLayout';

const ROOT = {
  name: 'root',
  value: 100,
  children: [
    {
      name: 'Thread.run',
      value: 100,
      children: [
        { name: 'Throttle.map', value: 70, children: [{ name: 'Thread.sleep', value: 60, children: [] }] },
        { name: 'RecordWriter.emit', value: 30, children: [{ name: 'Throttle.map', value: 10, children: [] }] },
      ],
    },
  ],
};

describe('flameBars', () => {
  it('lays callees under their caller, as wide as their samples', () => {
    const { bars } = flameBars(ROOT, '0', '');
    expect(bars.map((b) => [b.path, b.depth, b.x, b.width])).toEqual([
      ['0', 0, 0, 1],
      ['0.0', 1, 0, 1],
      ['0.0.0', 2, 0, 0.7],
      ['0.0.1', 2, 0.7, 0.3],
      ['0.0.0.0', 3, 0, 0.6],
      ['0.0.1.0', 3, 0.7, 0.1],
    ]);
  });

  it('zooms on a frame: its ancestors full width above, its callees spread over the row', () => {
    const { bars, focus } = flameBars(ROOT, '0.0.1', '');
    expect(focus.name).toBe('RecordWriter.emit');
    expect(bars.map((b) => [b.name, b.depth, b.x, Number(b.width.toFixed(3))])).toEqual([
      ['root', 0, 0, 1],
      ['Thread.run', 1, 0, 1],
      ['RecordWriter.emit', 2, 0, 1],
      ['Throttle.map', 3, 0, 0.333],
    ]);
  });

  it('marks the frames a search finds and counts their samples once', () => {
    const { bars, matchedSamples } = flameBars(ROOT, '0', 'throttle');
    expect(bars.filter((b) => b.matched).map((b) => b.path)).toEqual(['0.0.0', '0.0.1.0']);
    expect(matchedSamples).toBe(80);
  });

  it('counts the search over the whole graph, whatever the zoom', () => {
    expect(flameBars(ROOT, '0.0.1', 'throttle').matchedSamples).toBe(80);
    expect(flameBars(ROOT, '0.0.1', '').matchedSamples).toBe(0);
  });

  it('falls back to the nearest frame that exists for a path from another graph', () => {
    expect(flameBars(ROOT, '0.0.7.3', '').focus.name).toBe('Thread.run');
  });
});
