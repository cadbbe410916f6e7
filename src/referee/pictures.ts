import { drawTile } from "../text/tile-picture";
import type { Board } from "./board";

/**
 * A tile's picture as answers carry it (SPEC §6 "What a model reads"): its cells, the values known
 * now (`values: false` draws the shape only, as join does for a hidden seed) and the cells it shares
 * with another tile. `sharedWith` decides which covering tiles count (under fog, only those the
 * caller may see), so the marks never show a tile the caller cannot.
 */
export function tilePicture(board: Board, tileId: number, values: boolean, sharedWith: (tile: number) => boolean = () => true): string {
  const t = board.tiles[tileId];
  const G = board.G;
  return drawTile(
    t,
    (x, y) => (values ? (board.known[y * G + x] as -1 | 0 | 1) : -1),
    (x, y) => board.tilesOf(y * G + x).some((o) => o !== tileId && sharedWith(o)),
  );
}

/** Pictures keyed by tile id, the `pictures` field of reveal, join and observe. */
export function picturesOf(board: Board, tileIds: readonly number[], values: boolean, sharedWith?: (tile: number) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of tileIds) out[String(id)] = tilePicture(board, id, values, sharedWith);
  return out;
}
