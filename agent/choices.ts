/**
 * The agent's two choices that deduction cannot make: which hidden frontier tile to reveal next,
 * and, when every worked tile is truly ambiguous, which single cell to guess.
 */
import type { Board, BoardTile } from "./board";
import type { Candidates } from "./deduce";

export type ExpandPolicy = "open" | "meet";

export interface Guess {
  tile: number;
  cell: number;
  value: 0 | 1;
  /** Remaining solutions of the tile, and how many of them hold `value` at the cell. */
  solutions: number;
  agreeing: number;
}

/**
 * The cell to guess: on the tile with the fewest remaining solutions (largest first on a tie),
 * the cell whose majority value is held by the most solutions, guessed as that majority. With
 * two solutions every disagreeing cell is a coin toss; with three, a 2:1 cell is right two times
 * in three and a miss still leaves a single solution.
 */
export function chooseGuess(board: Board, candidates: ReadonlyMap<number, Candidates | null>): Guess | null {
  let best: Guess | null = null;
  for (const [tileId, sols] of [...candidates].sort((a, b) => a[0] - b[0])) {
    if (!sols || sols.length < 2) continue;
    const tile = board.tile(tileId) as BoardTile;
    for (let i = 0; i < tile.cellIds.length; i++) {
      const cell = tile.cellIds[i];
      if (board.truth.has(cell)) continue;
      const ones = sols.reduce((n, sol) => n + sol[i], 0);
      if (ones === 0 || ones === sols.length) continue;
      const value: 0 | 1 = ones * 2 >= sols.length ? 1 : 0;
      const agreeing = value === 1 ? ones : sols.length - ones;
      const g: Guess = { tile: tileId, cell, value, solutions: sols.length, agreeing };
      if (!best || better(g, best, board)) best = g;
    }
  }
  return best;
}

function better(a: Guess, b: Guess, board: Board): boolean {
  if (a.solutions !== b.solutions) return a.solutions < b.solutions;
  if (a.agreeing * b.solutions !== b.agreeing * a.solutions) return a.agreeing * b.solutions > b.agreeing * a.solutions;
  const ca = board.tile(a.tile)?.cells ?? 0;
  const cb = board.tile(b.tile)?.cells ?? 0;
  return ca > cb;
}

/**
 * The hidden frontier tile to reveal: the one whose cells are most known already (its seam is
 * likely to pin it at once); then, by policy, the one opening most unexplored tiles ("open") or
 * the one nearest another group's tiles ("meet"); then the larger; then the lower id.
 */
export function chooseReveal(board: Board, hidden: readonly BoardTile[], policy: ExpandPolicy): BoardTile | null {
  if (hidden.length === 0) return null;
  const mine = new Set(board.agents.filter((a) => a.group !== undefined && a.group === groupOf(board)).map((a) => a.id));
  const foreign = [...board.tiles.values()].filter((t) => t.status === "solved" && t.agent !== null && !mine.has(t.agent) && t.agent !== board.myAgent);
  const scored = hidden.map((t) => {
    const knownShare = t.cellIds.filter((c) => board.truth.has(c)).length / Math.max(1, t.cellIds.length);
    const open = t.neighbours.filter((n) => board.tile(n)?.status === "hidden").length;
    const distance = foreign.length === 0 ? 0 : Math.min(...foreign.map((f) => gap(t, f)));
    const direction = policy === "open" ? open : -distance;
    return { t, knownShare, direction };
  });
  scored.sort((a, b) => b.knownShare - a.knownShare || b.direction - a.direction || b.t.cells - a.t.cells || a.t.id - b.t.id);
  return scored[0].t;
}

function groupOf(board: Board): string | undefined {
  return board.agents.find((a) => a.id === board.myAgent)?.group;
}

/** Chebyshev gap between two tiles' bounding boxes (0 when they touch or overlap). */
function gap(a: BoardTile, b: BoardTile): number {
  const dx = Math.max(0, a.x0 - (b.x0 + b.w - 1), b.x0 - (a.x0 + a.w - 1));
  const dy = Math.max(0, a.y0 - (b.y0 + b.h - 1), b.y0 - (a.y0 + a.h - 1));
  return Math.max(dx, dy);
}
