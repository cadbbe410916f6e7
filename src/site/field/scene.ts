import { PIXELS } from "../palette";
import { SceneTiles, RANK_OF_STATUS, SOLVED_RANK, type SceneTile, type TileShape, type TileStatus } from "./scene-tiles";

export type { SceneTile, TileShape, TileStatus };

const REJECTED = 1;

/**
 * The field as pixels: one entry per cell in typed arrays, mirrored into a G×G ImageData (one
 * pixel per cell) through a Uint32Array view. Every change marks a dirty rectangle; `flush`
 * pushes only that rectangle to the board canvas. Overlays (outlines, marks, labels) are drawn
 * in screen space by the view, from the same arrays.
 */
export class FieldScene {
  readonly G: number;
  /** Every tile the page knows, in columns (objects on demand). */
  readonly tiles = new SceneTiles();
  /** The tile each cell shows (the highest status, then the highest id: `shows`), -1 for none known. */
  readonly cellTile: Int32Array;
  /** 0 nothing known, 1 hidden, 2 revealed, 3 solved: the highest status over covering tiles. */
  readonly cellStatus: Uint8Array;
  /** -1 unknown, else the accepted value. */
  readonly cellValue: Int8Array;
  readonly cellFlags: Uint8Array;
  readonly image: ImageData;
  private readonly pixels: Uint32Array;
  private dirty: [number, number, number, number] | null = null;
  /** Bumped on every change, so views can tell when to redraw. */
  version = 0;
  /** Tile ids by 32×32-cell bucket, built when first asked for (labels, hit tests of many tiles). */
  private buckets: Array<number[] | undefined> | null = null;
  private readonly bucketsPerRow: number;
  static readonly BUCKET = 32;

  constructor(G: number) {
    this.G = G;
    const n = G * G;
    this.cellTile = new Int32Array(n).fill(-1);
    this.cellStatus = new Uint8Array(n);
    this.cellValue = new Int8Array(n).fill(-1);
    this.cellFlags = new Uint8Array(n);
    this.image = new ImageData(G, G);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.bucketsPerRow = Math.ceil(G / FieldScene.BUCKET);
  }

  /**
   * Many tiles at once, once they are in `tiles` (a snapshot's columns, a rebuilt replay): cell
   * ownership tile by tile in id order, then one paint per cell of the field and one dirty
   * rectangle, instead of painting every tile's cells as it comes.
   */
  coverAll(timings: Record<string, number> = {}): void {
    const started = performance.now();
    const { G, cellStatus, cellTile } = this;
    const { rank, x0, y0, w, h, rectAt, rectData } = this.tiles;
    // A shared cell shows its most advanced tile, the highest id among equals (`shows`, inlined
    // here: this is the first paint's inner loop, a million cells at G = 1000). Ids ascend, so
    // `>=` lets the later tile win a tie.
    const cover = (id: number, r: number, x: number, y: number, rw: number, rh: number): void => {
      for (let row = y; row < y + rh; row++) {
        const end = row * G + x + rw;
        for (let c = row * G + x; c < end; c++) {
          if (r >= cellStatus[c]) {
            cellStatus[c] = r;
            cellTile[c] = id;
          }
        }
      }
    };
    for (let id = 0; id < rank.length; id++) {
      const r = rank[id];
      if (r === 0) continue;
      const at = rectAt[id];
      if (at < 0) cover(id, r, x0[id], y0[id], w[id], h[id]);
      else for (let k = 0, o = at + 1; k < rectData[at]; k++, o += 4) cover(id, r, x0[id] + rectData[o], y0[id] + rectData[o + 1], rectData[o + 2], rectData[o + 3]);
    }
    this.buckets = null;
    const covered = performance.now();
    this.paintAll();
    timings.cover = covered - started;
    timings.paint = performance.now() - covered;
    this.markDirty(0, 0, G, G);
  }

  /** Adds a tile or updates its status/solver; statuses only rise (a rewind builds a new scene). */
  upsertTile(tile: TileShape & { status: TileStatus; agent: string | null }): void {
    const known = this.tiles.has(tile.id);
    this.tiles.set(tile, tile.status, tile.agent);
    if (!known) this.index(tile.id);
    const rank = RANK_OF_STATUS[tile.status];
    const id = tile.id;
    this.tiles.forEachSpan(id, this.G, (start, end) => {
      for (let c = start; c < end; c++) {
        if (this.shows(c, id, rank)) {
          this.cellStatus[c] = rank;
          this.cellTile[c] = id;
          this.paint(c);
        }
      }
    });
    this.markDirty(tile.x0, tile.y0, tile.w, tile.h);
  }

  /**
   * Whether tile `id` at status `rank` is the one cell `c` shows: the most advanced tile, the
   * highest id among equals. The rule depends on the tiles alone, never on the order events came
   * in, so a scene kept up event by event equals one rebuilt from the model (`coverAll`).
   */
  private shows(c: number, id: number, rank: number): boolean {
    const current = this.cellStatus[c];
    return rank > current || (rank === current && id >= this.cellTile[c]);
  }

  setValue(cell: number, value: number | null): void {
    const v = value === null ? -1 : value;
    if (this.cellValue[cell] === v) return;
    this.cellValue[cell] = v;
    this.paint(cell);
    this.markDirty(cell % this.G, Math.floor(cell / this.G), 1, 1);
  }

  markRejected(cell: number): void {
    this.setRejected(cell, true);
  }

