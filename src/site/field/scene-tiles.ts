import type { TileBox } from "../../engine/types";
import type { PackedTiles, PackedTileState } from "../../spectator";
import { machineOf, machineSlot } from "../palette";

export type TileStatus = "hidden" | "revealed" | "solved";

/** A tile as the page knows it: public geometry, status and solver (SPEC §4.7, §10). */
export interface SceneTile extends TileBox {
  rects: Array<[number, number, number, number]>;
  cells: number;
  m: number;
  status: TileStatus;
  /** Agent that solved it, or null. */
  agent: string | null;
  hash?: string;
}

/** A tile's public geometry, as the model and the snapshot's columns give it. */
export interface TileShape extends TileBox {
  m: number;
  rects: ReadonlyArray<readonly [number, number, number, number]>;
}

/** 0 unknown, then the status ranks: a shared cell shows its most advanced tile. */
export const HIDDEN_RANK = 1;
export const REVEALED_RANK = 2;
export const SOLVED_RANK = 3;
const STATUS_OF_RANK: TileStatus[] = ["hidden", "hidden", "revealed", "solved"];
export const RANK_OF_STATUS: Record<TileStatus, number> = { hidden: HIDDEN_RANK, revealed: REVEALED_RANK, solved: SOLVED_RANK };

/**
 * The tiles a scene knows, in columns indexed by tile id: a 12,000-tile snapshot is loaded without
 * one object per tile, so the first paint waits for nothing but typed-array writes. A `SceneTile`
 * object is made only when something asks for one tile (hover, outlines, labels) and kept until
 * that tile changes, so callers may compare tiles by identity.
 */
export class SceneTiles {
  /** Known tiles. */
  size = 0;
  /** Per tile id: 0 unknown, else HIDDEN_RANK, REVEALED_RANK or SOLVED_RANK. */
  rank = new Uint8Array(0);
  x0 = new Int32Array(0);
  y0 = new Int32Array(0);
  w = new Int32Array(0);
  h = new Int32Array(0);
  m = new Uint8Array(0);
  /** Offset of the tile's rectangles in `rectData` (a count, then lx, ly, w, h each); -1: the whole box. */
  rectAt = new Int32Array(0);
  rectData = new Int32Array(4096);
  /** Palette slot of a solved tile's machine (0 otherwise). */
  slot = new Uint8Array(0);
  /** Solver of a solved tile (index into `agents`), -1 otherwise. */
  solver = new Int32Array(0);
  private rectUsed = 0;
  private readonly agents: string[] = [];
  private readonly agentIndex = new Map<string, number>();
  private readonly agentSlots: number[] = [];
  private readonly cache = new Map<number, SceneTile>();

  get capacity(): number {
    return this.rank.length;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.rank.length && this.rank[id] !== 0;
  }

  /** Adds a tile or changes its status and solver (its geometry never changes). */
  set(shape: TileShape, status: TileStatus, agent: string | null): void {
    const id = shape.id;
    this.reserve(id + 1);
    if (this.rank[id] === 0) {
      this.size++;
      this.x0[id] = shape.x0;
      this.y0[id] = shape.y0;
      this.w[id] = shape.w;
      this.h[id] = shape.h;
      this.m[id] = shape.m;
      const r = shape.rects;
      if (r.length === 1 && r[0][0] === 0 && r[0][1] === 0 && r[0][2] === shape.w && r[0][3] === shape.h) this.rectAt[id] = -1;
      else {
        const at = this.appendRects(id, r.length);
        r.forEach((rect, k) => this.rectData.set(rect, at + 1 + 4 * k));
      }
    }
    this.rank[id] = RANK_OF_STATUS[status];
    this.setSolver(id, status === "solved" ? agent : null);
    this.cache.delete(id);
  }

  /**
   * Every tile of a snapshot's columns (docs/spectator.md) at once, straight from the arrays the
   * JSON holds. `agentIds` are the snapshot's agents, which its `solver` column indexes.
   */
  loadColumns(cols: PackedTiles & PackedTileState, agentIds: readonly string[]): void {
    const n = cols.ids.length;
    let id = 0;
    let maxId = 0;
    for (let i = 0; i < n; i++) maxId += cols.ids[i];
    this.reserve(maxId + 1);
    const agentAt = agentIds.map((a) => this.agentOf(a));
    let r = 0;
    const rects = cols.rects;
    for (let i = 0; i < n; i++) {
      id += cols.ids[i];
      if (this.rank[id] === 0) this.size++;
      const status = cols.status.charCodeAt(i);
      const rank = status === 115 /* s */ ? SOLVED_RANK : status === 114 /* r */ ? REVEALED_RANK : HIDDEN_RANK;
      this.rank[id] = rank;
      this.x0[id] = cols.x0[i];
      this.y0[id] = cols.y0[i];
      this.w[id] = cols.w[i];
      this.h[id] = cols.h[i];
      this.m[id] = cols.m.charCodeAt(i) - 48;
      const count = rects[r++];
      if (count === 0) this.rectAt[id] = -1;
      else {
        const at = this.appendRects(id, count);
        for (let k = 0; k < 4 * count; k++) this.rectData[at + 1 + k] = rects[r + k];
        r += 4 * count;
      }
      const solver = cols.solver[i];
      const agent = rank === SOLVED_RANK && solver >= 0 && solver < agentAt.length ? agentAt[solver] : -1;
      this.solver[id] = agent;
      this.slot[id] = agent >= 0 ? this.agentSlots[agent] : 0;
    }
    this.cache.clear();
  }

