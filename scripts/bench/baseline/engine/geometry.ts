import type { Rect, TileShape } from "./types";

/** A maximal horizontal or vertical run of one tile's cells (SPEC §1 "line"). */
export interface Line {
  orientation: "h" | "v";
  /** Global cell ids in order along the line. */
  cells: number[];
}

/** Does local box position (lx, ly) belong to the union of rects? */
export function rectsCover(rects: readonly Rect[], lx: number, ly: number): boolean {
  for (const [rx, ry, rw, rh] of rects) {
    if (lx >= rx && lx < rx + rw && ly >= ry && ly < ry + rh) return true;
  }
  return false;
}

/** The tile's shape as a row-major mask over its bounding box (1 = covered). */
export function shapeMask(shape: TileShape): Uint8Array {
  const mask = new Uint8Array(shape.w * shape.h);
  for (const [rx, ry, rw, rh] of shape.rects) {
    for (let y = ry; y < ry + rh; y++) mask.fill(1, y * shape.w + rx, y * shape.w + rx + rw);
  }
  return mask;
}

/** Global cell ids of a shape, ascending. */
export function shapeCellIds(shape: TileShape, G: number): number[] {
  const mask = shapeMask(shape);
  const ids: number[] = [];
  for (let ly = 0; ly < shape.h; ly++) {
    for (let lx = 0; lx < shape.w; lx++) {
      if (mask[ly * shape.w + lx]) ids.push((shape.y0 + ly) * G + shape.x0 + lx);
    }
  }
  return ids;
}

/** Every line of a shape: horizontal runs row by row, then vertical runs column by column. */
export function shapeLines(shape: TileShape, G: number): Line[] {
  const mask = shapeMask(shape);
  const lines: Line[] = [];
  for (let ly = 0; ly < shape.h; ly++) {
    let run: number[] = [];
    for (let lx = 0; lx <= shape.w; lx++) {
      if (lx < shape.w && mask[ly * shape.w + lx]) run.push((shape.y0 + ly) * G + shape.x0 + lx);
      else if (run.length) {
        lines.push({ orientation: "h", cells: run });
        run = [];
      }
    }
  }
  for (let lx = 0; lx < shape.w; lx++) {
    let run: number[] = [];
    for (let ly = 0; ly <= shape.h; ly++) {
      if (ly < shape.h && mask[ly * shape.w + lx]) run.push((shape.y0 + ly) * G + shape.x0 + lx);
      else if (run.length) {
        lines.push({ orientation: "v", cells: run });
        run = [];
      }
    }
  }
  return lines;
}

/**
 * Which tiles cover which cells, for a field that may grow (tiles are only appended).
 * Most cells have one tile, so the first lives in a typed array and the rest in a map.
 */
export class CoverageIndex {
  readonly G: number;
  private readonly first: Int32Array;
  private readonly extra = new Map<number, number[]>();
  private readonly tileCells: number[][] = [];

  constructor(G: number) {
    this.G = G;
    this.first = new Int32Array(G * G).fill(-1);
  }

  /** Register a tile's cells; tile ids must be appended in order 0, 1, 2, … */
  addTile(tileId: number, cellIds: readonly number[]): void {
    if (tileId !== this.tileCells.length) throw new Error(`tile ${tileId} added out of order`);
    this.tileCells.push([...cellIds]);
    for (const cell of cellIds) {
      if (this.first[cell] === -1) this.first[cell] = tileId;
      else {
        const more = this.extra.get(cell);
        if (more) more.push(tileId);
        else this.extra.set(cell, [tileId]);
      }
    }
  }

  get tileCount(): number {
    return this.tileCells.length;
  }

  /** Tiles covering a cell, ascending by id (empty for a hole). */
  tilesOf(cell: number): number[] {
    const head = this.first[cell];
    if (head === -1 || head === undefined) return [];
    const more = this.extra.get(cell);
    return more ? [head, ...more] : [head];
  }

  isCovered(cell: number): boolean {
    return this.first[cell] !== -1;
  }

  /** Tiles sharing at least one cell with the given tile, ascending (SPEC §1 "neighbours"). */
  neighbours(tileId: number): number[] {
    const seen = new Set<number>();
    for (const cell of this.tileCells[tileId] ?? []) {
      for (const other of this.tilesOf(cell)) if (other !== tileId) seen.add(other);
    }
    return [...seen].sort((a, b) => a - b);
  }

  /** Cells of a tile that some other tile also covers (SPEC §1 "shared cell"). */
  sharedCells(tileId: number): number[] {
    return (this.tileCells[tileId] ?? []).filter((cell) => this.extra.has(cell) || this.first[cell] !== tileId);
  }
}