  setRejected(cell: number, on: boolean): void {
    if (((this.cellFlags[cell] & REJECTED) !== 0) === on) return;
    this.cellFlags[cell] = on ? this.cellFlags[cell] | REJECTED : this.cellFlags[cell] & ~REJECTED;
    this.paint(cell);
    this.markDirty(cell % this.G, Math.floor(cell / this.G), 1, 1);
  }

  /** Every cell's value (-1 unknown) and rejection mark at once; painted by the next coverAll. */
  loadCells(values: ArrayLike<number>, rejected?: ArrayLike<number>): void {
    this.cellValue.set(values);
    if (rejected) for (let c = 0; c < rejected.length; c++) this.cellFlags[c] = rejected[c] ? this.cellFlags[c] | REJECTED : this.cellFlags[c] & ~REJECTED;
  }

  /** Rejection marks on cells given as ascending gaps (a snapshot's columns); painted by the next coverAll. */
  loadRejectedGaps(gaps: readonly number[]): void {
    let c = 0;
    for (let i = 0; i < gaps.length; i++) {
      c += gaps[i];
      if (c >= 0 && c < this.cellFlags.length) this.cellFlags[c] |= REJECTED;
    }
  }

  isRejected(cell: number): boolean {
    return (this.cellFlags[cell] & REJECTED) !== 0;
  }

  tileAt(x: number, y: number): SceneTile | undefined {
    if (x < 0 || y < 0 || x >= this.G || y >= this.G) return undefined;
    const id = this.cellTile[y * this.G + x];
    return id < 0 ? undefined : this.tiles.get(id);
  }

  /** Tiles whose bounding boxes meet the cell rectangle [x0, x1) × [y0, y1). */
  tilesIn(x0: number, y0: number, x1: number, y1: number, limit = Infinity): SceneTile[] {
    const B = FieldScene.BUCKET;
    const { tiles } = this;
    const buckets = this.bucketIndex();
    const seen = new Set<number>();
    const out: SceneTile[] = [];
    const bx0 = Math.max(0, Math.floor(x0 / B));
    const by0 = Math.max(0, Math.floor(y0 / B));
    const bx1 = Math.min(this.bucketsPerRow - 1, Math.floor((x1 - 1) / B));
    const by1 = Math.min(this.bucketsPerRow - 1, Math.floor((y1 - 1) / B));
    for (let by = by0; by <= by1; by++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        for (const id of buckets[by * this.bucketsPerRow + bx] ?? []) {
          if (seen.has(id)) continue;
          seen.add(id);
          const tx = tiles.x0[id];
          const ty = tiles.y0[id];
          if (tx < x1 && tx + tiles.w[id] > x0 && ty < y1 && ty + tiles.h[id] > y0) {
            out.push(tiles.get(id) as SceneTile);
            if (out.length >= limit) return out;
          }
        }
      }
    }
    return out;
  }

  /** The dirty rectangle since the last call (x, y, w, h), or null. */
  takeDirty(): [number, number, number, number] | null {
    const d = this.dirty;
    this.dirty = null;
    return d ? [d[0], d[1], d[2] - d[0], d[3] - d[1]] : null;
  }

  private bucketIndex(): Array<number[] | undefined> {
    if (!this.buckets) {
      this.buckets = new Array<number[] | undefined>(this.bucketsPerRow * this.bucketsPerRow);
      for (const id of this.tiles.keys()) this.index(id);
    }
    return this.buckets;
  }

  private index(id: number): void {
    const buckets = this.buckets;
    if (!buckets) return;
    const B = FieldScene.BUCKET;
    const { x0, y0, w, h } = this.tiles;
    for (let by = Math.floor(y0[id] / B); by <= Math.floor((y0[id] + h[id] - 1) / B); by++) {
      for (let bx = Math.floor(x0[id] / B); bx <= Math.floor((x0[id] + w[id] - 1) / B); bx++) {
        const key = by * this.bucketsPerRow + bx;
        const list = buckets[key];
        if (list) list.push(id);
        else buckets[key] = [id];
      }
    }
  }

  private markDirty(x: number, y: number, w: number, h: number): void {
    this.version++;
    const d = this.dirty;
    if (!d) this.dirty = [x, y, x + w, y + h];
    else {
      d[0] = Math.min(d[0], x);
      d[1] = Math.min(d[1], y);
      d[2] = Math.max(d[2], x + w);
      d[3] = Math.max(d[3], y + h);
    }
  }

  /** Every cell's pixel, row by row (after a bulk load). */
  private paintAll(): void {
    const G = this.G;
    for (let y = 0, c = 0; y < G; y++) for (let x = 0; x < G; x++, c++) this.pixels[c] = this.pixelOf(c, x, y);
  }

  private paint(c: number): void {
    const x = c % this.G;
    this.pixels[c] = this.pixelOf(c, x, (c - x) / this.G);
  }

  /** The pixel of one cell from its status, solver, value and flags. */
  private pixelOf(c: number, x: number, y: number): number {
    const status = this.cellStatus[c];
    const value = this.cellValue[c];
    if (status === 0) return value < 0 ? PIXELS.empty : value ? PIXELS.known1 : PIXELS.known0;
    if (status === SOLVED_RANK) {
      const slot = this.tiles.slot[this.cellTile[c]];
      return value === 0 ? PIXELS.solved0[slot] : PIXELS.solved1[slot];
    }
    if (value >= 0) return value ? PIXELS.known1 : PIXELS.known0;
    if (this.cellFlags[c] & REJECTED) return PIXELS.rejected;
    if (status === 2) return PIXELS.revealed;
    return (x + y) & 1 ? PIXELS.hiddenA : PIXELS.hiddenB;
  }
}
