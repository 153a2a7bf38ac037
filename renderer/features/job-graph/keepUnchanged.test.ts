import { describe, expect, it } from 'vitest';
import { sameEdgeData, sameElements } from './keepUnchanged';
import type { ShipEdgeData } from './ShipEdge';

const route = [
  { x: 0, y: 0 },
  { x: 10, y: 0 },
];
const edge = (over: Partial<ShipEdgeData> = {}): ShipEdgeData => ({ strategy: 'HASH', points: route, label: null, ...over });

describe('sameEdgeData', () => {
  it('is true for an edge rebuilt from the same layout', () => {
    expect(sameEdgeData(edge(), edge())).toBe(true);
  });

  it('is false when the strategy or the route changes', () => {
    expect(sameEdgeData(edge(), edge({ strategy: 'FORWARD' }))).toBe(false);
    // Another layout's route, even with the same points: the route object is the layout's.
    expect(sameEdgeData(edge(), edge({ points: [...route] }))).toBe(false);
    expect(sameEdgeData(edge(), edge({ label: { x: 5, y: 0 } }))).toBe(false);
  });
});

describe('sameElements', () => {
  const a = { id: 'a' };
  const b = { id: 'b' };
  it('is true when every element is the one the previous list had, in its place', () => {
    expect(sameElements([a, b], [a, b])).toBe(true);
    expect(sameElements([], [])).toBe(true);
  });

  it('is false for a new element, another order or another length', () => {
    expect(sameElements([a, b], [a, { id: 'b' }])).toBe(false);
    expect(sameElements([a, b], [b, a])).toBe(false);
    expect(sameElements([a, b], [a])).toBe(false);
    expect(sameElements([a], [a, b])).toBe(false);
  });
});
