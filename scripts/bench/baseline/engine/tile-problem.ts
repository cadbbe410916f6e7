/** Building solver problems from tile shapes (SPEC §2: lines and their rule-3 groups). */
import { shapeLines } from "./geometry";
import { Problem, type LineSpec } from "./problem";
import type { TileShape } from "./types";

/** Group id of a tile's lines of one orientation and length: rule 3 applies within it. */
export function lineGroup(tileKey: number, orientation: "h" | "v", len: number): number {
  return tileKey * 64 + (orientation === "h" ? 0 : 32) + len;
}

/** The line specs of one tile, cells as global ids. */
export function tileLineSpecs(shape: TileShape, G: number, tileKey: number, search: boolean): LineSpec[] {
  return shapeLines(shape, G).map((line) => ({
    cells: line.cells,
    group: lineGroup(tileKey, line.orientation, line.cells.length),
    search,
  }));
}

/** A single-tile problem whose local cells follow the tile's row-major cell order. */
export function tileProblem(shape: TileShape, G: number): Problem {
  return new Problem(tileLineSpecs(shape, G, 0, true));
}
