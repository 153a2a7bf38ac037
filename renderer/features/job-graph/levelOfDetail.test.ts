import { describe, expect, it } from 'vitest';
import { detailLevel, EDGE_LABELS_ZOOM, FIGURES_ZOOM, FOCUS_ZOOM, NAME_ZOOM, showsCallout, showsEdgeLabels } from './levelOfDetail';
import { READABLE_ZOOM, START_ZOOM } from './viewport';

describe('level of detail', () => {
  it('shows only the colour when a 200-vertex job is fitted, the name further in, the figures when readable', () => {
    // 200 vertices in 20 layers of 10 fit a 1,000 px canvas at about 0.14.
    expect(detailLevel(0.14)).toBe('colour');
    expect(detailLevel(NAME_ZOOM)).toBe('name');
    expect(detailLevel(0.4)).toBe('name');
    expect(detailLevel(FIGURES_ZOOM - 0.001)).toBe('name');
    expect(detailLevel(FIGURES_ZOOM)).toBe('figures');
    expect(detailLevel(2.5)).toBe('figures');
  });

  it('never takes detail away as the user zooms in', () => {
    const order = ['colour', 'name', 'figures'];
    let previous = -1;
    for (let zoom = 0.05; zoom <= 2.5; zoom += 0.01) {
      const rank = order.indexOf(detailLevel(zoom));
      expect(rank).toBeGreaterThanOrEqual(previous);
      previous = rank;
    }
  });

  it('opens a large graph, and zooms to a vertex, with the figures shown', () => {
    expect(detailLevel(START_ZOOM)).toBe('figures');
    expect(detailLevel(FOCUS_ZOOM)).toBe('figures');
    // A graph fitted at the readable zoom still shows names.
    expect(detailLevel(READABLE_ZOOM)).not.toBe('colour');
  });

  it('labels the edges only once they can be read, and never before the names', () => {
    expect(showsEdgeLabels(EDGE_LABELS_ZOOM - 0.01)).toBe(false);
    expect(showsEdgeLabels(EDGE_LABELS_ZOOM)).toBe(true);
    expect(EDGE_LABELS_ZOOM).toBeGreaterThan(NAME_ZOOM);
  });

  it('calls out the marked vertex only while its own figures are not shown', () => {
    expect(showsCallout('colour')).toBe(true);
    expect(showsCallout('name')).toBe(true);
    expect(showsCallout('figures')).toBe(false);
  });
});
