/**
 * The agent's own solver, on the pure engine. For every revealed tile it works on it lists the
 * tile's solutions that agree with every true value the agent knows (the givens alone leave at
 * most m ≤ 4, so the list is short and exact), then prunes them until nothing changes:
 *
 * - a solution is dropped when a neighbouring tile that is not revealed (or is revealed by
 *   someone else and only partly known to us) could no longer be completed with the solution's
 *   values on their shared cells (an exhaustive search on that tile, bounded by a node budget;
 *   an unfinished search keeps the solution);
 * - a solution is dropped when a neighbouring worked tile has no remaining solution that agrees
 *   with it on their shared cells (cross-tile consistency).
 *
 * A cell on which every remaining solution of a tile agrees is proven. This is complete for one
 * tile and sound everywhere; the referee's own propagation (SPEC §4.5) fixes a subset of it.
 */
import { BitSolver, Solver, tileProblem, type Problem } from "../src/engine";
import type { Board, BoardTile } from "./board";

/** A tile's solutions, each a 0/1 value per cell in the order of the tile's `cellIds`. */
export type Candidates = Uint8Array[];

export interface Deduction {
  /** Surviving solutions per worked tile; null when the tile could not be enumerated. */
  candidates: Map<number, Candidates | null>;
  /** Proven values of cells of worked tiles (known ones included). */
  proven: Map<number, 0 | 1>;
  /** Worked tiles whose known cells admit no solution (never expected: the agent's knowledge is true). */
  contradictions: number[];
}

/** More solutions than this and the tile is treated as unknown (cannot happen once revealed). */
const ENUMERATION_LIMIT = 64;
const ENUMERATION_BUDGET = 200_000;
/** Node budget of one completion check of a neighbouring tile. */
const CHECK_BUDGET = 20_000;

interface TileSolver {
  problem: Problem;
  list: Solver | null;
  bits: BitSolver | null;
  /** Local solver index of each of the tile's cells, in `cellIds` order. */
  local: Int32Array;
}

/**
 * Keeps per-tile solvers and memoises results. `truth` only grows and never changes a value, so
 * the number of true cells a tile holds identifies what the tile's search saw.
 */
export class Deducer {
  private readonly solvers = new Map<number, TileSolver>();
  private readonly enumerations = new Map<number, { known: number; sols: Candidates | null }>();
  private readonly checks = new Map<string, boolean>();

  constructor(private readonly board: Board) {}

  private solverOf(tile: BoardTile): TileSolver {
    let s = this.solvers.get(tile.id);
    if (!s) {
      const problem = tileProblem(tile, this.board.G);
      const local = Int32Array.from(tile.cellIds, (c) => problem.local(c));
      s = { problem, list: null, bits: null, local };
      this.solvers.set(tile.id, s);
    }
    return s;
  }

  private fixedOf(tile: BoardTile, s: TileSolver, extra?: ReadonlyMap<number, number>): { fixed: Int8Array; known: number } {
    const fixed = new Int8Array(s.problem.nCells).fill(-1);
    let known = 0;
    tile.cellIds.forEach((c, i) => {
      const v = extra?.get(c) ?? this.board.truth.get(c);
      if (v !== undefined) {
        fixed[s.local[i]] = v;
        known++;
      }
    });
    return { fixed, known };
  }

  /** The tile's solutions agreeing with every known true value (memoised per known count). */
  enumerate(tile: BoardTile): Candidates | null {
    const s = this.solverOf(tile);
    const { fixed, known } = this.fixedOf(tile, s);
    const hit = this.enumerations.get(tile.id);
    if (hit && hit.known === known) return hit.sols;
    s.list ??= new Solver(s.problem);
    let sols: Candidates | null;
    if (!s.list.reset(fixed)) sols = [];
    else {
      const raw = s.list.enumerate(ENUMERATION_LIMIT + 1, ENUMERATION_BUDGET);
      sols = raw === null || raw.length > ENUMERATION_LIMIT ? null : raw.map((sol) => Uint8Array.from(s.local, (l) => sol[l]));
    }
    this.enumerations.set(tile.id, { known, sols });
    return sols;
  }

  /** Can the tile still be completed with the given extra values on some of its cells? */
  completable(tile: BoardTile, extra: ReadonlyMap<number, number>): boolean {
    const s = this.solverOf(tile);
    const { fixed, known } = this.fixedOf(tile, s, extra);
    let key = `${tile.id}|${known}|`;
    for (const c of [...extra.keys()].sort((a, b) => a - b)) key += `${c}=${extra.get(c)},`;
    const hit = this.checks.get(key);
    if (hit !== undefined) return hit;
    s.bits ??= new BitSolver(s.problem);
    // An unfinished search (-1) proves nothing: keep the option open.
    const ok = s.bits.reset(fixed) && s.bits.count(1, CHECK_BUDGET) !== 0;
    this.checks.set(key, ok);
    return ok;
  }

