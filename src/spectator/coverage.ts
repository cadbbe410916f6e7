import type { TileGeometry } from "./types";

/**
 * Which known tiles cover each cell. Unlike the engine's index, tiles may arrive in any order: a
 * spectator under fog learns geometry as tiles are reached. Most cells have one tile, so the
 * first lives in a typed array and the rest in a map. Queries allocate nothing per cell: a page
 * rebuilds reach for 12,000 tiles from a snapshot in a few milliseconds.
 */
export class TileCoverage {
  private readonly first: Int32Array;
  private readonly extra = new Map<number, number[]>();
  /** Per-tile marks for de-duplicating neighbours without a Set. */
  private stamp = new Int32Array(0);
  private epoch = 0;

  constructor(readonly G: number) {
    this.first = new Int32Array(G * G).fill(-1);
  }

  add(t: TileGeometry): void {
    forEachCell(t, this.G, (cell) => {
      const head = this.first[cell];
      if (head === -1) this.first[cell] = t.id;
      else if (head !== t.id) {
        const more = this.extra.get(cell);
        if (!more) this.extra.set(cell, [t.id]);
        else if (!more.includes(t.id)) more.push(t.id);
      }
    });
  }

  /** Known tiles covering a cell (in arrival order; empty for a hole or an unreached area). */
  tilesAt(cell: number): number[] {
    const head = this.first[cell];
    if (head === -1 || head === undefined) return [];
    const more = this.extra.get(cell);
    return more ? [head, ...more] : [head];
  }

  /** Known tiles sharing a cell with `t`, ascending. */
  neighbours(t: TileGeometry): number[] {
    const out: number[] = [];
    const epoch = this.nextEpoch();
    const visit = (other: number): void => {
      if (other === t.id) return;
      if (other >= this.stamp.length) this.growStamp(other + 1);
      if (this.stamp[other] === epoch) return;
      this.stamp[other] = epoch;
      out.push(other);
    };
    forEachCell(t, this.G, (cell) => {
      const head = this.first[cell];
      if (head === -1) return;
      visit(head);
      const more = this.extra.get(cell);
      if (more) for (const o of more) visit(o);
    });
    return out.sort((a, b) => a - b);
  }

  private nextEpoch(): number {
    if (++this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  private growStamp(n: number): void {
    const next = new Int32Array(Math.max(n, this.stamp.length * 2, 1024));
    next.set(this.stamp);
    this.stamp = next;
  }
}

/** Every cell of a tile's rectangles (a cell in two overlapping rectangles is visited twice). */
function forEachCell(t: TileGeometry, G: number, fn: (cell: number) => void): void {
  for (const [rx, ry, rw, rh] of t.rects) {
    for (let y = t.y0 + ry; y < t.y0 + ry + rh; y++) {
      const row = y * G + t.x0 + rx;
      for (let x = 0; x < rw; x++) fn(row + x);
    }
  }
}
