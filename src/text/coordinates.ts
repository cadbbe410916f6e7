// Cells named by their coordinates (SPEC §6 "What a model reads"): a model without code never
// converts a flat id (y*G + x) itself. Pure: the referee's messages and the tools' texts share it.

/** "(12,7)": a cell id named by its coordinates on a board of side G. */
export function xy(id: number, G: number): string {
  return `(${id % G},${Math.floor(id / G)})`;
}

/** "(12,7)=1". */
export function xyv(id: number, v: number, G: number): string {
  return `${xy(id, G)}=${v}`;
}

/** "cell (3,4)", "cells (3,4), (5,6) and 2 more". */
export function namedCells(ids: readonly number[], G: number, max = 12): string {
  const shown = ids.slice(0, max).map((c) => xy(c, G)).join(", ");
  const more = ids.length > max ? ` and ${ids.length - max} more` : "";
  return `cell${ids.length === 1 ? "" : "s"} ${shown}${more}`;
}