  /** Candidates of the worked tiles, pruned to a fixpoint, and the cells they prove. */
  deduce(work: readonly BoardTile[]): Deduction {
    const board = this.board;
    const candidates = new Map<number, Candidates | null>();
    const workIds = new Set(work.map((t) => t.id));
    for (const t of work) candidates.set(t.id, this.enumerate(t));

    // Neighbours that are not worked and not solved constrain the shared cells by completion.
    for (const t of work) {
      const sols = candidates.get(t.id);
      if (!sols || sols.length < 2) continue;
      const index = new Map(t.cellIds.map((c, i) => [c, i]));
      const others = new Set<number>();
      for (const c of t.cellIds) for (const o of board.tilesOf(c)) if (o !== t.id && !workIds.has(o) && board.tile(o)?.status !== "solved") others.add(o);
      let kept = sols;
      for (const o of [...others].sort((a, b) => a - b)) {
        const other = board.tile(o) as BoardTile;
        const shared = other.cellIds.filter((c) => index.has(c) && !board.truth.has(c));
        if (shared.length === 0) continue;
        // Only where the solutions disagree can the neighbour tell them apart.
        const differs = shared.some((c) => kept.some((sol) => sol[index.get(c) as number] !== kept[0][index.get(c) as number]));
        if (!differs) continue;
        const survivors = kept.filter((sol) => this.completable(other, new Map(shared.map((c) => [c, sol[index.get(c) as number]]))));
        // All dropped would mean our knowledge is inconsistent: keep the list rather than trust that.
        if (survivors.length > 0) kept = survivors;
      }
      candidates.set(t.id, kept);
    }

    // Cross-tile consistency between worked tiles, to a fixpoint.
    const pairs = sharedPairs(board, work);
    for (let changed = true, rounds = 0; changed && rounds < 100; rounds++) {
      changed = false;
      for (const { a, b, cellsA, cellsB } of pairs) {
        for (const [x, y, cx, cy] of [
          [a, b, cellsA, cellsB],
          [b, a, cellsB, cellsA],
        ] as const) {
          const sx = candidates.get(x);
          const sy = candidates.get(y);
          if (!sx || !sy || sx.length === 0 || sy.length === 0) continue;
          const keys = new Set(sy.map((sol) => cy.map((i) => sol[i]).join("")));
          const kept = sx.filter((sol) => keys.has(cx.map((i) => sol[i]).join("")));
          if (kept.length !== sx.length && kept.length > 0) {
            candidates.set(x, kept);
            changed = true;
          }
        }
      }
    }

    const proven = new Map<number, 0 | 1>();
    const contradictions: number[] = [];
    for (const t of work) {
      const sols = candidates.get(t.id);
      if (sols === null || sols === undefined) continue;
      if (sols.length === 0) {
        contradictions.push(t.id);
        continue;
      }
      t.cellIds.forEach((c, i) => {
        const v = sols[0][i];
        if (sols.every((sol) => sol[i] === v)) proven.set(c, v as 0 | 1);
      });
    }
    return { candidates, proven, contradictions };
  }
}

/** Pairs of worked tiles that share cells, with the shared cells' positions in each tile. */
function sharedPairs(board: Board, work: readonly BoardTile[]): Array<{ a: number; b: number; cellsA: number[]; cellsB: number[] }> {
  const workIds = new Set(work.map((t) => t.id));
  const pairs: Array<{ a: number; b: number; cellsA: number[]; cellsB: number[] }> = [];
  for (const t of work) {
    const index = new Map(t.cellIds.map((c, i) => [c, i]));
    const byOther = new Map<number, number[]>();
    for (const c of t.cellIds) for (const o of board.tilesOf(c)) if (o > t.id && workIds.has(o)) byOther.set(o, [...(byOther.get(o) ?? []), c]);
    for (const [o, cells] of byOther) {
      const other = board.tile(o) as BoardTile;
      const oIndex = new Map(other.cellIds.map((c, i) => [c, i]));
      pairs.push({ a: t.id, b: o, cellsA: cells.map((c) => index.get(c) as number), cellsB: cells.map((c) => oIndex.get(c) as number) });
    }
  }
  return pairs;
}
