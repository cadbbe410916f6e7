import { HIDDEN, STATUS_NAMES } from "./board";
import type { DeltaKnown } from "./delta";
import type { RefereeState } from "./state";
import { tileGeometry } from "./tile-view";

export interface PublicTile {
  id: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects: ReadonlyArray<readonly [number, number, number, number]>;
  cells: number;
  m: number;
  status: "hidden" | "revealed" | "solved";
  /** The agent who solved it, or null. */
  agent: string | null;
}

export interface PublicTilesView {
  /** The rectangle clipped to the field. */
  rect: [number, number, number, number];
  tiles: PublicTile[];
  /** Known cells inside the rectangle, delta-coded like observe's (sorted ids as gaps, values). */
  known: DeltaKnown;
}

/**
 * What anyone may see of a rectangle (SPEC §10, the spectator's and the public API's view):
 * the tiles meeting it, each with its status and solver, and the known cells inside it. Under fog a hidden tile is listed only once some group has reached it (a seat's seed,
 * or overlapping a revealed or solved tile); without fog every tile's geometry is public.
 * Givens and values of hidden tiles never appear. Cost follows the rectangle, not the field.
 */
export function publicTiles(state: RefereeState, x: number, y: number, w: number, h: number): PublicTilesView {
  const { board, seats, rules } = state;
  const cx = Math.max(0, Math.min(x, board.G));
  const cy = Math.max(0, Math.min(y, board.G));
  const cw = Math.max(0, Math.min(w, board.G - cx));
  const ch = Math.max(0, Math.min(h, board.G - cy));
  const inRect = cw === 0 || ch === 0 ? [] : board.spatial.query(cx, cy, cw, ch).filter((t) => shapeMeets(board.tiles[t], cx, cy, cw, ch));
  let listed = inRect;
  if (rules.fog) {
    const seeds = new Set<number>();
    for (const a of seats.agents) if (a.seed !== null) seeds.add(a.seed as number);
    listed = inRect.filter((t) => board.status[t] !== HIDDEN || seeds.has(t) || board.neighbours(t).some((n) => board.status[n] !== HIDDEN));
  }
  const tiles = listed.map((id): PublicTile => {
    const solver = board.solver[id];
    return { id, ...tileGeometry(board.tiles[id]), status: STATUS_NAMES[board.status[id]], agent: solver >= 0 ? seats.agents[solver].id : null };
  });
  return { rect: [cx, cy, cw, ch], tiles, known: knownInRect(board.known, board.G, cx, cy, cw, ch) };
}

/**
 * The known cells of a rectangle, delta-coded, in one row-major pass (ids come out sorted). Every
 * known cell lies in a revealed tile (givens of revealed tiles, accepted commits), so all are public.
 */
function knownInRect(known: Int8Array, G: number, x: number, y: number, w: number, h: number): DeltaKnown {
  const gaps: number[] = [];
  const values: string[] = [];
  let prev = 0;
  for (let row = y; row < y + h; row++) {
    const start = row * G + x;
    for (let c = start; c < start + w; c++) {
      const v = known[c];
      if (v === -1) continue;
      gaps.push(c - prev);
      prev = c;
      values.push(v === 1 ? "1" : "0");
    }
  }
  return { gaps, values: values.join("") };
}

/** Does one of the tile's rectangles share a cell with the rectangle at (x, y) of size w × h? */
function shapeMeets(tile: { x0: number; y0: number; rects: ReadonlyArray<readonly [number, number, number, number]> }, x: number, y: number, w: number, h: number): boolean {
  return tile.rects.some(([lx, ly, rw, rh]) => {
    const ax = tile.x0 + lx;
    const ay = tile.y0 + ly;
    return ax < x + w && x < ax + rw && ay < y + h && y < ay + rh;
  });
}
