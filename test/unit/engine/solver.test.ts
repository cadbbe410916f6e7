import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/engine/random";
import { Solver } from "../../../src/engine/solver";
import { BitSolver } from "../../../src/engine/bit-solver";
import { tileProblem } from "../../../src/engine/tile-problem";
import { shapeCatalogue } from "../../../src/engine/generate/shapes";
import type { Rect, Tile } from "../../../src/engine/types";
import { bruteForceSolutions, ruleViolation } from "./field-checks";

const square = (n: number): Tile => ({ id: 0, x0: 0, y0: 0, w: n, h: n, rects: [[0, 0, n, n]], cellIds: [], m: 2, givens: [] });

function freeSolver(tile: Tile, G: number): Solver {
  const solver = new Solver(tileProblem(tile, G));
  solver.reset(new Int8Array(solver.p.nCells).fill(-1));
  return solver;
}

describe("bitset solver self-checks", () => {
  const freeBits = (n: number): BitSolver => {
    const solver = new BitSolver(tileProblem(square(n), n));
    solver.reset(new Int8Array(solver.p.nCells).fill(-1));
    return solver;
  };
  it("counts 72 (4×4) and 4140 (6×6)", () => {
    expect(freeBits(4).count(1000)).toBe(72);
    expect(freeBits(6).count(100000)).toBe(4140);
  });
  it("finds valid random solutions of a 16×16", () => {
    const solver = freeBits(16);
    expect(solver.solveRandom(new Rng(3, 1, 4, 1))).toBe(true);
    expect(ruleViolation(square(16), 16, (c) => solver.val[solver.p.local(c)])).toBeNull();
  });
});

describe("solver self-checks (OEIS A253316)", () => {
  it("counts 72 solutions of the full 4×4", () => {
    expect(freeSolver(square(4), 4).count(1000)).toBe(72);
  });
  it("counts 4140 solutions of the full 6×6", () => {
    expect(freeSolver(square(6), 6).count(100000)).toBe(4140);
  });
  it("stops counting at the limit", () => {
    expect(freeSolver(square(8), 8).count(5)).toBe(5);
  });
});

describe("solver against brute force", () => {
  it("agrees on small shapes with random fixed cells", () => {
    const rng = new Rng(11, 22, 33, 44);
    const small = shapeCatalogue().filter((e) => e.info.cells <= 40);
    let checked = 0;
    for (let trial = 0; trial < 60; trial++) {
      const { draft } = small[rng.int(small.length)];
      const G = 20;
      const tile: Tile = { id: 0, x0: 1, y0: 2, w: draft.w, h: draft.h, rects: draft.rects as Rect[], cellIds: [], m: 2, givens: [] };
      const problem = tileProblem(tile, G);
      // Fix cells from a real solution so that counts are usually small but non-zero.
      const base = new Solver(problem);
      base.reset(new Int8Array(problem.nCells).fill(-1));
      if (!base.solveRandom(rng)) continue;
      const truth = Int8Array.from(base.val);
      const fixed = new Int8Array(problem.nCells).fill(-1);
      const keep = rng.range(0, Math.floor(problem.nCells / 2));
      const order = rng.shuffle(Array.from({ length: problem.nCells }, (_, i) => i));
      const fixedMap = new Map<number, number>();
      for (const i of order.slice(0, keep)) {
        fixed[i] = truth[i];
        fixedMap.set(problem.cellIds[i], truth[i]);
      }
      const solver = new Solver(problem);
      solver.reset(fixed);
      const n = solver.count(400);
      const brute = bruteForceSolutions(tile, G, fixedMap, 400);
      expect(n).toBe(brute.length);
      const bits = new BitSolver(problem);
      bits.reset(fixed);
      expect(bits.count(400)).toBe(brute.length);
      // Every enumerated solution obeys the rules and they are pairwise distinct.
      const sols = solver.enumerate(50) ?? [];
      const keys = new Set(sols.map((s) => s.join("")));
      expect(keys.size).toBe(sols.length);
      for (const s of sols) {
        expect(ruleViolation(tile, G, (c) => s[problem.local(c)])).toBeNull();
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("finds random solutions that obey the rules, and respects a node budget", () => {
    const tile = square(14);
    const problem = tileProblem(tile, 14);
    const solver = new Solver(problem);
    const rng = new Rng(5, 6, 7, 8);
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      solver.reset(new Int8Array(problem.nCells).fill(-1));
      expect(solver.solveRandom(rng)).toBe(true);
      expect(ruleViolation(tile, 14, (c) => solver.val[problem.local(c)])).toBeNull();
      seen.add(Array.from(solver.val).join(""));
    }
    expect(seen.size).toBe(5);
    solver.reset(new Int8Array(problem.nCells).fill(-1));
    expect(solver.count(1_000_000, 10)).toBe(-1);
    expect(solver.aborted).toBe(true);
  });
});
