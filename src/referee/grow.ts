import type { Tile } from "../engine/types";
import { SOLVED } from "./board";
import type { RefereeState } from "./state";
import type { RefereeError } from "./types";
import { bad, isNonNegInt } from "./validate";

export interface GrowInput {
  /** Ring index (1, 2, …), recorded in the event so an auditor can regenerate it. */
  ring: number;
  /** New tiles, ids continuing after the current last one. */
  tiles: Tile[];
  /** The solution of the whole field including the new tiles' cells (existing cells unchanged). */
  solution: Uint8Array;
}

/**
 * Growth (SPEC §5): new tiles join the board. A new tile that shares a cell with a tile some
 * group solved is on that group's frontier at once (SPEC §4.2). A solved field plays on.
 */
export function grow(state: RefereeState, input: GrowInput): { ok: true; event: Record<string, unknown> } | { ok: false; error: RefereeError } {
  const { board, groups } = state;
  if (!isNonNegInt(input?.ring)) return { ok: false, error: bad("ring must be a non-negative integer") };
  if (!Array.isArray(input.tiles)) return { ok: false, error: bad("tiles must be a list") };
  if (!(input.solution instanceof Uint8Array) || input.solution.length !== board.G * board.G) {
    return { ok: false, error: bad(`solution must be a Uint8Array of ${board.G * board.G} cells`) };
  }
  const first = board.tileCount;
  for (let i = 0; i < input.tiles.length; i++) {
    const t = input.tiles[i];
    if (t?.id !== first + i) return { ok: false, error: bad(`new tile ${i} must have id ${first + i}`) };
    if (!Array.isArray(t.cellIds) || t.cellIds.some((c) => !board.inField(c))) return { ok: false, error: bad(`tile ${t.id} has a cell outside the field`) };
  }
  board.addTiles(input.tiles, input.solution);
  for (let id = first; id < board.tileCount; id++) {
    for (const n of board.neighbours(id)) {
      if (board.status[n] === SOLVED) groups.group(board.solver[n]).frontier.add(id);
    }
  }
  if (input.tiles.length > 0 && state.status === "solved") state.status = "playing";
  state.grown++;
  return { ok: true, event: { ring: input.ring, first_tile: first, tiles: input.tiles.length } };
}
