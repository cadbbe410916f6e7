/**
 * Playability (SPEC §3): how much of a field a player can reach from one seed tile.
 *
 * Definition used for the reported figure: the seed tile is taken as solved (its givens plus one
 * guess are assumed to settle it; a tile has m ≥ 2 solutions from its givens, so at least one
 * guess is needed). Then, repeatedly, every unsolved tile that shares a cell with a solved tile
 * is examined with its own givens plus all cells known so far (cells of solved tiles); if the
 * solver finds exactly one solution, the tile is solved and its cells become known. When
 * nothing changes, the reach is the share of covered cells that lie in solved tiles. This uses
 * the engine's full line-pattern solver, which is stronger than the referee's "forced" rules
 * (SPEC §4.5), so it measures what the field's structure allows, not a particular player.
 */
import { CoverageIndex } from "./geometry";
import { Problem } from "./problem";
import { Solver } from "./solver";
import { tileLineSpecs } from "./tile-problem";
import type { Field } from "./types";

export interface Reach {
  seedTile: number;
  solvedTiles: number;
  /** Cells of solved tiles / covered cells, in [0, 1]. */
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
  const solvers = new Map<number, { problem: Problem; solver: Solver }>();
  const queue: number[] = [];
  const solve = (id: number): void => {
    solved[id] = 1;
    for (const c of field.tiles[id].cellIds) known[c] = 1;
    for (const n of index.neighbours(id)) if (!solved[n]) queue.push(n);
  };
  solve(seedTile);
  while (queue.length > 0) {
    const id = queue.shift() as number;
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
    if (solver.reset(fixed) && solver.count(2) === 1) solve(id);
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
