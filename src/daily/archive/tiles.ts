/**
 * Between the engine's tiles and the archive's: an archive tile from a generated tile (the
 * writer's side) and back (the auditor's side, which rebuilds the referee from the archive).
 */
import { tileGivensString, tileSolutionString } from "../../engine/commitments";
import { shapeCellIds } from "../../engine/geometry";
import type { SolutionCount, Tile } from "../../engine/types";
import type { ArchiveTile, ArchiveTileStatus } from "./format";

/** The archive row of a tile: geometry, cell count, m, the encoding's strings, hash, status and solver. */
export function archiveTileOf(
  tile: Tile,
  solution: Uint8Array,
  G: number,
  hash: string,
  status: ArchiveTileStatus,
  agent: string | null,
): ArchiveTile {
  return {
    id: tile.id,
    x0: tile.x0,
    y0: tile.y0,
    w: tile.w,
    h: tile.h,
    rects: tile.rects.map((r) => [r[0], r[1], r[2], r[3]]),
    cells: tile.cellIds.length,
    m: tile.m,
    solution: tileSolutionString(tile, solution, G),
    givens: tileGivensString(tile, G),
    hash,
    status,
    agent,
  };
}

/**
 * The engine tile an archive row describes, writing its solution into `solution` (indexed by cell
 * id). Throws a RangeError naming the tile when the row does not hold together (strings of the
 * wrong length or alphabet, a shape outside the canvas).
 */
export function engineTileOf(row: ArchiveTile, G: number, solution: Uint8Array): Tile {
  const shape = { id: row.id, x0: row.x0, y0: row.y0, w: row.w, h: row.h, rects: row.rects.map((r) => [r[0], r[1], r[2], r[3]] as [number, number, number, number]) };
  if (row.x0 < 0 || row.y0 < 0 || row.x0 + row.w > G || row.y0 + row.h > G) throw new RangeError(`tile ${row.id}: box outside the ${G}×${G} canvas`);
  const cellIds = shapeCellIds(shape, G);
  if (row.solution.length !== cellIds.length || !/^[01]*$/.test(row.solution)) {
    throw new RangeError(`tile ${row.id}: solution must be ${cellIds.length} characters 0/1`);
  }
  if (row.givens.length !== cellIds.length || !/^[01]*$/.test(row.givens)) {
    throw new RangeError(`tile ${row.id}: givens must be ${cellIds.length} characters 0/1`);
  }
  const givens: number[] = [];
  for (let i = 0; i < cellIds.length; i++) {
    solution[cellIds[i]] = row.solution.charCodeAt(i) - 48;
    if (row.givens[i] === "1") givens.push(cellIds[i]);
  }
  return { ...shape, cellIds, m: row.m as SolutionCount, givens };
}
