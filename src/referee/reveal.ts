import { revisionCheck, seatedCaller } from "./access";
import { HIDDEN, REVEALED, SOLVED } from "./board";
import { solveTile, type Meet } from "./solve";
import type { HandlerResult, RefereeState } from "./state";
import { tileGeometry } from "./tile-view";
import { picturesOf } from "./pictures";
import type { RefereeError, WriteInput } from "./types";
import { bad, checkExpectedRevision, checkIntent, isNonNegInt, normaliseIntent } from "./validate";
import { idList } from "../text/wording";

type RevealInput = Extract<WriteInput, { type: "reveal" }>;

/**
 * Reveal a tile on the caller's frontier (SPEC §4.3): its givens become known; every revealed
 * tile whose cells are then all known is solved, credited to the revealer.
 *
 * A tile that is already revealed (on the caller's frontier) or solved (in its group's territory)
 * is answered as a read: givens and seam, `changed: false`, never a conflict (SPEC §4.9). The
 * reveal of a hidden tile conflicts only when `expected_revision` is ahead of the field.
 */
export function reveal(state: RefereeState, input: RevealInput): HandlerResult {
  const caller = seatedCaller(state, input.machineId, input.agent);
  if (!caller.ok) return caller;
  const intent = normaliseIntent(input.intent);
  const intentError = checkIntent(intent);
  if (intentError) return { ok: false, error: intentError };
  const { board, groups } = state;
  const tile = input.tile;
  if (!isNonNegInt(tile) || tile >= board.tileCount) {
    return { ok: false, error: bad(`tile must be a tile id in 0..${board.tileCount - 1}, got ${String(tile)}`) };
  }
  const badRevision = checkExpectedRevision(input.expectedRevision);
  if (badRevision) return { ok: false, error: badRevision };
  const { agent } = caller;
  if (board.status[tile] !== HIDDEN) return rereveal(state, tile, agent.index);
  const conflict = revisionCheck(state, input.expectedRevision);
  if (conflict) return { ok: false, error: conflict };
  if (!groups.onFrontier(agent.index, tile)) return { ok: false, error: offFrontier(state, tile, agent.index) };

  board.reveal(tile, agent.index);
  const solved: number[] = [];
  const meets: Meet[] = [];
  let reward = 0;
  // The tile itself first (its seam may have held every cell), then others its givens completed.
  const candidates = [tile];
  for (const cell of board.tiles[tile].givens) for (const t of board.completedAt(cell)) if (t !== tile) candidates.push(t);
  for (const t of candidates) {
    if (board.status[t] !== REVEALED || board.unknown[t] !== 0) continue;
    solved.push(t);
    reward += board.tiles[t].cellIds.length;
    meets.push(...solveTile(state, t, agent));
  }
  const rev = state.revision + 1;
  return {
    ok: true,
    answer: revealAnswer(state, tile, solved, meets, reward, rev, agent.index),
    changed: true,
    // The givens ride in the public event: a spectator (live or replaying the archive) learns
    // the newly known cells from the log alone, without the tile's secret solution.
    event: { intent, tile, givens: board.tiles[tile].givens.map((c) => [c, board.solution[c]]), solved, meets, reward },
  };
}

/**
 * A tile that is no longer hidden: a read when it is revealed on the caller's frontier or solved
 * in its group's territory; otherwise `solved` (another group solved it) or `off_frontier`.
 */
function rereveal(state: RefereeState, tile: number, agentIndex: number): HandlerResult {
  const { board, groups } = state;
  if (board.status[tile] === SOLVED) {
    if (groups.find(board.solver[tile]) === groups.find(agentIndex)) {
      return { ok: true, answer: revealAnswer(state, tile, [], [], 0, state.revision, agentIndex), changed: false };
    }
    return {
      ok: false,
      error: { code: "solved", message: `tile ${tile} is already solved by another group; its cells are known (observe it); reveal a tile on your frontier` },
    };
  }
  if (groups.onFrontier(agentIndex, tile)) {
    return { ok: true, answer: revealAnswer(state, tile, [], [], 0, state.revision, agentIndex), changed: false };
  }
  return { ok: false, error: offFrontier(state, tile, agentIndex) };
}

function offFrontier(state: RefereeState, tile: number, agentIndex: number): RefereeError {
  const frontier = state.groups.frontierOf(agentIndex);
  return { code: "off_frontier", message: `tile ${tile} is not on your group's frontier (frontier: ${frontier.length ? idList(frontier, 20) : "empty"})` };
}

function revealAnswer(
  state: RefereeState,
  tileId: number,
  solved: number[],
  meets: Meet[],
  reward: number,
  revision: number,
  agentIndex: number,
): Record<string, unknown> {
  const { board } = state;
  const t = board.tiles[tileId];
  const givens: Array<[number, number]> = t.givens.map((c) => [c, board.solution[c]]);
  const seam: Array<[number, number]> = [];
  for (const c of t.cellIds) if (board.known[c] !== -1 && !board.isGivenOf(tileId, c)) seam.push([c, board.known[c]]);
  return {
    tile: t.id,
    ...tileGeometry(t),
    // `status` is always the field's (SPEC §6.1): an agent stopping on "solved" never stops early.
    status: state.status,
    tile_status: board.status[tileId] === SOLVED ? "solved" : "revealed",
    givens,
    seam,
    solved,
    meets,
    reward,
    frontier: state.groups.frontierOf(agentIndex),
    revision,
    // The tile drawn for a model without code (SPEC §6): givens and seam in, shared cells marked.
    pictures: picturesOf(board, [tileId], true),
  };
}
