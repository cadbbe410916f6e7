import { describe, expect, it } from "vitest";
import { shapeCellIds } from "../../../src/engine/geometry";
import { Propagator } from "../../../src/engine/propagation";
import type { PropagationDepth } from "../../../src/engine/propagation/types";
import { ReferencePropagator } from "../../../src/engine/propagation-reference";
import type { Rect } from "../../../src/engine/types";
import { randomField, Rng } from "./propagation-fixtures";

const G = 8;
const id = (x: number, y: number): number => y * G + x;

function tile(tid: number, x0: number, y0: number, w: number, h: number, rects: Rect[] = [[0, 0, w, h]]) {
  const shape = { id: tid, x0, y0, w, h, rects };
  return { ...shape, cellIds: shapeCellIds(shape, G) };
}

/** A propagator with the given tiles added and revealed. */
function board(depth: PropagationDepth, ...tiles: ReturnType<typeof tile>[]): Propagator {
  const p = new Propagator(G, depth);
  for (const t of tiles) p.addTile(t);
  for (const t of tiles) p.reveal(t.id);
  return p;
}

function known(p: Propagator, cells: [number, number, 0 | 1][]): void {
  for (const [x, y, v] of cells) p.setKnown(id(x, y), v);
}

describe("the three rules (SPEC §4.5)", () => {
  it("run: two equal in a row exclude that value next to them; balance completes the line", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0]]);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 1, rule: "run" }); // balance applies too: run ranks first
    expect(p.forcedValue(id(3, 0))).toEqual({ value: 1, rule: "balance" });
    expect(p.forcedValue(id(0, 1))).toBeNull();
  });

  it("run in the middle position: x _ x", () => {
    const p = board(0, tile(0, 0, 0, 6, 4));
    known(p, [[1, 0, 1], [3, 0, 1]]);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 0, rule: "run" });
  });

  it("balance: a line holding len/2 of a value", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 1], [2, 0, 0]]);
    expect(p.forcedValue(id(3, 0))).toEqual({ value: 1, rule: "balance" });
  });

  it("unique: two blanks, balance fills the other, the result would copy a complete line", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    // Row 0 complete: 0 1 1 0. Row 1: _ 1 _ 0 — a 0 at x=0 would force 1 at x=2: a copy of row 0.
    known(p, [[0, 0, 0], [1, 0, 1], [2, 0, 1], [3, 0, 0], [1, 1, 1], [3, 1, 0]]);
    expect(p.forcedValue(id(0, 1))).toEqual({ value: 1, rule: "unique" });
    expect(p.forcedValue(id(2, 1))).toEqual({ value: 0, rule: "unique" });
  });

  it("unique on lines of two: the copy of a complete pair is excluded", () => {
    // An L: two rows of 4 on top, two rows of 2 below (every line even).
    const p = board(0, tile(0, 0, 0, 4, 4, [[0, 0, 4, 2], [0, 2, 2, 2]]));
    known(p, [[0, 2, 0], [1, 2, 1]]);
    expect(p.forcedValue(id(0, 3))).toEqual({ value: 1, rule: "unique" });
    expect(p.forcedValue(id(1, 3))).toEqual({ value: 0, rule: "unique" });
  });

  it("unique compares lines of one tile only", () => {
    const p = board(0, tile(0, 0, 0, 4, 4), tile(1, 4, 4, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 1], [2, 0, 1], [3, 0, 0], [5, 4, 1], [7, 4, 0]]);
    expect(p.forcedValue(id(4, 4))).toBeNull();
    expect(p.forcedValue(id(6, 4))).toBeNull();
  });

  it("a known cell, a hole and an untouched cell are never forced", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0]]);
    expect(p.forcedValue(id(0, 0))).toBeNull();
    expect(p.forcedValue(id(6, 6))).toBeNull();
    expect(p.forcedValue(id(3, 3))).toBeNull();
    expect(p.forcedValue(-1)).toBeNull();
    expect(p.forcedValue(G * G)).toBeNull();
  });
});

describe("tiles, sharing and changes", () => {
  it("fixed values cross into a neighbour through a shared cell, only once it is revealed", () => {
    const a = tile(0, 0, 0, 4, 4);
    const b = tile(1, 3, 0, 4, 4); // shares column x = 3
    const p = new Propagator(G, 0);
    p.addTile(a);
    p.addTile(b);
    p.reveal(0);
    known(p, [[0, 0, 0], [1, 0, 0], [4, 0, 1]]);
    expect(p.forcedValue(id(3, 0))).toEqual({ value: 1, rule: "balance" });
    expect(p.forcedValue(id(5, 0))).toBeNull(); // tile 1 is not revealed: its lines do not constrain
    p.reveal(1);
    expect(p.forcedValue(id(5, 0))).toEqual({ value: 0, rule: "run" }); // 1 1 _ in tile 1's row
  });

  it("a retraction removes what depended on the cell, and only that", () => {
    const p = board(0, tile(0, 0, 0, 4, 4), tile(1, 4, 4, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0], [4, 4, 1], [5, 4, 1]]);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 1, rule: "run" });
    expect(p.forcedValue(id(6, 4))).toEqual({ value: 0, rule: "run" });
    p.clearKnown(id(1, 0));
    expect(p.forcedValue(id(2, 0))).toBeNull();
    expect(p.forcedValue(id(3, 0))).toBeNull();
    expect(p.forcedValue(id(6, 4))).toEqual({ value: 0, rule: "run" });
    p.setKnown(id(1, 0), 0);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 1, rule: "run" });
  });

  it("committing a forced cell keeps the other answers", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0]]);
    // (3,0) is fixed by balance once (2,0) is fixed; known, nothing changes in value.
    p.setKnown(id(2, 0), 1);
    expect(p.forcedValue(id(3, 0))).toEqual({ value: 1, rule: "balance" });
  });

  it("tiles can be appended after play started; ids must come in order", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0]]);
    expect(() => p.addTile(tile(2, 4, 0, 4, 4))).toThrow(/order/);
    p.addTile(tile(1, 3, 0, 4, 4));
    p.reveal(1);
    p.setKnown(id(4, 0), 1);
    expect(p.forcedValue(id(5, 0))).toEqual({ value: 0, rule: "run" });
  });
});

