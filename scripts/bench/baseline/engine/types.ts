/** Shared vocabulary of the engine (SPEC §1). Plain data: serialisable, runtime-neutral. */

/** A rectangle relative to its tile's bounding box: [lx, ly, w, h]. */
export type Rect = [lx: number, ly: number, w: number, h: number];

/** Solutions a tile has from its own givens alone (SPEC §1: 2 when ≤ 64 cells, 3 when ≤ 196, 4 above). */
export type SolutionCount = 2 | 3 | 4;

export type FieldKind = "scatter" | "grid" | "field";

/** Which tile and where: its id and bounding box, the start of every description of a tile. */
export interface TileBox {
  id: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
}

/** A tile's shape: a union of rectangles inside its bounding box at (x0, y0). */
export interface TileShape extends TileBox {
  rects: Rect[];
}

/** A generated tile: its shape, its cell ids, its ambiguity class and its givens. */
export interface Tile extends TileShape {
  /** Global cell ids (y*G+x) covered by the tile, ascending (= row-major over the box). */
  cellIds: number[];
  m: SolutionCount;
  /** Global cell ids of the tile's givens, ascending. */
  givens: number[];
}

/** A whole generated field: geometry plus the hidden true solution. */
export interface Field {
  G: number;
  tiles: Tile[]; // tiles[i].id === i
  /** Value (0/1) of every covered cell, indexed by cell id; holes hold 0. */
  solution: Uint8Array;
}

export function mForCellCount(cells: number): SolutionCount {
  return cells <= 64 ? 2 : cells <= 196 ? 3 : 4;
}
