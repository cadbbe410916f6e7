import { retractConflict, seatedCaller } from "./access";
import { SOLVED } from "./board";
import type { HandlerResult, RefereeState } from "./state";
import type { WriteInput } from "./types";
import { MAX_RETRACT_CELLS } from "./limits";
import { bad, checkCell, checkIntent, normaliseIntent } from "./validate";

type RetractInput = Extract<WriteInput, { type: "retract" }>;

export type RetractIgnoreReason = "duplicate" | "hole" | "unknown" | "given" | "solved" | "other_machine";

/**
 * Withdraw cells this machine committed (SPEC §4.6). Givens, cells of solved tiles and cells
 * committed by other machines stay (ignored with the reason). Retracted cells become unknown;
 * the machine's health is unaffected (a recommitted correct cell does not count again).
 */
export function retract(state: RefereeState, input: RetractInput): HandlerResult {
  const caller = seatedCaller(state, input.machineId, input.agent);
  if (!caller.ok) return caller;
  const { board } = state;
  const cells = input.cells;
  if (!Array.isArray(cells) || cells.length === 0) return { ok: false, error: bad("cells must be a non-empty list of cell ids") };
  if (cells.length > MAX_RETRACT_CELLS) {
    return { ok: false, error: { code: "too_large", message: `a retract carries at most ${MAX_RETRACT_CELLS} cells; this one has ${cells.length}` } };
  }
  for (let i = 0; i < cells.length; i++) {
    const cellError = checkCell(cells[i], board.G, `cells[${i}]`);
    if (cellError) return { ok: false, error: cellError };
  }
  const intent = normaliseIntent(input.intent);
  const intentError = checkIntent(intent);
  if (intentError) return { ok: false, error: intentError };
  const conflict = retractConflict(state, input.expectedRevision, cells, caller.agent);
  if (conflict) return { ok: false, error: conflict };

  const { machine } = caller;
  const retracted: number[] = [];
  const ignored: Array<{ id: number; reason: RetractIgnoreReason; v?: 0 | 1 }> = [];
  const seen = new Set<number>();
  for (const cell of cells) {
    const reason = retractIgnoreReason(state, machine.index, cell, seen);
    seen.add(cell);
    if (reason) {
      // A cell that stays known (a given, in a solved tile, another machine's) carries its value.
      const known = board.known[cell];
      ignored.push(known === -1 ? { id: cell, reason } : { id: cell, reason, v: known as 0 | 1 });
      continue;
    }
    board.clearKnown(cell, caller.agent.index);
    retracted.push(cell);
  }
  machine.retractions += retracted.length;
  const changed = retracted.length > 0;
  const answer = { revision: changed ? state.revision + 1 : state.revision, retracted, ignored };
  if (!changed) return { ok: true, answer, changed: false };
  return { ok: true, answer, changed: true, event: { intent, retracted, ignored: ignored.map((r) => ({ id: r.id, reason: r.reason })) } };
}

function retractIgnoreReason(state: RefereeState, machineIndex: number, cell: number, seen: Set<number>): RetractIgnoreReason | null {
  const { board } = state;
  if (seen.has(cell)) return "duplicate";
  const tiles = board.tilesOf(cell);
  if (tiles.length === 0) return "hole";
  if (board.known[cell] === -1) return "unknown";
  if (board.givenShown[cell]) return "given";
  for (const t of tiles) if (board.status[t] === SOLVED) return "solved";
  if (board.origin[cell] !== machineIndex) return "other_machine";
  return null;
}
