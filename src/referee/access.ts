import type { Machine, Agent } from "./seats";
import type { RefereeState } from "./state";
import type { RefereeError } from "./types";
import { checkExpectedRevision } from "./validate";
import { idList } from "../text/wording";
import { namedCells, xyv } from "../text/coordinates";

/**
 * Checks shared by reveal, commit and retract, in this order: the field is open, the agent is
 * seated, it belongs to the proven machine, the machine is alive.
 */
export function seatedCaller(
  state: RefereeState,
  machineId: unknown,
  agentId: unknown,
): { ok: true; agent: Agent; machine: Machine } | { ok: false; error: RefereeError } {
  if (typeof agentId !== "string" || agentId.length === 0) {
    return { ok: false, error: { code: "bad_input", message: "agent must be the agent id returned by join (<machine_id>/<session>)" } };
  }
  const agent = state.seats.agent(agentId);
  if (!agent) {
    return { ok: false, error: { code: "not_seated", message: `agent ${agentId} is not seated on this field; call join first` } };
  }
  const machine = state.seats.machines[agent.machine];
  if (machine.id !== machineId) {
    return { ok: false, error: { code: "not_your_agent", message: `agent ${agentId} belongs to another machine; act only as your own agents` } };
  }
  if (machine.health.dead) return { ok: false, error: deadError(machine) };
  return { ok: true, agent, machine };
}

export function deadError(machine: Machine): RefereeError {
  const h = machine.health.report();
  return {
    code: "dead",
    message: `machine ${machine.id} died on this field (wrong ${h.wrong} of ${h.window} counted cells) and may not write again today; its territory stays`,
  };
}

export function closedError(state: RefereeState): RefereeError {
  return { code: "closed", message: "this field is closed (its day has ended); no more writes are accepted", revision: state.revision };
}

/**
 * Any write whose `expected_revision` is ahead of the field conflicts (SPEC §4.9); a malformed
 * one is `bad_input`. Nothing else about the revision refuses a write by itself.
 */
export function revisionCheck(state: RefereeState, expected: unknown): RefereeError | null {
  const bad = checkExpectedRevision(expected);
  if (bad) return bad;
  const exp = expected as number;
  const current = state.revision;
  if (exp <= current) return null;
  return {
    code: "conflict",
    message: `expected_revision ${exp} is ahead of the field (revision ${current}); retry with expected_revision ${current}`,
    revision: current,
    tiles: [],
    cells: [],
    known: [],
  };
}

/**
 * A commit conflicts only where the stale view is contradicted (SPEC §4.9): a cell it sends became
 * known after `expected` with the other value. A cell that became known with the value sent is
 * ignored as known later, like any known cell; tiles revealed or solved meanwhile and other
 * cells of the same tiles never conflict. One stamp per cell (`cellAt`): O(batch).
 */
export function commitConflict(state: RefereeState, expected: unknown, pairs: ReadonlyArray<readonly [number, 0 | 1]>): RefereeError | null {
  const ahead = revisionCheck(state, expected);
  if (ahead) return ahead;
  const exp = expected as number;
  const { board } = state;
  const contradicted = new Set<number>();
  for (const [cell, v] of pairs) {
    const known = board.known[cell];
    if (board.cellAt[cell] > exp && known !== -1 && known !== v) contradicted.add(cell);
  }
  if (contradicted.size === 0) return null;
  const cells = [...contradicted].sort((a, b) => a - b);
  return conflictError(
    state,
    exp,
    cells,
    `${namedCells(cells, board.G)} became known with the other value than you sent: your view was stale there; drop ${cells.length === 1 ? "it" : "them"} and retry with expected_revision ${state.revision}`,
  );
}

/**
 * A retract conflicts only when a cell it names was committed or retracted after `expected` by
 * another session of the caller's own machine (SPEC §4.9): the machine's sessions share its
 * cells, so one session may be about to withdraw what another just (re)placed. Anything else is
 * judged as usual (another machine's cells, givens and solved tiles are ignored with a reason).
 */
export function retractConflict(state: RefereeState, expected: unknown, cells: readonly number[], caller: Agent): RefereeError | null {
  const ahead = revisionCheck(state, expected);
  if (ahead) return ahead;
  const exp = expected as number;
  const { board, seats } = state;
  const changed = new Set<number>();
  const sessions = new Set<string>();
  for (const cell of cells) {
    if (board.cellAt[cell] <= exp) continue;
    const by = board.cellBy[cell];
    if (by < 0 || by === caller.index) continue;
    const other = seats.agents[by];
    if (other.machine !== caller.machine) continue;
    changed.add(cell);
    sessions.add(other.id);
  }
  if (changed.size === 0) return null;
  const list = [...changed].sort((a, b) => a - b);
  return conflictError(
    state,
    exp,
    list,
    `${namedCells(list, board.G)} ${list.length === 1 ? "was" : "were"} committed or retracted by another session of your machine (${idList([...sessions].sort(), 3)}); retry with expected_revision ${state.revision} if you still mean it`,
  );
}

/**
 * The conflict error (SPEC §4.9): the current revision, the cells that changed, the tiles
 * covering them whose status changed since `exp`, and the values of those cells now known.
 * Known cells lie in revealed tiles, whose values are public: the caller learns them here
 * rather than by another observe.
 */
function conflictError(state: RefereeState, exp: number, cells: number[], what: string): RefereeError {
  const { board } = state;
  const tiles = new Set<number>();
  for (const c of cells) for (const t of board.tilesOf(c)) if (board.statusAt[t] > exp) tiles.add(t);
  const known: number[][] = [];
  for (const c of cells) {
    const v = board.known[c];
    if (v === 0 || v === 1) known.push([c, v]);
  }
  return {
    code: "conflict",
    // The values now known by coordinates (SPEC §6): a model reads them here, programs in `known`.
    message: `since your expected_revision ${exp}, ${what}${known.length ? `. Now known: ${known.map(([c, v]) => xyv(c, v, board.G)).join(" ")}` : ""}`,
    revision: state.revision,
    tiles: [...tiles].sort((a, b) => a - b),
    cells,
    known,
  };
}
