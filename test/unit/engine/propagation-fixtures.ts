import { shapeCellIds, shapeLines } from "../../../src/engine/geometry";
import type { Rect, TileShape } from "../../../src/engine/types";

/** Small random fields with a rule-abiding assignment, for propagation tests. */

export type TestTile = TileShape & { cellIds: number[] };

export interface TestField {
  G: number;
  tiles: TestTile[];
  /** A value per cell satisfying §2 inside every tile (holes hold 0). */
  solution: Uint8Array;
}

/** sfc32, integers only: deterministic test randomness. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** Uniform integer in [0, n), by rejection. */
  int(n: number): number {
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const x = this.next();
      if (x < limit) return x % n;
    }
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }
}

/** A random shape with every line of even length: a rectangle or an L. */
function randomShape(rng: Rng, id: number, G: number): TileShape | null {
  const even = (lo: number, hi: number): number => 2 * (lo / 2 + rng.int(hi / 2 - lo / 2 + 1));
  const w = even(2, 6);
  const h = even(2, 6);
  if (w > G || h > G) return null;
  let rects: Rect[] = [[0, 0, w, h]];
  if (w >= 4 && h >= 4 && rng.int(2) === 0) {
    // L: full-width top part, narrower bottom part (all four arm sizes even).
    const h1 = even(2, h - 2);
    const w1 = even(2, w - 2);
    rects = rng.int(2) === 0 ? [[0, 0, w, h1], [0, h1, w1, h - h1]] : [[0, 0, w, h1], [w - w1, h1, w1, h - h1]];
  }
  return { id, x0: rng.int(G - w + 1), y0: rng.int(G - h + 1), w, h, rects };
}

/**
 * Random tiles on a G×G board and a solution found by a small randomised depth-first
 * search (retrying with another layout when it runs out of budget).
 */
export function randomField(rng: Rng, G: number, tileCount: number): TestField {
  for (;;) {
    const tiles: TestTile[] = [];
    while (tiles.length < tileCount) {
      const shape = randomShape(rng, tiles.length, G);
      if (shape) tiles.push({ ...shape, cellIds: shapeCellIds(shape, G) });
    }
    const solution = solveField(rng, G, tiles, 20_000);
    if (solution) return { G, tiles, solution };
  }
}

interface SearchLine {
  cells: number[];
  siblings: SearchLine[];
}

function solveField(rng: Rng, G: number, tiles: TestTile[], budget: number): Uint8Array | null {
  const linesOf = new Map<number, SearchLine[]>();
  for (const tile of tiles) {
    const lines: (SearchLine & { key: string })[] = shapeLines(tile, G).map((l) => ({
      cells: l.cells,
      siblings: [],
      key: `${l.orientation}${l.cells.length}`,
    }));
    for (const l of lines) l.siblings = lines.filter((o) => o !== l && o.key === l.key);
    for (const l of lines) for (const c of l.cells) linesOf.set(c, [...(linesOf.get(c) ?? []), l]);
  }
  const order = [...linesOf.keys()].sort((a, b) => a - b);
  const value = new Int8Array(G * G).fill(-1);
  let nodes = 0;
  const ok = (cell: number): boolean =>
    (linesOf.get(cell) ?? []).every((line) => {
      const vals = line.cells.map((c) => value[c]);
      const half = vals.length / 2;
      if (vals.filter((x) => x === 0).length > half || vals.filter((x) => x === 1).length > half) return false;
      for (let k = 2; k < vals.length; k++) if (vals[k] !== -1 && vals[k] === vals[k - 1] && vals[k] === vals[k - 2]) return false;
      if (vals.includes(-1)) return true;
      return line.siblings.every((o) => !o.cells.every((c, k) => value[c] === vals[k]));
    });
  const dfs = (i: number): boolean => {
    if (i === order.length) return true;
    if (++nodes > budget) return false;
    const cell = order[i];
    for (const v of rng.int(2) === 0 ? [0, 1] : [1, 0]) {
      value[cell] = v;
      if (ok(cell) && dfs(i + 1)) return true;
    }
    value[cell] = -1;
    return false;
  };
  if (!dfs(0)) return null;
  return Uint8Array.from(value, (x) => (x === -1 ? 0 : x));
}
