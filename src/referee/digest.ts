import type { RefereeState } from "./state";

/**
 * FNV-1a style hashing (two 32-bit lanes; bytes for numbers and strings, whole words with an
 * extra shift for the long arrays) over every part of the play state. Used to prove that a refused
 * write changed nothing and that a replay rebuilt the same state.
 */
export function digestState(state: RefereeState, closed: boolean): string {
  const h = new Hasher();
  const { board, seats, groups } = state;
  h.str(state.status);
  h.num(state.revision);
  h.num(state.grown);
  h.arr(board.solution);
  h.num(closed ? 1 : 0);
  h.arr(board.status);
  h.arr(board.solver);
  h.arr(board.revealer);
  h.arr(board.changedAt);
  h.arr(board.statusAt);
  h.arr(board.unknown);
  h.arr(board.known);
  h.arr(board.origin);
  h.arr(board.givenShown);
  h.arr(board.cellAt);
  h.arr(board.solvedOrder);
  for (const a of seats.agents) {
    h.str(a.id);
    h.num(a.seed ?? -1);
    h.num(a.reward);
    h.num(a.solved);
  }
  for (const m of seats.machines) {
    h.str(m.id);
    h.str(m.sessions.join(","));
    h.arr([m.accepted, m.forced, m.guesses, m.wrong, m.rejectedGuesses, m.retractions, m.reward, m.solved]);
    h.arr(m.health.digestParts());
  }
  h.arr(groups.digestParts());
  return h.hex();
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
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < xs.length; i++) {
      const w = xs[i] | 0;
      a = Math.imul(a ^ w, 0x01000193);
      a ^= a >>> 15;
      b = Math.imul(b ^ w, 0x01000193 ^ 0x5bd1e995);
      b ^= b >>> 13;
    }
    this.a = a;
    this.b = b;
  }

  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, "0") + (this.b >>> 0).toString(16).padStart(8, "0");
  }
}
