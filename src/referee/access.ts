import type { Board } from "./board";
import type { Machine, Agent } from "./seats";
import type { RefereeState } from "./state";
import type { RefereeError } from "./types";
import { checkExpectedRevision } from "./validate";
import { named } from "../text/wording";

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

/** What a write depends on (SPEC §4.9): its own cells and the tiles containing them (or the revealed tile). */
export interface ConflictScope {
  cells: Iterable<number>;
  tiles: Iterable<number>;
}

/** The tiles covering any of `cells` (each once): the tiles a commit or retract depends on. */
export function tilesCovering(board: Board, cells: readonly number[]): Set<number> {
  const tiles = new Set<number>();
  for (const cell of cells) for (const t of board.tilesOf(cell)) tiles.add(t);
  return tiles;
}

/**
 * Scoped optimistic concurrency (SPEC §4.9): refuse only when one of the write's own cells became
 * known or was retracted after `expected`, or one of its tiles changed status (revealed, solved,
 * grown into being). Other cells of the same tiles may change freely: group mates working on
 * one tile do not block each other. A revision from the future is refused the same way. The
 * board stamps what each write touched, so this costs O(batch).
 */
export function conflictCheck(state: RefereeState, expected: unknown, scope: ConflictScope): RefereeError | null {
  const bad = checkExpectedRevision(expected);
  if (bad) return bad;
  const exp = expected as number;
  const current = state.revision;
  if (exp > current) {
    return {
      code: "conflict",
      message: `expected_revision ${exp} is ahead of the field (revision ${current}); retry with expected_revision ${current}`,
      revision: current,
      tiles: [],
      cells: [],
      known: [],
    };
  }
  const { board } = state;
  const tiles = new Set<number>();
  const cells = new Set<number>();
  for (const t of scope.tiles) if (board.statusAt[t] > exp) tiles.add(t);
  for (const c of scope.cells) if (board.cellAt[c] > exp) cells.add(c);
  if (tiles.size === 0 && cells.size === 0) return null;
  const changedTiles = [...tiles].sort((a, b) => a - b);
  const changedCells = [...cells].sort((a, b) => a - b);
  // Known cells lie in revealed tiles, whose values are public: the caller gets them here rather than by another observe.
  const known: number[][] = [];
  const retracted: number[] = [];
  for (const c of changedCells) {
    const v = board.known[c];
    if (v === 0 || v === 1) known.push([c, v]);
    else retracted.push(c);
  }
  const parts: string[] = [];
  if (changedTiles.length) parts.push(`${named("tile", changedTiles)} changed status (revealed or solved)`);
  if (known.length) parts.push(`${named("cell", known.map(([c]) => c))} became known (values in known)`);
  if (retracted.length) parts.push(`${named("cell", retracted)} ${retracted.length === 1 ? "was" : "were"} retracted`);
  return {
    code: "conflict",
    message: `since your expected_revision ${exp}, ${parts.join("; ")}; retry with expected_revision ${current}`,
    revision: current,
    tiles: changedTiles,
    cells: changedCells,
    known,
  };
}

