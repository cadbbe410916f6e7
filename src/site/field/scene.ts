import { machineOf, machineSlot, PIXELS } from "../palette";

export type TileStatus = "hidden" | "revealed" | "solved";

/** A tile as the page knows it: public geometry, status and solver (SPEC §4.7, §10). */
export interface SceneTile {
  id: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects: Array<[number, number, number, number]>;
  cells: number;
  m: number;
  status: TileStatus;
  /** Agent that solved it, or null. */
  agent: string | null;
  hash?: string;
}

const STATUS_RANK: Record<TileStatus, number> = { hidden: 1, revealed: 2, solved: 3 };
const REJECTED = 1;

/**
 * The field as pixels: one entry per cell in typed arrays, mirrored into a G×G ImageData (one
 * pixel per cell) through a Uint32Array view. Every change marks a dirty rectangle; `flush`
 * pushes only that rectangle to the board canvas. Overlays (outlines, marks, labels) are drawn
 * in screen space by the view, from the same arrays.
 */
export class FieldScene {
  readonly G: number;
  readonly tiles = new Map<number, SceneTile>();
  /** A tile covering each cell (the highest-status one), -1 for none known. */
  readonly cellTile: Int32Array;
  /** 0 nothing known, 1 hidden, 2 revealed, 3 solved: the highest status over covering tiles. */
  readonly cellStatus: Uint8Array;
  /** -1 unknown, else the accepted value. */
  readonly cellValue: Int8Array;
  readonly cellFlags: Uint8Array;
  readonly image: ImageData;
  private readonly pixels: Uint32Array;
  /** Palette slot of each solved tile's machine (by tile id), so painting a cell is array reads. */
  private tileSlot = new Int16Array(1024);
  private dirty: [number, number, number, number] | null = null;
  /** Bumped on every change, so views can tell when to redraw. */
  version = 0;
  private readonly buckets: Map<number, number[]> = new Map();
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
  }

  /**
   * Many tiles at once (a snapshot, a rebuilt replay): cell ownership first, then one paint per
   * cell of the field and one dirty rectangle, instead of painting every tile's cells as it comes.
   */
  bulkLoad(tiles: readonly SceneTile[]): void {
    const G = this.G;
    for (const tile of tiles) {
      const known = this.tiles.get(tile.id);
      this.tiles.set(tile.id, tile);
      if (!known) this.index(tile);
      this.setSlot(tile);
      const rank = STATUS_RANK[tile.status];
      for (const [lx, ly, w, h] of tile.rects) {
        for (let y = tile.y0 + ly; y < tile.y0 + ly + h; y++) {
          const row = y * G;
          for (let x = tile.x0 + lx; x < tile.x0 + lx + w; x++) {
            const c = row + x;
            if (rank >= this.cellStatus[c]) {
              this.cellStatus[c] = rank;
              this.cellTile[c] = tile.id;
            }
          }
        }
      }
    }
    for (let c = 0; c < this.cellStatus.length; c++) this.paint(c);
    this.markDirty(0, 0, G, G);
  }

  private setSlot(tile: SceneTile): void {
    if (tile.id >= this.tileSlot.length) {
      const grown = new Int16Array(Math.max(tile.id + 1, this.tileSlot.length * 2));
      grown.set(this.tileSlot);
      this.tileSlot = grown;
    }
    this.tileSlot[tile.id] = tile.agent ? machineSlot(machineOf(tile.agent)) : 0;
  }

  /** Adds a tile or updates its status/solver; statuses only rise (a rewind builds a new scene). */
  upsertTile(tile: SceneTile): void {
    const known = this.tiles.get(tile.id);
    this.tiles.set(tile.id, tile);
    if (!known) this.index(tile);
    this.setSlot(tile);
    const rank = STATUS_RANK[tile.status];
    const G = this.G;
    for (const [lx, ly, w, h] of tile.rects) {
      for (let y = tile.y0 + ly; y < tile.y0 + ly + h; y++) {
        for (let x = tile.x0 + lx; x < tile.x0 + lx + w; x++) {
          const c = y * G + x;
          if (rank >= this.cellStatus[c]) {
            this.cellStatus[c] = rank;
            this.cellTile[c] = tile.id;
            this.paint(c);
          }
        }
      }
    }
    this.markDirty(tile.x0, tile.y0, tile.w, tile.h);
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

  /** Every cell's value (-1 unknown) and rejection mark at once; painted by the next bulkLoad. */
  loadCells(values: Int8Array, rejected: Uint8Array): void {
    this.cellValue.set(values);
    for (let c = 0; c < rejected.length; c++) this.cellFlags[c] = rejected[c] ? this.cellFlags[c] | REJECTED : this.cellFlags[c] & ~REJECTED;
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
    const seen = new Set<number>();
    const out: SceneTile[] = [];
    for (let by = Math.floor(y0 / B); by <= Math.floor((y1 - 1) / B); by++) {
      for (let bx = Math.floor(x0 / B); bx <= Math.floor((x1 - 1) / B); bx++) {
        for (const id of this.buckets.get(by * 4096 + bx) ?? []) {
          if (seen.has(id)) continue;
          seen.add(id);
          const t = this.tiles.get(id);
          if (t && t.x0 < x1 && t.x0 + t.w > x0 && t.y0 < y1 && t.y0 + t.h > y0) {
            out.push(t);
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

  private index(tile: SceneTile): void {
    const B = FieldScene.BUCKET;
    for (let by = Math.floor(tile.y0 / B); by <= Math.floor((tile.y0 + tile.h - 1) / B); by++) {
      for (let bx = Math.floor(tile.x0 / B); bx <= Math.floor((tile.x0 + tile.w - 1) / B); bx++) {
        const key = by * 4096 + bx;
        const list = this.buckets.get(key);
        if (list) list.push(tile.id);
        else this.buckets.set(key, [tile.id]);
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

  /** The pixel of one cell from its status, solver, value and flags. */
  private paint(c: number): void {
    const status = this.cellStatus[c];
    const value = this.cellValue[c];
    let word: number;
    if (status === 0) word = value < 0 ? PIXELS.empty : value ? PIXELS.known1 : PIXELS.known0;
    else if (status === 3) {
      const slot = this.tileSlot[this.cellTile[c]];
      word = value === 0 ? PIXELS.solved0[slot] : PIXELS.solved1[slot];
    } else if (value >= 0) word = value ? PIXELS.known1 : PIXELS.known0;
    else if (this.cellFlags[c] & REJECTED) word = PIXELS.rejected;
    else if (status === 2) word = PIXELS.revealed;
    else {
      const x = c % this.G;
      const y = (c - x) / this.G;
      word = (x + y) & 1 ? PIXELS.hiddenA : PIXELS.hiddenB;
    }
    this.pixels[c] = word;
  }
}
