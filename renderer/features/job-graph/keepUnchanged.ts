import type { ShipEdgeData } from './ShipEdge';

// What lets a graph refresh that moved nothing leave React Flow alone: an element whose drawing did not change keeps
// its object, and a list whose elements are all kept is kept itself (a new list makes React Flow adopt every element
// again and re-run every element's store selectors). Pure.

/** The list last given to React Flow, and its elements by id. */
export interface Kept<T> {
  list: T[];
  byId: ReadonlyMap<string, T>;
}

/** Whether an edge draws the same: its strategy and its route (the layout's own points). */
export function sameEdgeData(a: ShipEdgeData, b: ShipEdgeData): boolean {
  return a.strategy === b.strategy && a.points === b.points && a.label === b.label;
}

/** Whether a rebuilt list holds the very same elements in the same order: then the previous list is kept as it is. */
export function sameElements<T>(previous: readonly T[], next: readonly T[]): boolean {
  return previous.length === next.length && next.every((element, i) => element === previous[i]);
}
