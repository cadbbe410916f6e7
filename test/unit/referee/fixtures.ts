/**
 * Small hand-made fields for referee tests: shapes placed by hand, a true solution found by a
 * plain backtracking search (every tile obeys SPEC §2, shared cells agree), givens picked by a
 * fixed pattern. The referee does not depend on a tile's exact ambiguity, so `m` is only the
 * class of the cell count here.
 */
import { shapeCellIds, shapeLines } from "../../../src/engine/geometry";
import { mForCellCount, type Field, type Rect, type Tile, type TileShape } from "../../../src/engine/types";

export interface ShapeSpec {
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects?: Rect[];
}

export interface FixtureOptions {
  /** Every k-th cell of a tile (in its own order, offset by the tile id) is a given. */
  givenEvery?: number;
  /** Explicit givens per tile id (overrides givenEvery for that tile). */
  givens?: Record<number, number[]>;
  /** Salt for the solution search order. */
  salt?: number;
}

export function buildField(G: number, specs: ShapeSpec[], opts: FixtureOptions = {}): Field {
  const shapes: TileShape[] = specs.map((s, id) => ({ id, x0: s.x0, y0: s.y0, w: s.w, h: s.h, rects: s.rects ?? [[0, 0, s.w, s.h]] }));
  const solution = solveField(G, shapes, opts.salt ?? 1);
  if (!solution) throw new Error("fixture has no solution");
  const every = opts.givenEvery ?? 3;
  const tiles: Tile[] = shapes.map((shape) => {
    const cellIds = shapeCellIds(shape, G);
    const givens = opts.givens?.[shape.id] ?? cellIds.filter((_, i) => (i + shape.id) % every === 0);
    return { ...shape, cellIds, m: mForCellCount(cellIds.length), givens: [...givens].sort((a, b) => a - b) };
  });
  return { G, tiles, solution };
}

/** A grid of n×n tiles overlapping by one row/column: `k` tiles a side, G = k(n-1)+1. */
export function gridField(n: number, k: number, opts: FixtureOptions = {}): Field {
  const specs: ShapeSpec[] = [];
  for (let ty = 0; ty < k; ty++) for (let tx = 0; tx < k; tx++) specs.push({ x0: tx * (n - 1), y0: ty * (n - 1), w: n, h: n });
  return buildField(k * (n - 1) + 1, specs, opts);
}

/** A row of n×n tiles overlapping by one column (a chain: tile i meets tiles i±1 only). */
export function chainField(n: number, count: number, opts: FixtureOptions = {}): Field {
  const specs: ShapeSpec[] = [];
  for (let i = 0; i < count; i++) specs.push({ x0: i * (n - 1), y0: 0, w: n, h: n });
  return buildField(count * (n - 1) + 1, specs, opts);
}

/**
 * A scatter-like field on G = 14: rectangles, an L and a plus, overlaps of one to a dozen cells,
 * and holes (cells no tile covers).
 */
export function scatterField(opts: FixtureOptions = {}): Field {
  return buildField(
    14,
    [
      { x0: 0, y0: 0, w: 4, h: 4 },
      { x0: 3, y0: 0, w: 4, h: 4, rects: [[0, 0, 4, 2], [0, 2, 2, 2]] }, // an L
      { x0: 6, y0: 0, w: 6, h: 4 },
      { x0: 0, y0: 3, w: 4, h: 4 },
      { x0: 4, y0: 4, w: 8, h: 8, rects: [[2, 0, 4, 8], [0, 2, 8, 4]] }, // a plus
      { x0: 9, y0: 3, w: 4, h: 4 },
      { x0: 0, y0: 8, w: 6, h: 4 },
      { x0: 8, y0: 10, w: 6, h: 4 },
    ],
    opts,
  );
}

// ---- solution search ----

interface LineRec {
  cells: number[];
  orientation: "h" | "v";
  tile: number;
}

function solveField(G: number, shapes: TileShape[], salt: number): Uint8Array | null {
  const value = new Int8Array(G * G).fill(-1);
  const tileLines: LineRec[][] = shapes.map((s) => shapeLines(s, G).map((l) => ({ cells: l.cells, orientation: l.orientation, tile: s.id })));
  const linesOfCell = new Map<number, LineRec[]>();
  for (const lines of tileLines) for (const l of lines) for (const c of l.cells) linesOfCell.set(c, [...(linesOfCell.get(c) ?? []), l]);
  const order: number[] = [];
  const seen = new Set<number>();
  for (const s of shapes) for (const c of shapeCellIds(s, G)) if (!seen.has(c)) (seen.add(c), order.push(c));
  let state = salt * 2654435761;
  const prefer = order.map(() => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 1) | 0;
    return (state >>> 7) & 1;
  });
  let steps = 0;
  const ok = (c: number): boolean => {
    for (const l of linesOfCell.get(c) ?? []) if (!linePartialOk(l, value, tileLines[l.tile])) return false;
    return true;
  };
  const walk = (i: number): boolean => {
    if (i === order.length) return true;
    if (++steps > 5_000_000) return false;
    const c = order[i];
    for (const v of [prefer[i], 1 - prefer[i]]) {
      value[c] = v;
      if (ok(c) && walk(i + 1)) return true;
    }
    value[c] = -1;
    return false;
  };
  if (!walk(0)) return null;
  const out = new Uint8Array(G * G);
  for (let c = 0; c < out.length; c++) out[c] = value[c] === 1 ? 1 : 0;
  return out;
}

function linePartialOk(l: LineRec, value: Int8Array, siblings: LineRec[]): boolean {
  const n = l.cells.length;
  let zeros = 0;
  let ones = 0;
  for (let i = 0; i < n; i++) {
    const v = value[l.cells[i]];
    if (v === 0) zeros++;
    else if (v === 1) ones++;
    if (i >= 2 && v !== -1 && v === value[l.cells[i - 1]] && v === value[l.cells[i - 2]]) return false;
  }
  if (zeros > n / 2 || ones > n / 2) return false;
  if (zeros + ones === n) {
    for (const o of siblings) {
      if (o === l || o.orientation !== l.orientation || o.cells.length !== n) continue;
      let same = true;
      for (let i = 0; i < n && same; i++) same = value[o.cells[i]] === value[l.cells[i]];
      if (same) return false;
    }
  }
  return true;
}
