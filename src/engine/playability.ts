/**
 * Playability (SPEC §3): how much of a field a player can reach from one seed tile.
 *
 * Definition used for the reported figure. The seed tile is taken as solved (its givens plus
 * one guess among its m ≥ 2 solutions settle it). The frontier is every tile sharing a cell with
 * a solved tile; a frontier tile is revealed, so its givens become known cells (also for the
 * neighbours that share them). Repeatedly, every revealed, unsolved tile is examined with its
 * givens plus all known cells: the engine's solver enumerates its remaining solutions; if one
 * remains the tile is solved and all its cells become known, otherwise the cells on which all
 * remaining solutions agree become known. When nothing changes, the reach is the share of
 * covered cells that are known. The full line-pattern solver is stronger than the referee's
 * "forced" rules (SPEC §4.5), so this measures what the field's structure allows without any
 * further guess, not what a particular player achieves.
 */
import { CoverageIndex } from "./geometry";
import { Problem } from "./problem";
import { Solver } from "./solver";
import { tileLineSpecs } from "./tile-problem";
import type { Field } from "./types";

export interface Reach {
  seedTile: number;
  solvedTiles: number;
  /** Known cells / covered cells, in [0, 1]. */
  share: number;
}

export function coverageOf(field: Field): CoverageIndex {
  const index = new CoverageIndex(field.G);
  for (const t of field.tiles) index.addTile(t.id, t.cellIds);
  return index;
}

export function reachFrom(field: Field, seedTile: number, index = coverageOf(field)): Reach {
  const known = new Uint8Array(field.G * field.G);
  const solved = new Uint8Array(field.tiles.length);
  const revealed = new Uint8Array(field.tiles.length);
  const queued = new Uint8Array(field.tiles.length);
  const solvers = new Map<number, { problem: Problem; solver: Solver }>();
  const queue: number[] = [];
  const wake = (cell: number): void => {
    for (const t of index.tilesOf(cell)) {
      if (revealed[t] && !solved[t] && !queued[t]) {
        queued[t] = 1;
        queue.push(t);
      }
    }
  };
  const learn = (cell: number): void => {
    if (known[cell]) return;
    known[cell] = 1;
    wake(cell);
  };
  const reveal = (id: number): void => {
    if (revealed[id]) return;
    revealed[id] = 1;
    queued[id] = 1;
    queue.push(id);
    for (const g of field.tiles[id].givens) learn(g);
  };
  const solve = (id: number): void => {
    solved[id] = 1;
    for (const c of field.tiles[id].cellIds) learn(c);
    for (const n of index.neighbours(id)) reveal(n);
  };
  revealed[seedTile] = 1;
  solve(seedTile);
  while (queue.length > 0) {
    const id = queue.shift() as number;
    queued[id] = 0;
    if (solved[id]) continue;
    const tile = field.tiles[id];
    let entry = solvers.get(id);
    if (!entry) {
      const problem = new Problem(tileLineSpecs(tile, field.G, 0, true));
      entry = { problem, solver: new Solver(problem) };
      solvers.set(id, entry);
    }
    const { problem, solver } = entry;
    const fixed = new Int8Array(problem.nCells).fill(-1);
    for (const g of tile.givens) fixed[problem.local(g)] = field.solution[g];
    for (const c of tile.cellIds) if (known[c]) fixed[problem.local(c)] = field.solution[c];
    const sols = solver.reset(fixed) ? (solver.enumerate(tile.m + 1) ?? []) : [];
    if (sols.length === 1) solve(id);
    else if (sols.length > 1) {
      for (const c of tile.cellIds) {
        const i = problem.local(c);
        if (!known[c] && sols.every((s) => s[i] === sols[0][i])) learn(c);
      }
    }
  }
  let covered = 0;
  let reached = 0;
  for (let c = 0; c < known.length; c++) {
    if (index.isCovered(c)) {
      covered++;
      if (known[c]) reached++;
    }
  }
  let solvedTiles = 0;
  for (const s of solved) solvedTiles += s;
  return { seedTile, solvedTiles, share: covered ? reached / covered : 0 };
}
