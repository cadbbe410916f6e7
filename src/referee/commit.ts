import { commitConflict, seatedCaller } from "./access";
import { REVEALED, type Board } from "./board";
import type { ForcingRule } from "./forcing";
import { answeredHealth } from "./health-margin";
import { picturesOf } from "./pictures";
import { solveTile, type Meet } from "./solve";
import type { HandlerResult, RefereeState } from "./state";
import type { WriteInput } from "./types";
import { MAX_COMMIT_CELLS } from "./limits";
import { bad, checkCell, checkIntent, normaliseIntent } from "./validate";

type CommitInput = Extract<WriteInput, { type: "commit" }>;

export type IgnoreReason = "duplicate" | "hole" | "given" | "known" | "not_revealed" | "off_frontier";

/** An ignored cell; a known one carries its value (`v`), so the caller need not observe it. */
export interface IgnoredCell {
  id: number;
  reason: IgnoreReason;
  v?: 0 | 1;
}

/** A refused cell, with the value the caller sent (never the solution's). */
export interface RejectedCell {
  id: number;
  reason: "wrong" | "guess";
  v: 0 | 1;
}

export interface AcceptedCell {
  id: number;
  v: 0 | 1;
  class: "forced" | "guess";
  rule?: ForcingRule;
}

/**
 * Judge a batch of cells in order (SPEC §4.4, §4.5). A wrong cell counts against the machine's
 * health; if it dies, judging stops at the killing cell and the rest is unevaluated. An accepted
 * cell becomes known at once, so later cells of the batch are classified with it known.
 */
export function commit(state: RefereeState, input: CommitInput, atMs: number): HandlerResult {
  const caller = seatedCaller(state, input.machineId, input.agent);
  if (!caller.ok) return caller;
  const { board, groups, rules } = state;
  const cells = input.cells;
  if (!Array.isArray(cells) || cells.length === 0) return { ok: false, error: bad("cells must be a non-empty list of [cell_id, 0|1] pairs") };
  if (cells.length > MAX_COMMIT_CELLS) {
    return { ok: false, error: { code: "too_large", message: `a commit carries at most ${MAX_COMMIT_CELLS} cells; this one has ${cells.length}` } };
  }
  for (let i = 0; i < cells.length; i++) {
    const pair: unknown = cells[i];
    if (!Array.isArray(pair) || pair.length !== 2) return { ok: false, error: bad(`cells[${i}] must be a [cell_id, 0|1] pair`) };
    const cellError = checkCell(pair[0], board.G, `cells[${i}]`);
    if (cellError) return { ok: false, error: cellError };
    if (pair[1] !== 0 && pair[1] !== 1) return { ok: false, error: bad(`cells[${i}]: value must be 0 or 1`) };
  }
  const intent = normaliseIntent(input.intent);
  const intentError = checkIntent(intent);
  if (intentError) return { ok: false, error: intentError };
  const conflict = commitConflict(state, input.expectedRevision, cells);
  if (conflict) return { ok: false, error: conflict };

  const { agent, machine } = caller;
  const health = machine.health;
  const rev = state.revision + 1;
  const accepted: AcceptedCell[] = [];
  const rejected: RejectedCell[] = [];
  const ignored: IgnoredCell[] = [];
  const unevaluated: number[] = [];
  const solved: number[] = [];
  const meets: Meet[] = [];
  const seen = new Set<number>();
  let reward = 0;
  let changed = false;
  let died = false;

  for (const [cell, v] of cells) {
    if (died) {
      unevaluated.push(cell);
      continue;
    }
    const reason = ignoreReason(state, agent.index, cell, seen);
    seen.add(cell);
    if (reason) {
      const known = board.known[cell];
      ignored.push(known === -1 ? { id: cell, reason } : { id: cell, reason, v: known as 0 | 1 });
      continue;
    }
    if (board.solution[cell] !== v) {
      rejected.push({ id: cell, reason: "wrong", v });
      machine.wrong++;
      changed = true;
      died = health.record(cell, true, atMs, rev);
      continue;
    }
    const forcing = board.oracle.forcedValue(cell);
    const forced = forcing !== null && forcing.value === v;
    if (!forced && rules.guess === "reject") {
      rejected.push({ id: cell, reason: "guess", v });
      continue;
    }
    board.setKnown(cell, v, machine.index, agent.index);
    changed = true;
    machine.accepted++;
    if (forced) {
      machine.forced++;
      accepted.push({ id: cell, v, class: "forced", rule: forcing.rule });
    } else {
      machine.guesses++;
      accepted.push({ id: cell, v, class: "guess" });
    }
    died = health.record(cell, false, atMs, rev);
    for (const t of board.completedAt(cell)) {
      solved.push(t);
      reward += board.tiles[t].cellIds.length;
      meets.push(...solveTile(state, t, agent));
    }
  }

  const answered = answeredHealth(health);
  const open = openTilesJudged(board, accepted, rejected);
  const answer: Record<string, unknown> = {
    revision: changed ? rev : state.revision,
    status: state.status,
    accepted,
    rejected,
    ignored,
    unevaluated,
    solved,
    meets,
    reward,
    frontier: groups.frontierOf(agent.index),
    health: answered.health,
    open,
    // The open tiles redrawn (SPEC §6 "What a model reads"): the text shows what its budget allows.
    pictures: picturesOf(board, open.map((t) => t.tile), true),
  };
  if (answered.health.state === "dead") {
    answer.note = `machine ${machine.id} died on this field: judging stopped at the cell that crossed the limit; no more writes today`;
  } else if (answered.note !== undefined) {
    answer.note = answered.note;
  }
  if (!changed) return { ok: true, answer, changed: false };
  const event: Record<string, unknown> = {
    intent,
    // The batch's cell ids in input order (no values): the verdict lists alone lose the
    // interleaving, which decides classification, the health window and the death point; an
    // auditor rebuilds the input from this order, the verdicts and the released solution.
    cells: cells.map(([id]) => id),
    accepted,
    // The public log carries rejected cells without their values (SPEC §4.8), and ignored cells
    // without the known values the answer repeats to the caller.
    rejected: rejected.map((r) => ({ id: r.id, reason: r.reason })),
    ignored: ignored.map((r) => ({ id: r.id, reason: r.reason })),
    unevaluated,
    solved,
    meets,
    reward,
    health: health.eventSummary(),
  };
  if (died) event.died = true;
  return { ok: true, answer, changed: true, event };
}

