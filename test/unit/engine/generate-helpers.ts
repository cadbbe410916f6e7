/** Full verification of a generated field against SPEC §2/§3, shared by the generator tests. */
import { expect } from "vitest";
import { Solver } from "../../../src/engine/solver";
import { tileProblem } from "../../../src/engine/tile-problem";
import type { Field, Tile } from "../../../src/engine/types";
import { bruteForceSolutions, coverCounts, ruleViolation, structuralProblems } from "./field-checks";

export interface VerifyOptions {
  /** Check the two-sided pinning property only for tiles from this id on (0: all). */
  pinnedFrom?: number;
  /** Cross-check the solver's count by brute force on tiles up to this many cells (0: never). */
  bruteForceUpTo?: number;
}

/** The solutions of a tile from its givens alone (as global-cell maps), up to `limit`. */
export function tileSolutions(field: Field, tile: Tile, limit: number, extraKnown: readonly number[] = []): Uint8Array[] {
  const problem = tileProblem(tile, field.G);
  const fixed = new Int8Array(problem.nCells).fill(-1);
  for (const g of [...tile.givens, ...extraKnown]) fixed[problem.local(g)] = field.solution[g];
  const solver = new Solver(problem);
  if (!solver.reset(fixed)) return [];
  return (solver.enumerate(limit) ?? []).map((s) => {
    const byCell = new Uint8Array(tile.cellIds.length);
    tile.cellIds.forEach((c, i) => (byCell[i] = s[problem.local(c)]));
    return byCell;
  });
}

/** Checks everything; returns how many tiles were also cross-checked by brute force. */
export function verifyField(field: Field, opts: VerifyOptions = {}): number {
  expect(structuralProblems(field)).toEqual([]);
  const cover = coverCounts(field);
  const coverIds = new Map<number, number[]>();
  for (const t of field.tiles) for (const c of t.cellIds) coverIds.set(c, [...(coverIds.get(c) ?? []), t.id]);
  let bruteChecked = 0;
  for (const tile of field.tiles) {
    // The true solution obeys SPEC §2 inside the tile.
    expect(ruleViolation(tile, field.G, (c) => field.solution[c]), `tile ${tile.id} rules`).toBeNull();
    // Exactly m solutions from the givens alone; one is the truth.
    const sols = tileSolutions(field, tile, tile.m + 1);
    expect(sols.length, `tile ${tile.id} solution count`).toBe(tile.m);
    const truth = Uint8Array.from(tile.cellIds, (c) => field.solution[c]);
    const alternatives = sols.filter((s) => s.some((v, i) => v !== truth[i]));
    expect(alternatives.length).toBe(tile.m - 1);
    // Every alternative differs from the truth on a shared cell.
    for (const alt of alternatives) {
      const differsOnShared = tile.cellIds.some((c, i) => cover[c] >= 2 && alt[i] !== truth[i]);
      expect(differsOnShared, `tile ${tile.id} alternative pinned by a neighbour`).toBe(true);
    }
    // Design property behind playability: the cells shared with neighbours before the tile in
    // reading order (box corner y0, then x0) pin it, and so do those shared with neighbours after.
    if (tile.id >= (opts.pinnedFrom ?? 0)) {
      const before = (o: Tile): boolean => o.y0 < tile.y0 || (o.y0 === tile.y0 && (o.x0 < tile.x0 || (o.x0 === tile.x0 && o.id < tile.id)));
      const sets: number[][] = [[], []];
      for (const c of tile.cellIds) {
        const others = (coverIds.get(c) ?? []).filter((o) => o !== tile.id);
        if (others.some((o) => before(field.tiles[o]))) sets[0].push(c);
        if (others.some((o) => !before(field.tiles[o]))) sets[1].push(c);
      }
      for (const set of sets.filter((x) => x.length > 0)) {
        expect(tileSolutions(field, tile, 2, set).length, `tile ${tile.id} pinned from each side`).toBe(1);
      }
    }
    if (opts.bruteForceUpTo && tile.cellIds.length <= opts.bruteForceUpTo) {
      const fixed = new Map(tile.givens.map((g) => [g, field.solution[g]] as [number, number]));
      expect(bruteForceSolutions(tile, field.G, fixed, tile.m + 1).length, `tile ${tile.id} brute force`).toBe(tile.m);
      bruteChecked++;
    }
  }
  return bruteChecked;
}
