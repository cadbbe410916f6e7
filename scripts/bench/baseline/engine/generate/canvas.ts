/**
 * The working state of a generation: tiles placed so far, which cells they cover, the values
 * decided so far and the cells reserved as holes. Tiles are appended and may be dropped (a tile
 * that cannot be filled), so coverage is a per-cell linked list that skips dropped tiles.
 */
import { shapeCellIds, shapeLines } from "../geometry";
import type { Rect, SolutionCount, TileShape } from "../types";

export type TileState = "placed" | "filled" | "dropped";

export interface CanvasTile {
  /** Index in `Canvas.tiles` (not the final id: dropped tiles are skipped when ids are assigned). */
  key: number;
  x0: number;
  y0: number;
  w: number;
  h: number;
  rects: Rect[];
  kind: string;
  cells: number[];
  /** Lines as global cell ids with their orientation (worked out when first asked for). */
  readonly lines: { orientation: "h" | "v"; cells: number[] }[];
  state: TileState;
  /** Tiles of earlier stages are locked: their values can no longer change. */
  locked: boolean;
  m: SolutionCount;
  givens: number[] | null;
}

export class Canvas {
  readonly G: number;
  readonly solution: Uint8Array;
  /** 1 when the cell's value is decided. */
  readonly fixed: Uint8Array;
  /** 1 for cells reserved as holes (no tile may cover them). */
  readonly blocked: Uint8Array;
  /** Number of live tiles covering each cell. */
  readonly cover: Uint8Array;
  readonly tiles: CanvasTile[] = [];
  private readonly head: Int32Array;
  private next: number[] = [];
  private owner: number[] = [];

  constructor(G: number) {
    this.G = G;
    this.solution = new Uint8Array(G * G);
    this.fixed = new Uint8Array(G * G);
    this.blocked = new Uint8Array(G * G);
    this.cover = new Uint8Array(G * G);
    this.head = new Int32Array(G * G).fill(-1);
  }

  /**
   * Add a tile; `cells` may pass its cell ids when the caller has them already (ascending, as
   * `shapeCellIds` gives them).
   */
  addTile(shape: Omit<TileShape, "id">, kind: string, m: SolutionCount, cells?: number[]): CanvasTile {
    const key = this.tiles.length;
    const tile = new LazyLinesTile(key, shape, kind, cells ?? shapeCellIds({ id: key, ...shape }, this.G), m, this.G);
    this.tiles.push(tile);
    for (const c of tile.cells) {
      this.owner.push(key);
      this.next.push(this.head[c]);
      this.head[c] = this.owner.length - 1;
      this.cover[c]++;
    }
    return tile;
  }

  drop(tile: CanvasTile): void {
    if (tile.state === "dropped") return;
    tile.state = "dropped";
    for (const c of tile.cells) {
      // A cell no live tile covers is a hole again: its value is forgotten.
      if (--this.cover[c] === 0) {
        this.fixed[c] = 0;
        this.solution[c] = 0;
      }
    }
  }

  /** Live tiles covering a cell (most recent first). */
  tilesAt(cell: number, out: number[] = []): number[] {
    for (let e = this.head[cell]; e !== -1; e = this.next[e]) {
      const t = this.owner[e];
      if (this.tiles[t].state !== "dropped") out.push(t);
    }
    return out;
  }

  /** Live tiles sharing a cell with `tile`, ascending by key. */
  neighbours(tile: CanvasTile): number[] {
    const seen = new Set<number>();
    const buf: number[] = [];
    for (const c of tile.cells) {
      if (this.cover[c] < 2) continue;
      buf.length = 0;
      for (const t of this.tilesAt(c, buf)) if (t !== tile.key) seen.add(t);
    }
    return [...seen].sort((a, b) => a - b);
  }
}

/**
 * A canvas tile whose lines are worked out on first use: only tiles being filled need them, so
 * the locked tiles of an existing field (thousands on a grown canvas) never build theirs.
 */
class LazyLinesTile implements CanvasTile {
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  readonly rects: Rect[];
  state: TileState = "placed";
  locked = false;
  givens: number[] | null = null;
  private cached: CanvasTile["lines"] | null = null;

  constructor(
    readonly key: number,
    shape: Omit<TileShape, "id">,
    readonly kind: string,
    readonly cells: number[],
    readonly m: SolutionCount,
    private readonly G: number,
  ) {
    this.x0 = shape.x0;
    this.y0 = shape.y0;
    this.w = shape.w;
    this.h = shape.h;
    this.rects = shape.rects;
  }

  get lines(): CanvasTile["lines"] {
    return (this.cached ??= shapeLines({ id: this.key, x0: this.x0, y0: this.y0, w: this.w, h: this.h, rects: this.rects }, this.G));
  }
}