describe("bad and contradictory input", () => {
  it("contradictory known cells: reported, every answer null, and undone by a retraction", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 1], [1, 0, 1], [0, 2, 0]]);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 0, rule: "run" });
    p.setKnown(id(2, 0), 1); // three 1s in a row
    expect(p.contradiction).toBe(true);
    expect(p.forcedValue(id(3, 0))).toBeNull();
    expect(p.forcedValue(id(0, 1))).toBeNull();
    p.clearKnown(id(2, 0));
    expect(p.contradiction).toBe(false);
    expect(p.forcedValue(id(2, 0))).toEqual({ value: 0, rule: "run" });
  });

  it("repeated and redundant calls change nothing", () => {
    const p = board(0, tile(0, 0, 0, 4, 4));
    known(p, [[0, 0, 0], [1, 0, 0]]);
    const before = Array.from({ length: G * G }, (_, c) => p.forcedValue(c));
    p.reveal(0);
    p.setKnown(id(1, 0), 0);
    p.clearKnown(id(5, 5)); // never known
    expect(Array.from({ length: G * G }, (_, c) => p.forcedValue(c))).toEqual(before);
    // Replacing a known value withdraws the old one first.
    p.setKnown(id(1, 0), 1);
    expect(p.forcedValue(id(2, 0))).toBeNull();
    expect(p.contradiction).toBe(false);
  });

  it("refuses what is not a field, a depth or a tile of even lines", () => {
    expect(() => new Propagator(G, 3 as PropagationDepth)).toThrow(/depth/);
    const p = new Propagator(G, 0);
    expect(() => p.setKnown(G * G, 0)).toThrow(RangeError);
    expect(() => p.setKnown(0, 2 as 0)).toThrow(/0 or 1/);
    expect(() => p.addTile({ ...tile(0, 0, 0, 2, 2), cellIds: [G * G] })).toThrow(/out of range/);
    expect(() => p.addTile({ ...tile(0, 0, 0, 2, 2), cellIds: [0, 1, 8] })).toThrow(/do not match/);
    p.addTile(tile(0, 0, 0, 3, 2));
    expect(() => p.reveal(0)).toThrow(/odd length/);
    expect(() => p.reveal(5)).toThrow(/unknown tile/);
  });
});

describe("bifurcation", () => {
  /**
   * Whatever depth d fixes that depth d - 1 does not must be what bifurcation means: next to
   * everything else depth d fixes, assuming the other value makes propagation at depth d - 1
   * end in a contradiction.
   */
  function checkDepth(depth: 1 | 2, seeds: number, G2: number, tiles: number): number {
    let found = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const rng = new Rng(7000 + 31 * depth + seed);
      const field = randomField(rng, G2, tiles);
      const deep = new Propagator(G2, depth);
      const shallow = new Propagator(G2, (depth - 1) as PropagationDepth);
      for (const p of [deep, shallow]) for (const t of field.tiles) p.addTile(t);
      for (const p of [deep, shallow]) for (const t of field.tiles) p.reveal(t.id);
      const cells = rng.shuffle([...new Set(field.tiles.flatMap((t) => t.cellIds))]);
      const given = cells.slice(0, Math.floor(cells.length * 0.35));
      for (const c of given) for (const p of [deep, shallow]) p.setKnown(c, field.solution[c] as 0 | 1);
      for (const c of cells) {
        const d = deep.forcedValue(c);
        if (!d || shallow.forcedValue(c)) continue;
        found++;
        expect(d.rule).toBe("bifurcation");
        expect(d.value).toBe(field.solution[c]);
        const trial = new ReferencePropagator(G2, (depth - 1) as PropagationDepth);
        for (const t of field.tiles) trial.addTile(t);
        for (const t of field.tiles) trial.reveal(t.id);
        for (const g of given) trial.setKnown(g, field.solution[g] as 0 | 1);
        for (const o of cells) {
          const f = o === c ? null : deep.forcedValue(o);
          if (f) trial.setKnown(o, f.value);
        }
        trial.setKnown(c, (1 - d.value) as 0 | 1);
        expect(trial.contradiction, `seed ${seed} cell ${c}`).toBe(true);
        if (found > 12) return found;
      }
    }
    return found;
  }

  it("depth 1 fixes a cell exactly when its other value contradicts depth-0 propagation", () => {
    expect(checkDepth(1, 20, 10, 3)).toBeGreaterThan(0);
  });

  it("depth 2 goes beyond depth 1 the same way", () => {
    expect(checkDepth(2, 12, 8, 2)).toBeGreaterThan(0);
  });
});
