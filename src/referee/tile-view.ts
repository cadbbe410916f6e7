import type { Tile } from "../engine/types";

/**
 * A tile's public geometry as every answer shows it (SPEC §4.7, §6.1: join's seed tile, reveal,
 * observe): box, rectangles, cell count and ambiguity class. Givens and values are not in it.
 */
export function tileGeometry(t: Tile): { x0: number; y0: number; w: number; h: number; rects: Tile["rects"]; cells: number; m: Tile["m"] } {
  return { x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, cells: t.cellIds.length, m: t.m };
}