/** Why a cell is ignored (no verdict, no health effect), or null when it is judged. */
function ignoreReason(state: RefereeState, agentIndex: number, cell: number, seen: Set<number>): IgnoreReason | null {
  const { board, groups } = state;
  if (seen.has(cell)) return "duplicate";
  const tiles = board.tilesOf(cell);
  if (tiles.length === 0) return "hole";
  if (board.known[cell] !== -1) return board.givenShown[cell] ? "given" : "known";
  let revealed = false;
  for (const t of tiles) {
    if (board.status[t] !== REVEALED) continue;
    revealed = true;
    if (groups.onFrontier(agentIndex, t)) return null;
  }
  return revealed ? "off_frontier" : "not_revealed";
}

/** How many unknown cells a tile may have for the answer to list them; past that, only the count. */
const OPEN_CELLS_LISTED = 8;

/**
 * The revealed tiles this commit judged a cell of that are still unsolved, with their unknown cells
 * left (listed when few): a rejected cell stays unknown, so this says what is missing without an
 * observe. State only, never a hint: which cells, not their values.
 */
function openTilesJudged(board: Board, accepted: readonly AcceptedCell[], rejected: readonly RejectedCell[]): Array<{ tile: number; unknown: number; cells?: number[] }> {
  const tiles = new Set<number>();
  for (const c of [...accepted, ...rejected]) for (const t of board.tilesOf(c.id)) if (board.status[t] === REVEALED) tiles.add(t);
  return [...tiles]
    .sort((p, q) => p - q)
    .map((t) => {
      const unknown = board.unknown[t];
      if (unknown > OPEN_CELLS_LISTED) return { tile: t, unknown };
      return { tile: t, unknown, cells: board.tiles[t].cellIds.filter((c) => board.known[c] === -1) };
    });
}