  /** One tile as an object (made on demand and kept until the tile changes). */
  get(id: number): SceneTile | undefined {
    if (!this.has(id)) return undefined;
    let tile = this.cache.get(id);
    if (!tile) {
      const rects = this.rectsOf(id);
      const solver = this.solver[id];
      tile = {
        id,
        x0: this.x0[id],
        y0: this.y0[id],
        w: this.w[id],
        h: this.h[id],
        rects,
        cells: countCells(this.w[id], this.h[id], rects),
        m: this.m[id],
        status: STATUS_OF_RANK[this.rank[id]],
        agent: solver >= 0 ? this.agents[solver] : null,
      };
      this.cache.set(id, tile);
    }
    return tile;
  }

  *keys(): IterableIterator<number> {
    for (let id = 0; id < this.rank.length; id++) if (this.rank[id] !== 0) yield id;
  }

  *values(): IterableIterator<SceneTile> {
    for (const id of this.keys()) yield this.get(id) as SceneTile;
  }

  /** The tile's rectangles relative to its box. */
  rectsOf(id: number): Array<[number, number, number, number]> {
    const at = this.rectAt[id];
    if (at < 0) return [[0, 0, this.w[id], this.h[id]]];
    const out: Array<[number, number, number, number]> = [];
    const d = this.rectData;
    for (let k = 0; k < d[at]; k++) out.push([d[at + 1 + 4 * k], d[at + 2 + 4 * k], d[at + 3 + 4 * k], d[at + 4 + 4 * k]]);
    return out;
  }

  /**
   * Calls `fn` with every row span [start, end) of global cell ids the tile covers (one call per
   * row of each rectangle): the loops that paint and index cells need no rectangle objects.
   */
  forEachSpan(id: number, G: number, fn: (start: number, end: number) => void): void {
    const X = this.x0[id];
    const Y = this.y0[id];
    const at = this.rectAt[id];
    if (at < 0) {
      for (let y = Y; y < Y + this.h[id]; y++) fn(y * G + X, y * G + X + this.w[id]);
      return;
    }
    const d = this.rectData;
    for (let k = 0; k < d[at]; k++) {
      const o = at + 1 + 4 * k;
      const lx = X + d[o];
      for (let y = Y + d[o + 1]; y < Y + d[o + 1] + d[o + 3]; y++) fn(y * G + lx, y * G + lx + d[o + 2]);
    }
  }

  private setSolver(id: number, agent: string | null): void {
    const index = agent === null ? -1 : this.agentOf(agent);
    this.solver[id] = index;
    this.slot[id] = index >= 0 ? this.agentSlots[index] : 0;
  }

  private agentOf(agent: string): number {
    let index = this.agentIndex.get(agent);
    if (index === undefined) {
      index = this.agents.length;
      this.agents.push(agent);
      this.agentIndex.set(agent, index);
      this.agentSlots.push(machineSlot(machineOf(agent)));
    }
    return index;
  }

  /**
   * Room for tile `id`'s `count` rectangles: writes the count, points the tile at it and returns
   * the offset (every caller needs the pointer, so it is set here, not left to each of them).
   */
  private appendRects(id: number, count: number): number {
    const need = this.rectUsed + 1 + 4 * count;
    if (need > this.rectData.length) {
      const grown = new Int32Array(Math.max(need, this.rectData.length * 2));
      grown.set(this.rectData);
      this.rectData = grown;
    }
    const at = this.rectUsed;
    this.rectData[at] = count;
    this.rectAt[id] = at;
    this.rectUsed = need;
    return at;
  }

  private reserve(n: number): void {
    if (n <= this.rank.length) return;
    const cap = Math.max(n, this.rank.length * 2, 256);
    const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    const u8 = (k: number) => new Uint8Array(k);
    const i32 = (k: number) => new Int32Array(k);
    this.rank = grow(this.rank, u8);
    this.m = grow(this.m, u8);
    this.slot = grow(this.slot, u8);
    this.x0 = grow(this.x0, i32);
    this.y0 = grow(this.y0, i32);
    this.w = grow(this.w, i32);
    this.h = grow(this.h, i32);
    this.rectAt = grow(this.rectAt, i32);
    const solver = new Int32Array(cap).fill(-1);
    solver.set(this.solver);
    this.solver = solver;
  }
}

/** Cells in a union of rectangles (they may overlap). */
function countCells(w: number, h: number, rects: ReadonlyArray<readonly [number, number, number, number]>): number {
  if (rects.length === 1) return rects[0][2] * rects[0][3];
  const mask = new Uint8Array(w * h);
  for (const [lx, ly, rw, rh] of rects) for (let y = ly; y < ly + rh; y++) mask.fill(1, y * w + lx, y * w + lx + rw);
  let n = 0;
  for (const b of mask) n += b;
  return n;
}
