import type { BoardSnapshot } from "./board";
import { boardDigestArrays, digestSteps, machineCounters, type DigestView } from "./digest";
import type { GroupsSnapshot } from "./groups";
import { MachineHealth, type HealthCapture } from "./health";
import { packSteps } from "./pack";
import type { Agent, Machine, MachineSnapshot } from "./seats";
import { SNAPSHOT_FORMAT, type RefereeSnapshot } from "./snapshot";
import type { RefereeState } from "./state";
import { copyTags } from "./tags";
import type { RefereeEvent } from "./types";

/**
 * A referee snapshot taken in two phases, so that its cost stays off the answers of writes:
 *
 * 1. `captureState` copies the play state at one revision: the board's typed arrays (a memory
 *    copy), the seats and groups as plain data. Cheap, and synchronous, so the copy is one
 *    consistent state.
 * 2. `encodeCapture` packs the copy (run-length text, sorted counted cells) and computes its
 *    digest, in bounded steps (at most STEP_ENTRIES array entries each). The owner may run other
 *    writes between steps: they change the live state, never the copy.
 *
 * Run back to back, the two give exactly `Referee.snapshot()` (which is built on them).
 */

type CapturedMachine = Omit<Machine, "health"> & { health: HealthCapture };

export interface StateCapture {
  gameId: string;
  G: number;
  revision: number;
  status: RefereeState["status"];
  grown: number;
  closeEvent: RefereeEvent | null;
  board: {
    tiles: number;
    /** The board's tile list: growth only appends to it, so its first `tiles` entries stay as captured. */
    tileList: DigestView["tiles"];
    solution: Uint8Array;
    /** Copies, in `boardDigestArrays` order: status, solver, revealer, changedAt, statusAt, unknown, known, origin, givenShown, cellAt, cellBy, solvedOrder. */
    arrays: Array<ArrayLike<number>>;
    knownCount: number;
  };
  agents: Agent[];
  machines: CapturedMachine[];
  groups: GroupsSnapshot;
  groupDigest: number[];
}

export function captureState(state: RefereeState, closeEvent: RefereeEvent | null): StateCapture {
  const { board, seats, groups } = state;
  return {
    gameId: state.gameId,
    G: board.G,
    revision: state.revision,
    status: state.status,
    grown: state.grown,
    closeEvent: closeEvent && { ...closeEvent },
    board: {
      tiles: board.tiles.length,
      tileList: board.tiles,
      // Growth replaces the solution array, never changes it in place: a reference is a copy.
      solution: board.solution,
      arrays: boardDigestArrays(board).map((xs) => (Array.isArray(xs) ? [...(xs as number[])] : (xs as unknown as { slice(): ArrayLike<number> }).slice())),
      knownCount: board.knownCount,
    },
    agents: seats.agents.map((a) => ({ ...a, tags: copyTags(a.tags) })),
    machines: seats.machines.map((m) => ({ ...m, sessions: [...m.sessions], agents: [...m.agents], health: m.health.capture() })),
    groups: groups.snapshot(),
    groupDigest: groups.digestParts(),
  };
}

/** The snapshot of a capture, in bounded steps (yields between them). */
export function* encodeCapture(c: StateCapture): Generator<void, RefereeSnapshot, void> {
  const [status, solver, revealer, changedAt, statusAt, unknown, known, origin, givenShown, cellAt, cellBy, solvedOrder] = c.board.arrays;
  const board: BoardSnapshot = {
    tiles: c.board.tiles,
    status: yield* packSteps(status),
    solver: yield* packSteps(solver),
    revealer: yield* packSteps(revealer),
    changedAt: yield* packSteps(changedAt),
    statusAt: yield* packSteps(statusAt),
    unknown: yield* packSteps(unknown),
    known: yield* packSteps(known),
    origin: yield* packSteps(origin),
    givenShown: yield* packSteps(givenShown),
    cellAt: yield* packSteps(cellAt),
    cellBy: yield* packSteps(cellBy),
    solvedOrder: Array.from(solvedOrder),
    knownCount: c.board.knownCount,
  };
  const machines: MachineSnapshot[] = [];
  for (const m of c.machines) {
    machines.push({ ...m, health: MachineHealth.encode(m.health) });
    yield;
  }
  const view: DigestView = {
    status: c.status,
    revision: c.revision,
    grown: c.grown,
    closed: c.closeEvent !== null,
    solution: c.board.solution,
    tiles: c.board.tileList,
    tileCount: c.board.tiles,
    boardArrays: c.board.arrays,
    agents: c.agents,
    machines: c.machines.map((m) => ({ id: m.id, sessions: m.sessions, counters: machineCounters(m), health: MachineHealth.digestPartsOf(m.health) })),
    groups: c.groupDigest,
  };
  const digest = yield* digestSteps(view);
  return {
    format: SNAPSHOT_FORMAT,
    gameId: c.gameId,
    G: c.G,
    revision: c.revision,
    status: c.status,
    grown: c.grown,
    closeEvent: c.closeEvent,
    board,
    agents: c.agents,
    machines,
    groups: c.groups,
    digest,
  };
}
