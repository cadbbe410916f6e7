import { STEP_ENTRIES } from "./pack";
import type { Machine } from "./seats";
import type { RefereeState } from "./state";

/**
 * What the digest covers, as plain data: taken from the live state (`digestView`), or from a
 * snapshot's capture (so a snapshot encoded in steps carries the digest of the state it captured).
 */
export interface DigestView {
  status: string;
  revision: number;
  grown: number;
  closed: boolean;
  /**
   * The solution as far as the board's tiles reach: the values of the first `tileCount` tiles'
   * cells, tile by tile. Not the whole array: growth extends the stored solution with a ring's
   * cells, so a snapshot restored after a later growth meets a solution longer than the one it
   * was taken with; the cells its own tiles cover are the same.
   */
  solution: ArrayLike<number>;
  tiles: ReadonlyArray<{ cellIds: readonly number[] }>;
  tileCount: number;
  /** status, solver, revealer, changedAt, statusAt, unknown, known, origin, givenShown, cellAt, cellBy, solvedOrder. */
  boardArrays: Array<ArrayLike<number>>;
  agents: Array<{ id: string; seed: number | null; reward: number; solved: number }>;
  machines: Array<{ id: string; sessions: string[]; counters: number[]; health: number[] }>;
  groups: number[];
}

/** The live state's view (no copies). */
export function digestView(state: RefereeState, closed: boolean): DigestView {
  const { board, seats, groups } = state;
  return {
    status: state.status,
    revision: state.revision,
    grown: state.grown,
    closed,
    solution: board.solution,
    tiles: board.tiles,
    tileCount: board.tiles.length,
    boardArrays: boardDigestArrays(board),
    agents: seats.agents,
    machines: seats.machines.map((m) => ({ id: m.id, sessions: m.sessions, counters: machineCounters(m), health: m.health.digestParts() })),
    groups: groups.digestParts(),
  };
}

/** The board arrays the digest covers, in its order. */
export function boardDigestArrays(board: RefereeState["board"]): Array<ArrayLike<number>> {
  return [board.status, board.solver, board.revealer, board.changedAt, board.statusAt, board.unknown, board.known, board.origin, board.givenShown, board.cellAt, board.cellBy, board.solvedOrder];
}

export function machineCounters(m: Omit<Machine, "health">): number[] {
  return [m.accepted, m.forced, m.guesses, m.wrong, m.rejectedGuesses, m.retractions, m.reward, m.solved];
}

/**
 * FNV-1a style hashing (two 32-bit lanes; bytes for numbers and strings, whole words with an
 * extra shift for the long arrays) over every part of the play state. Used to prove that a refused
 * write changed nothing and that a replay rebuilt the same state.
 */
export function digestState(state: RefereeState, closed: boolean): string {
  return runSteps(digestSteps(digestView(state, closed)));
}

/** The digest in bounded steps: long arrays are hashed STEP_ENTRIES entries at a time. */
export function* digestSteps(v: DigestView): Generator<void, string, void> {
  const h = new Hasher();
  h.str(v.status);
  h.num(v.revision);
  h.num(v.grown);
  yield* h.tileCellSteps(v.tiles, v.tileCount, v.solution);
  h.num(v.closed ? 1 : 0);
  for (const xs of v.boardArrays) yield* h.arrSteps(xs);
  for (const a of v.agents) {
    h.str(a.id);
    h.num(a.seed ?? -1);
    h.num(a.reward);
    h.num(a.solved);
  }
  for (const m of v.machines) {
    h.str(m.id);
    h.str(m.sessions.join(","));
    h.arr(m.counters);
    h.arr(m.health);
  }
  h.arr(v.groups);
  return h.hex();
}

/** Runs a stepped computation to its end. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** One word into each lane of the array hash (a shift after each multiply spreads high bits down). */
function mixA(a: number, w: number): number {
  const x = Math.imul(a ^ w, 0x01000193);
  return x ^ (x >>> 15);
}

function mixB(b: number, w: number): number {
  const x = Math.imul(b ^ w, 0x01000193 ^ 0x5bd1e995);
  return x ^ (x >>> 13);
}

class Hasher {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x9e3779b9;

  num(n: number): void {
    // Split into two 26-bit halves so that integers up to 2^52 hash exactly.
    const lo = n % 0x4000000;
    const hi = Math.floor(n / 0x4000000);
    this.word(lo | 0);
    this.word(hi | 0);
  }

  word(w: number): void {
    for (let i = 0; i < 4; i++) {
      const byte = (w >>> (i * 8)) & 0xff;
      this.a = Math.imul(this.a ^ byte, 0x01000193);
      this.b = Math.imul(this.b ^ byte, 0x01000193 ^ 0x5bd1e995);
    }
  }

  str(s: string): void {
    this.num(s.length);
    for (let i = 0; i < s.length; i++) this.word(s.charCodeAt(i));
  }

  /** Arrays (one entry per cell on large fields) are hashed a word per entry, not byte by byte. */
  arr(xs: ArrayLike<number>): void {
    this.num(xs.length);
    this.range(xs, 0, xs.length);
  }

  /** `arr` in steps of STEP_ENTRIES entries; the same hash. */
  *arrSteps(xs: ArrayLike<number>): Generator<void, void, void> {
    this.num(xs.length);
    for (let i = 0; i < xs.length; i += STEP_ENTRIES) {
      this.range(xs, i, Math.min(xs.length, i + STEP_ENTRIES));
      yield;
    }
  }

  /** The values of the first `count` tiles' cells, tile by tile, in steps of about STEP_ENTRIES cells. */
  *tileCellSteps(tiles: ReadonlyArray<{ cellIds: readonly number[] }>, count: number, values: ArrayLike<number>): Generator<void, void, void> {
    this.num(count);
    let sinceYield = 0;
    for (let t = 0; t < count; t++) {
      const cells = tiles[t].cellIds;
      let a = this.a;
      let b = this.b;
      for (let i = 0; i < cells.length; i++) {
        const w = values[cells[i]] | 0;
        a = mixA(a, w);
        b = mixB(b, w);
      }
      this.a = a;
      this.b = b;
      sinceYield += cells.length;
      if (sinceYield >= STEP_ENTRIES) {
        sinceYield = 0;
        yield;
      }
    }
  }

  private range(xs: ArrayLike<number>, from: number, to: number): void {
    let a = this.a;
    let b = this.b;
    for (let i = from; i < to; i++) {
      const w = xs[i] | 0;
      a = mixA(a, w);
      b = mixB(b, w);
    }
    this.a = a;
    this.b = b;
  }

  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, "0") + (this.b >>> 0).toString(16).padStart(8, "0");
  }
}
